/* Dynamic windows on any number of ranks: three regions attached per process, their addresses sent
 * around with MPI_Get_address; puts, gets, accumulates and fetch-and-op to each under lock_all, in fence
 * and PSCW epochs, a derived target datatype inside a region; a region detached and another attached in
 * its place; an access outside every region refused by the target (its memory untouched) and raised
 * as MPI_ERR_RMA_RANGE on the origin's window handler; attach and detach errors. */
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

enum { REGIONS = 3, LEN = 32 };

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

static int handler_calls, handler_class;
static void on_win_error(MPI_Win *win, int *code, ...)
{
    (void)win;
    ++handler_calls;
    handler_class = error_class(*code);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Errhandler eh;
    MPI_Win_create_errhandler(on_win_error, &eh);
    MPI_Win_set_errhandler(win, eh);
    int flavor_flag = 0, *flavor = NULL;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flavor_flag);
    CHECK(flavor_flag && *flavor == MPI_WIN_FLAVOR_DYNAMIC, "flavor");

    /* Regions with a gap between them (a guard that no region covers). */
    long *block = calloc(REGIONS * (LEN + 8) + 8, sizeof(long));
    long *region[REGIONS];
    for (int i = 0; i < REGIONS; ++i) {
        region[i] = block + 8 + i * (LEN + 8);
        for (int k = 0; k < LEN; ++k) {
            region[i][k] = 0;
        }
        CHECK(MPI_Win_attach(win, region[i], LEN * sizeof(long)) == MPI_SUCCESS, "attach %d", i);
    }
    MPI_Aint mine[REGIONS], *addr = malloc(sizeof(MPI_Aint) * REGIONS * (size_t)size);
    for (int i = 0; i < REGIONS; ++i) {
        MPI_Get_address(region[i], &mine[i]);
    }
    MPI_Allgather(mine, REGIONS, MPI_AINT, addr, REGIONS, MPI_AINT, MPI_COMM_WORLD);
#define ADDR(t, i, k) MPI_Aint_add(addr[(t) * REGIONS + (i)], (MPI_Aint)((k) * sizeof(long)))

    /* Passive target: into every region of every rank. */
    MPI_Win_lock_all(0, win);
    long olds[4 * REGIONS], values[4 * REGIONS];
    const long one = 1;
    for (int t = 0; t < size; ++t) {
        for (int i = 0; i < REGIONS; ++i) {
            values[t * REGIONS + i] = 100 * rank + i;
            olds[t * REGIONS + i] = -1;
            MPI_Put(&values[t * REGIONS + i], 1, MPI_LONG, t, ADDR(t, i, rank), 1, MPI_LONG, win);
            MPI_Accumulate(&one, 1, MPI_LONG, t, ADDR(t, i, LEN - 1), 1, MPI_LONG, MPI_SUM, win);
            MPI_Fetch_and_op(&one, &olds[t * REGIONS + i], MPI_LONG, t, ADDR(t, i, LEN - 2), MPI_SUM, win);
        }
    }
    MPI_Win_flush_all(win);
    for (int i = 0; i < size * REGIONS; ++i) {
        CHECK(olds[i] >= 0 && olds[i] < size, "fetched %ld", olds[i]);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < REGIONS; ++i) {
        for (int o = 0; o < size; ++o) {
            CHECK(region[i][o] == 100 * o + i, "region %d slot %d holds %ld", i, o, region[i][o]);
        }
        CHECK(region[i][LEN - 1] == size && region[i][LEN - 2] == size, "region %d counters %ld %ld", i,
              region[i][LEN - 1], region[i][LEN - 2]);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Two regions that touch: one access may run from the first into the second. */
    long *pair = calloc(16, sizeof(long));
    MPI_Win_attach(win, pair, 8 * sizeof(long));
    MPI_Win_attach(win, pair + 8, 8 * sizeof(long));
    MPI_Aint pair_addr, *pair_all = malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Get_address(pair, &pair_addr);
    MPI_Allgather(&pair_addr, 1, MPI_AINT, pair_all, 1, MPI_AINT, MPI_COMM_WORLD);
    {
        long sixteen[16];
        for (int k = 0; k < 16; ++k) {
            sixteen[k] = 10 * rank + k;
        }
        const int to = (rank + 1) % size;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win);
        MPI_Put(sixteen, 12, MPI_LONG, to, MPI_Aint_add(pair_all[to], 4 * sizeof(long)), 12, MPI_LONG, win);
        CHECK(MPI_Win_unlock(to, win) == MPI_SUCCESS, "a put across two regions that touch");
        MPI_Barrier(MPI_COMM_WORLD);
        const int from = (rank + size - 1) % size;
        for (int k = 4; k < 16; ++k) {
            CHECK(pair[k] == 10 * from + (k - 4), "across regions: slot %d holds %ld", k, pair[k]);
        }
    }
    MPI_Win_detach(win, pair);
    MPI_Win_detach(win, pair + 8);
    free(pair);
    free(pair_all);

    /* Fence epoch: get the right neighbour's region 1, put through a strided target type into region 2. */
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Datatype strided;
    MPI_Type_vector(4, 1, 3, MPI_LONG, &strided);
    MPI_Type_commit(&strided);
    long got[LEN];
    const long four[4] = {rank + 1, rank + 2, rank + 3, rank + 4};
    MPI_Win_fence(0, win);
    MPI_Get(got, size, MPI_LONG, right, ADDR(right, 1, 0), size, MPI_LONG, win);
    MPI_Put(four, 4, MPI_LONG, right, ADDR(right, 2, 8), 1, strided, win);
    MPI_Win_fence(0, win);
    for (int o = 0; o < size; ++o) {
        CHECK(got[o] == 100 * o + 1, "fence get %d: %ld", o, got[o]);
    }
    for (int k = 0; k < 4; ++k) {
        CHECK(region[2][8 + 3 * k] == left + 1 + k, "strided put %d: %ld", k, region[2][8 + 3 * k]);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Type_free(&strided);

    /* Detach region 0, attach a new region; the others reach the new one, and region 0 is refused. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Win_detach(win, region[0]) == MPI_SUCCESS, "detach");
    long *fresh = calloc(LEN, sizeof(long));
    CHECK(MPI_Win_attach(win, fresh, LEN * sizeof(long)) == MPI_SUCCESS, "attach fresh");
    MPI_Aint fresh_addr, *fresh_all = malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Get_address(fresh, &fresh_addr);
    MPI_Allgather(&fresh_addr, 1, MPI_AINT, fresh_all, 1, MPI_AINT, MPI_COMM_WORLD);
    const long before = region[0][5];

    MPI_Group world, to, from;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &right, &to);
    MPI_Group_incl(world, 1, &left, &from);
    MPI_Win_post(from, 0, win);
    MPI_Win_start(to, 0, win);
    const long v = 7000 + rank;
    MPI_Put(&v, 1, MPI_LONG, right, fresh_all[right], 1, MPI_LONG, win);
    CHECK(MPI_Win_complete(win) == MPI_SUCCESS, "complete");
    MPI_Win_wait(win);
    CHECK(fresh[0] == 7000 + left, "fresh region: %ld", fresh[0]);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Outside every region: the detached one, and a range running past a region's end. The target's
     * memory stays as it was; the origin's handler gets MPI_ERR_RMA_RANGE from the completing call.
     * (Natively only: the standard leaves such an access erroneous, and a translated runtime may write
     * wild memory.) */
    if (native_engine()) {
        const long wild = -99;
        handler_calls = 0;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
        MPI_Put(&wild, 1, MPI_LONG, right, ADDR(right, 0, 5), 1, MPI_LONG, win);
        int rc = MPI_Win_flush(right, win);
        CHECK(error_class(rc) == MPI_ERR_RMA_RANGE, "flush after a put into a detached region: class %d",
              error_class(rc));
        CHECK(handler_calls == 1 && handler_class == MPI_ERR_RMA_RANGE, "the window's handler: %d calls, class %d",
              handler_calls, handler_class);
        long two[2] = {-1, -1};
        MPI_Get(two, 2, MPI_LONG, right, ADDR(right, 1, LEN - 1), 2, MPI_LONG, win); /* one past the end */
        rc = MPI_Win_unlock(right, win);
        CHECK(error_class(rc) == MPI_ERR_RMA_RANGE, "unlock after a get past a region's end: class %d",
              error_class(rc));
        CHECK(two[0] == -1 && two[1] == -1, "a refused get left the buffer as it was");
        /* The refusal does not stick: the next epoch is clean. */
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
        long ok = -1;
        MPI_Get(&ok, 1, MPI_LONG, right, fresh_all[right], 1, MPI_LONG, win);
        CHECK(MPI_Win_unlock(right, win) == MPI_SUCCESS, "a clean epoch after a refusal");
        CHECK(ok == 7000 + rank, "get from the fresh region: %ld", ok);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(region[0][5] == before, "a refused put wrote the detached region: %ld", region[0][5]);
        CHECK(block[8 + LEN] == 0, "the guard after region 0 was written");

        /* Attach and detach errors; operations need a dynamic window for these calls. */
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        CHECK(error_class(MPI_Win_attach(win, region[1] + 4, sizeof(long))) == MPI_ERR_RMA_ATTACH,
              "attach overlapping region 1");
        CHECK(error_class(MPI_Win_detach(win, block)) == MPI_ERR_RMA_ATTACH, "detach of a base never attached");
        CHECK(error_class(MPI_Win_attach(win, fresh, -1)) == MPI_ERR_SIZE, "attach of a negative size");
        MPI_Win plain;
        long cell = 0;
        MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &plain);
        MPI_Win_set_errhandler(plain, MPI_ERRORS_RETURN);
        CHECK(error_class(MPI_Win_attach(plain, fresh, 8)) == MPI_ERR_RMA_FLAVOR, "attach to a window not dynamic");
        MPI_Win_free(&plain);
    }

    MPI_Win_detach(win, region[1]);
    MPI_Win_detach(win, region[2]);
    MPI_Win_detach(win, fresh);
    MPI_Group_free(&to);
    MPI_Group_free(&from);
    MPI_Group_free(&world);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS, "free");
    MPI_Errhandler_free(&eh);
    free(block);
    free(fresh);
    free(addr);
    free(fresh_all);
    int total = 0;
    MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) {
        printf("win_dynamic: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}
