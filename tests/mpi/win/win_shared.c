/* Shared-memory windows (MPI_Win_allocate_shared, MPI_Win_shared_query) and the one-sided operations
 * on windows whose processes share a host, on any number of ranks: the parts' layout (contiguous by
 * default, aligned with alloc_shared_noncontig, a part of 0 bytes, MPI_PROC_NULL's answer), direct
 * loads and stores into other ranks' parts, a counter built on MPI_Fetch_and_op mixed with
 * MPI_Accumulate under contention, a mutex built on MPI_Compare_and_swap, concurrent exclusive lockers,
 * fence and post-start-complete-wait with partial groups, derived datatypes on both sides, accumulates
 * of doubles and get_accumulate with MPI_REPLACE and MPI_NO_OP. With the argument "refused", the
 * window's creation must fail cleanly (run with --mca osc am: no component shares memory). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

#define CHECK(cond, ...)                                                                                              \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "rank %d: line %d: ", rank, __LINE__);                                                   \
            fprintf(stderr, __VA_ARGS__);                                                                             \
            fputc('\n', stderr);                                                                                      \
            ++failures;                                                                                               \
        }                                                                                                             \
    } while (0)

enum { ROUNDS = 300 };

static int error_class(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

/* Part sizes differ per rank, and rank 1's is empty. */
static MPI_Aint part_bytes(int r)
{
    return r == 1 ? 0 : (MPI_Aint)(100 + 8 * r);
}

static void layout(int noncontig)
{
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    char *mine = NULL;
    MPI_Win win;
    int rc = MPI_Win_allocate_shared(part_bytes(rank), 1, info, MPI_COMM_WORLD, &mine, &win);
    CHECK(rc == MPI_SUCCESS, "MPI_Win_allocate_shared: %d", rc);
    if (info != MPI_INFO_NULL) {
        MPI_Info_free(&info);
    }
    int *flavor = NULL, *model = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_SHARED, "flavor %d", flag ? *flavor : -1);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    CHECK(flag && *model == MPI_WIN_UNIFIED, "model %d", flag ? *model : -1);
    char *prev = NULL;
    for (int r = 0; r < size; ++r) {
        MPI_Aint bytes = -1;
        int unit = 0;
        char *base = NULL;
        MPI_Win_shared_query(win, r, &bytes, &unit, &base);
        CHECK(bytes == part_bytes(r) && unit == 1, "rank %d's part: %ld bytes, unit %d", r, (long)bytes, unit);
        if (r == rank) {
            CHECK(base == mine, "rank %d's part is at %p, MPI_Win_allocate_shared gave %p", r, (void *)base,
                  (void *)mine);
        }
        if (noncontig) {
            CHECK(((uintptr_t)base & 63) == 0, "rank %d's part at %p is not aligned", r, (void *)base);
        } else if (r > 0) {
            CHECK(base == prev + part_bytes(r - 1), "rank %d's part at %p does not follow rank %d's", r, (void *)base,
                  r - 1);
        }
        prev = base;
    }
    /* MPI_PROC_NULL: the first part that is not empty (rank 0's). */
    MPI_Aint bytes = -1;
    int unit = 0;
    char *first = NULL, *zero = NULL;
    MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit, &first);
    MPI_Win_shared_query(win, 0, &bytes, &unit, &zero);
    CHECK(first == zero && bytes == part_bytes(0), "MPI_PROC_NULL gave %p (%ld bytes), rank 0's part is %p",
          (void *)first, (long)bytes, (void *)zero);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    rc = MPI_Win_shared_query(win, size, &bytes, &unit, &first);
    CHECK(error_class(rc) == MPI_ERR_RANK, "shared_query of rank %d: %d", size, rc);
    MPI_Win_free(&win);
}

/* Each rank stores into the part of the rank after it and loads what the rank before stored in its own. */
static void load_store(void)
{
    long *mine = NULL;
    MPI_Win win;
    MPI_Win_allocate_shared(64 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Aint bytes;
    int unit;
    long *theirs = NULL;
    MPI_Win_shared_query(win, right, &bytes, &unit, &theirs);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    for (int round = 1; round <= 3; ++round) {
        for (int i = 0; i < 64; ++i) {
            theirs[i] = 1000L * round + 10L * rank + i;
        }
        MPI_Win_sync(win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_sync(win);
        for (int i = 0; i < 64; ++i) {
            CHECK(mine[i] == 1000L * round + 10L * left + i, "round %d: mine[%d] = %ld", round, i, mine[i]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
}

/* Layout (longs) of rank 0's part: 0 counter, 1 mutex, 2 guarded, 3 exclusive lockers' value. */
static void contention(MPI_Win win, long *mine)
{
    const long one = 1;
    /* The counter: fetch-and-op SUM and accumulate SUM mixed, from every rank at once. */
    MPI_Win_lock_all(0, win);
    long last = -1;
    for (int i = 0; i < ROUNDS; ++i) {
        if (i % 3 == 2) {
            MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
            continue;
        }
        long got = -1;
        MPI_Fetch_and_op(&one, &got, MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        CHECK(got > last, "fetched %ld after %ld", got, last);
        last = got;
    }
    /* The mutex: compare-and-swap 0 -> rank + 1, a get-increment-put under it, released with REPLACE. */
    for (int i = 0; i < ROUNDS / 3; ++i) {
        const long me = rank + 1, free_ = 0;
        long seen = -1;
        do {
            MPI_Compare_and_swap(&me, &free_, &seen, MPI_LONG, 0, 1, win);
            MPI_Win_flush(0, win);
        } while (seen != 0);
        long v = -1;
        MPI_Get(&v, 1, MPI_LONG, 0, 2, 1, MPI_LONG, win);
        MPI_Win_flush(0, win);
        ++v;
        MPI_Put(&v, 1, MPI_LONG, 0, 2, 1, MPI_LONG, win);
        MPI_Win_flush(0, win);
        MPI_Fetch_and_op(&free_, &seen, MPI_LONG, 0, 1, MPI_REPLACE, win);
        MPI_Win_flush(0, win);
        CHECK(seen == me, "the mutex held %ld while rank %d held it", seen, rank);
    }
    MPI_Win_unlock_all(win);
    /* Exclusive lockers: get, increment, put; no update lost. */
    for (int i = 0; i < ROUNDS / 3; ++i) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        long v = -1;
        MPI_Get(&v, 1, MPI_LONG, 0, 3, 1, MPI_LONG, win);
        MPI_Win_flush(0, win);
        ++v;
        MPI_Put(&v, 1, MPI_LONG, 0, 3, 1, MPI_LONG, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_sync(win);
        CHECK(mine[0] == (long)size * ROUNDS, "counter %ld, expected %ld", mine[0], (long)size * ROUNDS);
        CHECK(mine[1] == 0, "mutex left at %ld", mine[1]);
        CHECK(mine[2] == (long)size * (ROUNDS / 3), "guarded %ld, expected %ld", mine[2], (long)size * (ROUNDS / 3));
        CHECK(mine[3] == (long)size * (ROUNDS / 3), "exclusive %ld, expected %ld", mine[3], (long)size * (ROUNDS / 3));
    }
    /* Synchronisation errors. */
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(error_class(MPI_Win_unlock(0, win)) == MPI_ERR_RMA_SYNC, "unlock without a lock");
    CHECK(error_class(MPI_Put(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win)) == MPI_ERR_RMA_SYNC, "put outside an epoch");
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK(error_class(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)) == MPI_ERR_RMA_SYNC, "second lock of a target");
    CHECK(error_class(MPI_Win_free(&win)) == MPI_ERR_RMA_SYNC, "free with a lock held");
    MPI_Win_unlock(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Fence and PSCW: each rank puts into the rank after it; PSCW with partial groups (each rank exposes
 * its part to the rank before it only, and accesses the rank after it only). */
static void active_target(MPI_Win win, long *mine)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Win_fence(0, win);
    const long v = 100 + rank;
    MPI_Put(&v, 1, MPI_LONG, right, 4, 1, MPI_LONG, win);
    MPI_Win_fence(0, win);
    CHECK(mine[4] == 100 + left, "fence: %ld, expected %d", mine[4], 100 + left);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

    MPI_Group world, from, to;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &from);
    MPI_Group_incl(world, 1, &right, &to);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int round = 0; round < 20; ++round) {
        if (MPI_Win_post(from, 0, win) != MPI_SUCCESS) {
            /* A library without post-start-complete-wait in its MPI layer (the same on every rank). */
            if (rank == 0) {
                printf("win_shared: MPI_Win_post refused: PSCW not checked\n");
            }
            MPI_Group_free(&from);
            MPI_Group_free(&to);
            MPI_Group_free(&world);
            return;
        }
        MPI_Win_start(to, 0, win);
        const long w = 1000 * round + rank;
        MPI_Put(&w, 1, MPI_LONG, right, 5, 1, MPI_LONG, win);
        MPI_Accumulate(&w, 1, MPI_LONG, right, 6, 1, MPI_LONG, MPI_SUM, win);
        MPI_Win_complete(win);
        if (round % 2 == 0) {
            MPI_Win_wait(win);
        } else {
            int done = 0;
            while (!done) {
                MPI_Win_test(win, &done);
            }
        }
        CHECK(mine[5] == 1000 * round + left, "PSCW round %d: %ld", round, mine[5]);
    }
    long sum = 0;
    for (int round = 0; round < 20; ++round) {
        sum += 1000 * round + left;
    }
    CHECK(mine[6] == sum, "PSCW accumulates: %ld, expected %ld", mine[6], sum);
    CHECK(error_class(MPI_Win_complete(win)) == MPI_ERR_RMA_SYNC, "complete without start");
    CHECK(error_class(MPI_Win_wait(win)) == MPI_ERR_RMA_SYNC, "wait without post");
    MPI_Group_free(&from);
    MPI_Group_free(&to);
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The request-based operations, complete when MPI_Wait returns, in a passive epoch (slot 7 of each
 * rank's part: every rank works on the part of the rank after it). */
static void request_based(MPI_Win win, long *mine)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    const long v = 7000 + rank;
    MPI_Request req = MPI_REQUEST_NULL;
    const int rc = MPI_Rput(&v, 1, MPI_LONG, right, 7, 1, MPI_LONG, win, &req);
    CHECK(error_class(rc) == MPI_ERR_RMA_SYNC || error_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION,
          "MPI_Rput outside a passive epoch: %d", rc);
    if (error_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION) {
        if (rank == 0) {
            printf("win_shared: MPI_Rput refused: request-based operations not checked\n");
        }
        return;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    CHECK(MPI_Rput(&v, 1, MPI_LONG, right, 7, 1, MPI_LONG, win, &req) == MPI_SUCCESS, "MPI_Rput");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_flush(right, win);
    long got = -1, old = -1;
    CHECK(MPI_Rget(&got, 1, MPI_LONG, right, 7, 1, MPI_LONG, win, &req) == MPI_SUCCESS, "MPI_Rget");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(got == v, "MPI_Rget gave %ld, MPI_Rput put %ld", got, v);
    const long add = 5;
    CHECK(MPI_Raccumulate(&add, 1, MPI_LONG, right, 7, 1, MPI_LONG, MPI_SUM, win, &req) == MPI_SUCCESS,
          "MPI_Raccumulate");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(MPI_Rget_accumulate(NULL, 0, MPI_LONG, &old, 1, MPI_LONG, right, 7, 1, MPI_LONG, MPI_NO_OP, win, &req) ==
              MPI_SUCCESS,
          "MPI_Rget_accumulate");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(old == v + add, "MPI_Rget_accumulate gave %ld, expected %ld", old, v + add);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mine[7] == 7000 + left + add, "slot 7: %ld, expected %ld", mine[7], 7000 + left + add);
}

/* Derived datatypes on both sides, in an MPI_Win_allocate window (served by sm on one host). */
static void datatypes(void)
{
    enum { N = 64 };
    double *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate(N * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < N; ++i) {
        mem[i] = -1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Datatype every_other, blocks;
    MPI_Type_vector(8, 1, 2, MPI_DOUBLE, &every_other); /* 8 doubles, stride 2 */
    MPI_Type_commit(&every_other);
    const int lens[3] = {2, 3, 3}, disps[3] = {20, 30, 40};
    MPI_Type_indexed(3, lens, disps, MPI_DOUBLE, &blocks); /* 8 doubles at 20-21, 30-32, 40-42 */
    MPI_Type_commit(&blocks);
    double src[16];
    for (int i = 0; i < 16; ++i) {
        src[i] = rank * 100 + i;
    }
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(src, 1, every_other, right, 0, 1, blocks, win); /* src[0,2,..,14] -> the blocks */
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    const int at[8] = {20, 21, 30, 31, 32, 40, 41, 42};
    for (int k = 0; k < 8; ++k) {
        CHECK(mem[at[k]] == left * 100 + 2 * k, "vector -> indexed: mem[%d] = %g", at[k], mem[at[k]]);
    }
    /* A get through the indexed target into a vector origin, and an MPI_SUM of doubles through it. */
    double back[16];
    for (int i = 0; i < 16; ++i) {
        back[i] = -7;
    }
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Get(back, 1, every_other, right, 0, 1, blocks, win);
    MPI_Win_unlock(right, win);
    for (int k = 0; k < 8; ++k) {
        CHECK(back[2 * k] == rank * 100 + 2 * k && back[2 * k + 1] == -7, "indexed -> vector: back[%d] = %g",
              2 * k, back[2 * k]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* Every rank adds to rank 0's blocks at once: doubles go under the target's accumulate lock. */
    double add[8];
    for (int k = 0; k < 8; ++k) {
        add[k] = 1.0;
    }
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < ROUNDS / 10; ++i) {
        MPI_Accumulate(add, 8, MPI_DOUBLE, 0, 0, 1, blocks, MPI_SUM, win);
    }
    double old = 0, one = 1;
    MPI_Fetch_and_op(&one, &old, MPI_DOUBLE, 0, 63, MPI_SUM, win);
    MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, &old, 1, MPI_DOUBLE, 0, 63, 1, MPI_DOUBLE, MPI_NO_OP, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_sync(win);
        const double start = (size - 1) * 100.0; /* the values rank size-1 put into rank 0 */
        for (int k = 0; k < 8; ++k) {
            CHECK(mem[at[k]] == start + 2 * k + (double)size * (ROUNDS / 10), "sum of doubles: mem[%d] = %g", at[k],
                  mem[at[k]]);
        }
        CHECK(mem[63] == -1 + size, "fetch-and-op of doubles: %g", mem[63]);
    }
    /* Get_accumulate with MPI_REPLACE: each rank swaps its value in, one of them last. */
    MPI_Win_lock_all(0, win);
    double mineval = rank, prev = -5;
    MPI_Get_accumulate(&mineval, 1, MPI_DOUBLE, &prev, 1, MPI_DOUBLE, 0, 62, 1, MPI_DOUBLE, MPI_REPLACE, win);
    MPI_Win_unlock_all(win);
    CHECK(prev == -1 || (prev >= 0 && prev < size && prev != rank), "replace gave back %g", prev);
    MPI_Type_free(&every_other);
    MPI_Type_free(&blocks);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "refused") == 0) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        void *base = NULL;
        MPI_Win win = MPI_WIN_NULL;
        const int rc = MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, text, &len);
        CHECK(rc != MPI_SUCCESS && win == MPI_WIN_NULL, "MPI_Win_allocate_shared succeeded");
        if (rank == 0) {
            printf("win_shared refused: %s\n", text);
        }
        MPI_Finalize();
        if (failures == 0 && rank == 0) {
            printf("win_shared refused: all checks passed on %d ranks\n", size);
        }
        return failures != 0;
    }
    layout(0);
    layout(1);
    load_store();
    long *mine = NULL;
    MPI_Win win;
    MPI_Win_allocate_shared(8 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
    memset(mine, 0, 8 * sizeof(long));
    MPI_Barrier(MPI_COMM_WORLD);
    contention(win, mine);
    active_target(win, mine);
    request_based(win, mine);
    MPI_Win_free(&win);
    datatypes();
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    if (all == 0 && rank == 0) {
        printf("win_shared: all checks passed on %d ranks\n", size);
    }
    return all != 0;
}
