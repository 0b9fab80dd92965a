/* Passive target one-sided communication and the atomic operations, on any number of ranks: counters
 * built on MPI_Fetch_and_op under contention from every rank, a mutex built on MPI_Compare_and_swap,
 * concurrent exclusive lockers doing read-modify-write with get and put (no lost update), shared locks
 * with accumulates, MPI_Get_accumulate with MPI_REPLACE and MPI_NO_OP, flush making a put visible at the
 * target, atomics inside fence epochs, and the synchronisation errors. With the argument "compute", rank
 * 0 computes without calling MPI while the others lock its window, which needs asynchronous progress. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

enum { ROUNDS = 200, SLOTS = 8 };
/* Window layout (longs): 0 counter, 1 mutex, 2 guarded value, 3 exclusive-locker value, 4 shared sum,
 * 5 flushed value, 6 get_accumulate slot, 7 fence counter. */

static int error_class(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int compute = argc > 1 && strcmp(argv[1], "compute") == 0;

    long *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate(SLOTS * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < SLOTS; ++i) {
        mem[i] = 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const int owner = size - 1; /* the target of the contended tests */
    const long one = 1;

    if (compute) {
        /* The owner computes for a while without any MPI call; the others' locks and fetch-and-ops must be
         * served meanwhile (asynchronous progress runs the osc hook). */
        if (rank == owner) {
            const double until = now() + 3.0;
            volatile double x = 0;
            while (now() < until) {
                x += 1.0;
            }
            CHECK(x > 0, "the owner never computed");
        } else {
            const double start = now();
            long old = -1;
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, win);
            MPI_Fetch_and_op(&one, &old, MPI_LONG, owner, 0, MPI_SUM, win);
            MPI_Win_unlock(owner, win);
            const double took = now() - start;
            CHECK(took < 2.0, "the computing target served the lock and fetch-and-op only after %.2f s", took);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == owner) {
            MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
            CHECK(mem[0] == size - 1, "counter %ld after the computing phase, expected %d", mem[0], size - 1);
            MPI_Win_unlock(owner, win);
        }
        MPI_Win_free(&win);
        if (rank == 0 && failures == 0) {
            printf("win_passive compute: all checks passed on %d ranks\n", size);
        }
        MPI_Finalize();
        return failures != 0;
    }

    /* 1. A counter on fetch-and-op: every rank adds 1 ROUNDS times; each fetched value is distinct. */
    long seen_max = -1;
    for (int i = 0; i < ROUNDS; ++i) {
        long old = -1;
        MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
        MPI_Fetch_and_op(&one, &old, MPI_LONG, owner, 0, MPI_SUM, win);
        MPI_Win_unlock(owner, win);
        CHECK(old >= 0 && old < 2L * ROUNDS * size, "fetched %ld", old);
        CHECK(old > seen_max || i == 0, "fetched %ld after %ld: not increasing", old, seen_max);
        seen_max = old;
    }
    /* The same under one lock_all epoch with flushes. */
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < ROUNDS; ++i) {
        long old = -1;
        MPI_Fetch_and_op(&one, &old, MPI_LONG, owner, 0, MPI_SUM, win);
        MPI_Win_flush(owner, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == owner) {
        MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
        CHECK(mem[0] == 2L * ROUNDS * size, "counter %ld, expected %ld", mem[0], 2L * ROUNDS * size);
        MPI_Win_unlock(owner, win);
    }

    /* 2. A mutex on compare-and-swap guarding a read-modify-write done with get and put. */
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < ROUNDS / 4; ++i) {
        const long mine = rank + 1, free_ = 0;
        long got = -1;
        do {
            MPI_Compare_and_swap(&mine, &free_, &got, MPI_LONG, owner, 1, win);
            MPI_Win_flush(owner, win);
        } while (got != 0);
        long value = -1;
        MPI_Get(&value, 1, MPI_LONG, owner, 2, 1, MPI_LONG, win);
        MPI_Win_flush(owner, win);
        ++value;
        MPI_Put(&value, 1, MPI_LONG, owner, 2, 1, MPI_LONG, win);
        MPI_Win_flush(owner, win);
        long was = -1;
        MPI_Compare_and_swap(&free_, &mine, &was, MPI_LONG, owner, 1, win);
        MPI_Win_flush(owner, win);
        CHECK(was == mine, "the mutex held %ld while rank %d owned it", was, rank);
    }
    MPI_Win_unlock_all(win);

    /* 3. Exclusive lockers: read, add, write back under MPI_LOCK_EXCLUSIVE; no update is lost. */
    for (int i = 0; i < ROUNDS / 4; ++i) {
        long value = -1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, win);
        MPI_Get(&value, 1, MPI_LONG, owner, 3, 1, MPI_LONG, win);
        MPI_Win_flush(owner, win);
        value += 1;
        MPI_Put(&value, 1, MPI_LONG, owner, 3, 1, MPI_LONG, win);
        MPI_Win_unlock(owner, win);
    }

    /* 4. Shared locks held by everyone at once, accumulating. */
    MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
    for (int i = 0; i < ROUNDS / 4; ++i) {
        MPI_Accumulate(&one, 1, MPI_LONG, owner, 4, 1, MPI_LONG, MPI_SUM, win);
    }
    MPI_Win_unlock(owner, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == owner) {
        MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
        CHECK(mem[2] == (long)(ROUNDS / 4) * size, "mutex-guarded value %ld, expected %ld", mem[2],
              (long)(ROUNDS / 4) * size);
        CHECK(mem[3] == (long)(ROUNDS / 4) * size, "exclusive lockers' value %ld, expected %ld (lost updates)",
              mem[3], (long)(ROUNDS / 4) * size);
        CHECK(mem[4] == (long)(ROUNDS / 4) * size, "shared accumulate %ld, expected %ld", mem[4],
              (long)(ROUNDS / 4) * size);
        CHECK(mem[1] == 0, "the mutex is still held by %ld", mem[1]);
        MPI_Win_unlock(owner, win);
    }

    /* 5. Flush: a put is in the target's memory once MPI_Win_flush returns (the unified model). */
    if (size > 1) {
        if (rank == 0) {
            const long value = 4242;
            MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
            MPI_Put(&value, 1, MPI_LONG, owner, 5, 1, MPI_LONG, win);
            MPI_Win_flush(owner, win);
            MPI_Send(NULL, 0, MPI_BYTE, owner, 7, MPI_COMM_WORLD);
            MPI_Win_unlock(owner, win);
        } else if (rank == owner) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Win_sync(win);
            CHECK(mem[5] == 4242, "after the origin's flush the target holds %ld, not 4242", mem[5]);
        }
    }

    /* 6. Get_accumulate: MPI_REPLACE swaps, MPI_NO_OP reads; on the own window too (MPI_MODE_NOCHECK). */
    MPI_Barrier(MPI_COMM_WORLD);
    {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, MPI_MODE_NOCHECK, win);
        const long seven = 7;
        long old = -1, read = -1;
        mem[6] = 5;
        MPI_Win_sync(win);
        MPI_Get_accumulate(&seven, 1, MPI_LONG, &old, 1, MPI_LONG, rank, 6, 1, MPI_LONG, MPI_REPLACE, win);
        MPI_Win_flush(rank, win);
        MPI_Get_accumulate(NULL, 0, MPI_LONG, &read, 1, MPI_LONG, rank, 6, 1, MPI_LONG, MPI_NO_OP, win);
        MPI_Win_unlock(rank, win);
        CHECK(old == 5 && read == 7, "get_accumulate REPLACE fetched %ld (expected 5), NO_OP %ld (expected 7)", old,
              read);
        CHECK(mem[6] == 7, "after REPLACE and NO_OP the window holds %ld, not 7", mem[6]);
    }

    /* 7. Atomics inside fence epochs. */
    MPI_Win_fence(0, win);
    long fetched = -1;
    MPI_Fetch_and_op(&one, &fetched, MPI_LONG, 0, 7, MPI_SUM, win);
    MPI_Win_fence(0, win);
    CHECK(fetched >= 0 && fetched < size, "fetch-and-op in a fence epoch fetched %ld", fetched);
    if (rank == 0) {
        CHECK(mem[7] == size, "fence counter %ld, expected %d", mem[7], size);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

    /* 8. Synchronisation errors, raised on the window. */
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int rc = MPI_Win_unlock(owner, win);
    CHECK(error_class(rc) == MPI_ERR_RMA_SYNC, "unlock without a lock gave %d", rc);
    rc = MPI_Win_flush(owner, win);
    CHECK(error_class(rc) == MPI_ERR_RMA_SYNC, "flush outside a passive epoch gave %d", rc);
    rc = MPI_Win_lock(12345, owner, 0, win);
    CHECK(error_class(rc) == MPI_ERR_LOCKTYPE, "a bad lock type gave %d", rc);
    rc = MPI_Fetch_and_op(&one, &fetched, MPI_LONG, owner, 0, MPI_SUM, win);
    CHECK(error_class(rc) == MPI_ERR_RMA_SYNC, "fetch-and-op outside an epoch gave %d", rc);
    MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
    rc = MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
    CHECK(error_class(rc) == MPI_ERR_RMA_SYNC, "a second lock on the same target gave %d", rc);
    rc = MPI_Win_lock_all(0, win);
    CHECK(error_class(rc) == MPI_ERR_RMA_SYNC, "lock_all while holding a lock gave %d", rc);
    MPI_Win_unlock(owner, win);

    MPI_Win_free(&win);

    /* 9. Accumulates of a pair type (data with a gap: MPI_DOUBLE_INT is 12 bytes in an extent of 16):
     * MPI_MAXLOC from every rank, and MPI_REPLACE through get_accumulate. */
    struct pair { double value; int index; } *pairs = NULL;
    MPI_Win pwin;
    MPI_Win_allocate(4 * sizeof(struct pair), sizeof(struct pair), MPI_INFO_NULL, MPI_COMM_WORLD, &pairs, &pwin);
    for (int i = 0; i < 4; ++i) {
        pairs[i].value = -1.0;
        pairs[i].index = -1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    struct pair mine[4], old[4];
    for (int i = 0; i < 4; ++i) {
        mine[i].value = 10.0 * ((rank + i) % size);
        mine[i].index = rank;
    }
    MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, pwin);
    MPI_Accumulate(mine, 4, MPI_DOUBLE_INT, owner, 0, 4, MPI_DOUBLE_INT, MPI_MAXLOC, pwin);
    MPI_Win_unlock(owner, pwin);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == owner) {
        MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, pwin);
        for (int i = 0; i < 4; ++i) {
            /* The largest (rank + i) % size is size - 1, reached by rank (size - 1 - i) mod size. */
            const int at = ((size - 1 - i) % size + size) % size;
            CHECK(pairs[i].value == 10.0 * (size - 1) && pairs[i].index == at,
                  "MAXLOC element %d: (%g, %d), expected (%g, %d)", i, pairs[i].value, pairs[i].index,
                  10.0 * (size - 1), at);
        }
        MPI_Win_unlock(owner, pwin);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, pwin);
        MPI_Get_accumulate(mine, 4, MPI_DOUBLE_INT, old, 4, MPI_DOUBLE_INT, owner, 0, 4, MPI_DOUBLE_INT, MPI_REPLACE,
                           pwin);
        MPI_Win_unlock(owner, pwin);
        for (int i = 0; i < 4; ++i) {
            CHECK(old[i].value == 10.0 * (size - 1), "get_accumulate of pairs fetched %g at %d", old[i].value, i);
        }
    }
    MPI_Win_free(&pwin);

    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) {
        printf("win_passive: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return total != 0;
}
