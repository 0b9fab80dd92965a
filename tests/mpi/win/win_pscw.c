/* Post-start-complete-wait (general active target synchronisation) on any number of ranks: a ring where
 * each process is origin to its right neighbour and target of its left one in the same epoch; a star
 * (rank 0 origin to everyone, then everyone origin to rank 0, accumulating and fetching); ranks that
 * take no part; MPI_Win_test until the epoch ends; MPI_MODE_NOCHECK on both sides; a strided origin
 * into an indexed target; and the synchronisation errors of mixing epochs. */
#include <mpi.h>
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

enum { SLOTS = 64 };

static int error_class(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

/* Over a translated runtime (tests/translator) the checks of what Tessera promises beyond the standard's
 * required behaviour are skipped. */
static int native_engine(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    return strstr(version, "(translator") == NULL;
}

static MPI_Group group_of(MPI_Group world, int n, const int *ranks)
{
    MPI_Group g;
    MPI_Group_incl(world, n, ranks, &g);
    return g;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    long *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate(SLOTS * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < SLOTS; ++i) {
        mem[i] = -1;
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Ring: origin to the right neighbour, target of the left one, in one epoch of each kind. */
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int round = 0; round < 20; ++round) {
        MPI_Group to = group_of(world, 1, &right), from = group_of(world, 1, &left);
        CHECK(MPI_Win_post(from, 0, win) == MPI_SUCCESS, "post");
        CHECK(MPI_Win_start(to, 0, win) == MPI_SUCCESS, "start");
        const long value = 1000L * round + rank;
        MPI_Put(&value, 1, MPI_LONG, right, 0, 1, MPI_LONG, win);
        long got = 0;
        MPI_Get(&got, 1, MPI_LONG, right, 1, 1, MPI_LONG, win);
        CHECK(MPI_Win_complete(win) == MPI_SUCCESS, "complete");
        CHECK(got == (round == 0 ? -1 : 1000L * (round - 1) + right), "round %d: got %ld from the right neighbour",
              round, got);
        CHECK(MPI_Win_wait(win) == MPI_SUCCESS, "wait");
        CHECK(mem[0] == 1000L * round + left, "round %d: slot 0 holds %ld, not the left neighbour's put", round,
              mem[0]);
        mem[1] = 1000L * round + rank; /* what the left neighbour gets in the next round */
        MPI_Group_free(&to);
        MPI_Group_free(&from);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* Star out: rank 0 origin to all others (they are targets of rank 0 only). */
    int *others = malloc(sizeof(int) * (size_t)size);
    for (int i = 1; i < size; ++i) {
        others[i - 1] = i;
    }
    const int zero = 0;
    MPI_Group all_but_0 = group_of(world, size - 1, others), only_0 = group_of(world, 1, &zero);
    if (size > 1) {
        if (rank == 0) {
            MPI_Win_start(all_but_0, 0, win);
            for (int t = 1; t < size; ++t) {
                const long v = 500 + t;
                MPI_Put(&v, 1, MPI_LONG, t, 2, 1, MPI_LONG, win);
                MPI_Accumulate(&v, 1, MPI_LONG, t, 2, 1, MPI_LONG, MPI_SUM, win);
            }
            CHECK(MPI_Win_complete(win) == MPI_SUCCESS, "star complete");
        } else {
            MPI_Win_post(only_0, MPI_MODE_NOSTORE, win);
            /* MPI_Win_test until the epoch ends (no busy hang: the test progresses). */
            int flag = 0;
            for (long spins = 0; !flag && spins < 100000000L; ++spins) {
                CHECK(MPI_Win_test(win, &flag) == MPI_SUCCESS, "test");
            }
            CHECK(flag, "MPI_Win_test never said the epoch ended");
            CHECK(mem[2] == 2 * (500 + rank), "star: slot 2 holds %ld, not %d", mem[2], 2 * (500 + rank));
        }
        MPI_Barrier(MPI_COMM_WORLD);

        /* Star in: every other rank accumulates into rank 0 and fetches; rank 0 is a target only. */
        if (rank == 0) {
            mem[3] = 0;
            mem[4] = 0;
            MPI_Win_post(all_but_0, MPI_MODE_NOPUT, win);
            MPI_Win_wait(win);
            long expect = 0;
            for (int i = 1; i < size; ++i) {
                expect += i;
            }
            CHECK(mem[3] == expect, "star in: sum %ld, not %ld", mem[3], expect);
            CHECK(mem[4] == size - 1, "star in: counter %ld, not %d", mem[4], size - 1);
        } else {
            MPI_Win_start(only_0, 0, win);
            const long me = rank, one = 1;
            long old = -5;
            MPI_Accumulate(&me, 1, MPI_LONG, 0, 3, 1, MPI_LONG, MPI_SUM, win);
            MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 4, MPI_SUM, win);
            MPI_Win_complete(win);
            CHECK(old >= 0 && old < size - 1, "fetched counter %ld", old);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* Partial: with 3 or more ranks, rank 1 is origin to rank 2 only; rank 0 takes no part. */
    if (size >= 3) {
        const int one = 1, two = 2;
        MPI_Group g1 = group_of(world, 1, &one), g2 = group_of(world, 1, &two);
        if (rank == 1) {
            MPI_Win_start(g2, 0, win);
            const long v = 4242;
            MPI_Put(&v, 1, MPI_LONG, 2, 5, 1, MPI_LONG, win);
            /* A target outside the access group is not reachable in this epoch. */
            CHECK(!native_engine() || error_class(MPI_Put(&v, 1, MPI_LONG, 0, 5, 1, MPI_LONG, win)) == MPI_ERR_RMA_SYNC,
                  "put outside the access group");
            MPI_Win_complete(win);
        } else if (rank == 2) {
            MPI_Win_post(g1, 0, win);
            MPI_Win_wait(win);
            CHECK(mem[5] == 4242, "partial: slot 5 holds %ld", mem[5]);
        }
        MPI_Group_free(&g1);
        MPI_Group_free(&g2);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* MPI_MODE_NOCHECK on both sides: the post completed before the start (a barrier orders them). */
    {
        MPI_Group to = group_of(world, 1, &right), from = group_of(world, 1, &left);
        MPI_Win_post(from, MPI_MODE_NOCHECK, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_start(to, MPI_MODE_NOCHECK, win);
        const long v = 7000 + rank;
        MPI_Put(&v, 1, MPI_LONG, right, 6, 1, MPI_LONG, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        CHECK(mem[6] == 7000 + left, "nocheck: slot 6 holds %ld", mem[6]);
        MPI_Barrier(MPI_COMM_WORLD);

        /* Derived datatypes on both sides: every other long of the origin into slots 10, 13, 16, 19. */
        long src[8];
        for (int i = 0; i < 8; ++i) {
            src[i] = 100 * rank + i;
        }
        MPI_Datatype strided, spread;
        MPI_Type_vector(4, 1, 2, MPI_LONG, &strided);
        MPI_Type_commit(&strided);
        MPI_Type_create_indexed_block(4, 1, (int[]){0, 3, 6, 9}, MPI_LONG, &spread);
        MPI_Type_commit(&spread);
        MPI_Win_post(from, 0, win);
        MPI_Win_start(to, 0, win);
        MPI_Put(src, 1, strided, right, 10, 1, spread, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        for (int i = 0; i < 4; ++i) {
            CHECK(mem[10 + 3 * i] == 100 * left + 2 * i, "derived: slot %d holds %ld", 10 + 3 * i, mem[10 + 3 * i]);
        }
        MPI_Type_free(&strided);
        MPI_Type_free(&spread);
        MPI_Group_free(&to);
        MPI_Group_free(&from);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* Errors: synchronisation out of order, and bad assertions. */
    if (native_engine()) {
        int flag = 0;
        CHECK(error_class(MPI_Win_complete(win)) == MPI_ERR_RMA_SYNC, "complete without start");
        CHECK(error_class(MPI_Win_wait(win)) == MPI_ERR_RMA_SYNC, "wait without post");
        CHECK(error_class(MPI_Win_test(win, &flag)) == MPI_ERR_RMA_SYNC, "test without post");
        CHECK(error_class(MPI_Win_post(world, MPI_MODE_NOSUCCEED, win)) == MPI_ERR_ASSERT, "post with NOSUCCEED");
        CHECK(error_class(MPI_Win_start(world, MPI_MODE_NOPUT, win)) == MPI_ERR_ASSERT, "start with NOPUT");
        CHECK(error_class(MPI_Win_start(MPI_GROUP_NULL, 0, win)) == MPI_ERR_GROUP, "start with MPI_GROUP_NULL");
        MPI_Group self;
        MPI_Comm_group(MPI_COMM_SELF, &self);
        MPI_Win_post(self, 0, win);
        CHECK(error_class(MPI_Win_post(self, 0, win)) == MPI_ERR_RMA_SYNC, "a second post");
        CHECK(error_class(MPI_Win_fence(0, win)) == MPI_ERR_RMA_SYNC, "fence inside an exposure epoch");
        MPI_Win_start(self, 0, win);
        CHECK(error_class(MPI_Win_start(self, 0, win)) == MPI_ERR_RMA_SYNC, "a second start");
        CHECK(error_class(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win)) == MPI_ERR_RMA_SYNC, "lock inside start");
        CHECK(error_class(MPI_Win_lock_all(0, win)) == MPI_ERR_RMA_SYNC, "lock_all inside start");
        const long v = 99;
        CHECK(MPI_Put(&v, 1, MPI_LONG, rank, 7, 1, MPI_LONG, win) == MPI_SUCCESS, "put to self");
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        CHECK(mem[7] == 99, "self epoch: slot 7 holds %ld", mem[7]);
        /* A lock epoch refuses start. */
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
        CHECK(error_class(MPI_Win_start(self, 0, win)) == MPI_ERR_RMA_SYNC, "start inside a lock");
        MPI_Win_unlock(rank, win);
        /* A fence epoch whose fence was followed by no operation leaves PSCW free to start. */
        MPI_Win_fence(0, win);
        MPI_Win_post(self, 0, win);
        CHECK(MPI_Win_start(self, 0, win) == MPI_SUCCESS, "start after an empty fence epoch");
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        MPI_Group_free(&self);
    }

    MPI_Group_free(&all_but_0);
    MPI_Group_free(&only_0);
    MPI_Group_free(&world);
    free(others);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS, "free");
    int total = 0;
    MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) {
        printf("win_pscw: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}
