/* Window hints, local completion, MPI_CHAR accumulates and the _c forms, on any number of ranks:
 * MPI_Win_get_info gives every window key with the value in force (defaults, valid values taken, invalid
 * ones ignored, other keys kept); no_locks true refuses MPI_Win_lock and lock_all until set_info clears
 * it; MPI_Win_flush_local returns while the target computes without MPI calls (no acknowledgement
 * waited for) with the origin buffer reusable, and the later flush delivers what it held; MPI_SUM on
 * MPI_CHAR in accumulates; and MPI_Put_c ... MPI_Rget_accumulate_c, MPI_Win_create_c, MPI_Win_allocate_c. */
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

static void expect_hint(MPI_Win win, const char *key, const char *value)
{
    MPI_Info used;
    char got[MPI_MAX_INFO_VAL];
    int flag = 0;
    MPI_Win_get_info(win, &used);
    MPI_Info_get(used, key, MPI_MAX_INFO_VAL - 1, got, &flag);
    CHECK(flag && strcmp(got, value) == 0, "hint %s: %s, not %s", key, flag ? got : "(absent)", value);
    MPI_Info_free(&used);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Hints: defaults, then given values. */
    long cell[4] = {0, 0, 0, 0};
    MPI_Win win;
    MPI_Win_create(cell, sizeof cell, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    expect_hint(win, "no_locks", "false");
    expect_hint(win, "accumulate_ordering", "rar,raw,war,waw");
    expect_hint(win, "accumulate_ops", "same_op_no_op");
    expect_hint(win, "same_size", "false");
    expect_hint(win, "same_disp_unit", "false");
    expect_hint(win, "alloc_shared_noncontig", "false");
    MPI_Win_free(&win);

    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "no_locks", "true");
    MPI_Info_set(hints, "accumulate_ordering", "none");
    MPI_Info_set(hints, "accumulate_ops", "same_op");
    MPI_Info_set(hints, "same_size", "true");
    MPI_Info_set(hints, "same_disp_unit", "maybe"); /* not a value the key takes: ignored */
    MPI_Info_set(hints, "tessera_test_key", "kept");
    MPI_Win_create(cell, sizeof cell, sizeof(long), hints, MPI_COMM_WORLD, &win);
    MPI_Info_free(&hints);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    expect_hint(win, "no_locks", "true");
    expect_hint(win, "accumulate_ordering", "none");
    expect_hint(win, "accumulate_ops", "same_op");
    expect_hint(win, "same_size", "true");
    expect_hint(win, "same_disp_unit", "false");
    expect_hint(win, "tessera_test_key", "kept");
    CHECK(error_class(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)) == MPI_ERR_RMA_SYNC, "lock under no_locks");
    CHECK(error_class(MPI_Win_lock_all(0, win)) == MPI_ERR_RMA_SYNC, "lock_all under no_locks");
    MPI_Win_fence(0, win); /* active target is what no_locks leaves */
    const long seven = 7;
    MPI_Accumulate(&seven, 1, MPI_LONG, (rank + 1) % size, 0, 1, MPI_LONG, MPI_SUM, win);
    MPI_Win_fence(0, win);
    CHECK(cell[0] == 7, "fence accumulate under no_locks: %ld", cell[0]);
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "no_locks", "false");
    MPI_Win_set_info(win, hints);
    MPI_Info_free(&hints);
    expect_hint(win, "no_locks", "false");
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win) == MPI_SUCCESS, "lock once no_locks is false");
    MPI_Win_unlock(0, win);
    MPI_Win_free(&win);

    /* MPI_SUM on MPI_CHAR, accepted as Open MPI and MPICH accept it. */
    char chars[8] = {0};
    MPI_Win_create(chars, sizeof chars, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    const char two[8] = {2, 2, 2, 2, 2, 2, 2, 2};
    CHECK(MPI_Accumulate(two, 8, MPI_CHAR, 0, 0, 8, MPI_CHAR, MPI_SUM, win) == MPI_SUCCESS, "MPI_SUM on MPI_CHAR");
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(chars[0] == 2 * size && chars[7] == 2 * size, "char sums %d %d", chars[0], chars[7]);
    }
    MPI_Win_free(&win);

    /* flush_local while the target computes without MPI calls (no asynchronous progress): it returns at
     * once, the buffer reusable; the flush then delivers what the origin had when it called MPI_Put. */
    long *mem = NULL;
    MPI_Win_allocate_c(8 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < 8; ++i) {
        mem[i] = -1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (size > 1) {
        if (rank == 1) {
            const double until = now() + 2.0;
            volatile double x = 0;
            while (now() < until) {
                x += 1.0;
            }
            CHECK(x > 0, "the computation ran");
        } else if (rank == 0) {
            MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
            long value = 1234;
            const double t0 = now();
            MPI_Put(&value, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win);
            MPI_Win_flush_local(1, win);
            MPI_Win_flush_local_all(win);
            const double took = now() - t0;
            value = 999; /* reusable: the put keeps 1234 */
            CHECK(took < 1.0, "flush_local waited %.2f s for a target that computes", took);
            MPI_Win_flush(1, win);
            MPI_Win_unlock_all(win);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            CHECK(mem[0] == 1234, "after the flush the target holds %ld", mem[0]);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* The _c forms. */
    const int right = (rank + 1) % size;
    const MPI_Count one = 1;
    long v = 100 + rank, got = -1, old = -1, old2 = -1;
    MPI_Win_lock_all(0, win);
    MPI_Put_c(&v, one, MPI_LONG, right, 1, one, MPI_LONG, win);
    MPI_Accumulate_c(&v, one, MPI_LONG, right, 2, one, MPI_LONG, MPI_REPLACE, win);
    MPI_Win_flush(right, win);
    MPI_Get_c(&got, one, MPI_LONG, right, 1, one, MPI_LONG, win);
    MPI_Get_accumulate_c(&v, one, MPI_LONG, &old, one, MPI_LONG, right, 2, one, MPI_LONG, MPI_SUM, win);
    MPI_Win_flush(right, win);
    CHECK(got == 100 + rank && old == 100 + rank, "put_c/get_c %ld, get_accumulate_c %ld", got, old);
    MPI_Request r[4];
    long rgot = -1;
    MPI_Rput_c(&v, one, MPI_LONG, right, 3, one, MPI_LONG, win, &r[0]);
    MPI_Raccumulate_c(&v, one, MPI_LONG, right, 4, one, MPI_LONG, MPI_REPLACE, win, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Win_flush(right, win);
    MPI_Rget_c(&rgot, one, MPI_LONG, right, 3, one, MPI_LONG, win, &r[2]);
    MPI_Rget_accumulate_c(NULL, 0, MPI_LONG, &old2, one, MPI_LONG, right, 4, one, MPI_LONG, MPI_NO_OP, win, &r[3]);
    MPI_Waitall(2, r + 2, MPI_STATUSES_IGNORE);
    CHECK(rgot == 100 + rank && old2 == 100 + rank, "rget_c %ld, rget_accumulate_c %ld", rgot, old2);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Win_create_c(cell, sizeof cell, (MPI_Aint)sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int flag = 0, *unit = NULL;
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
    CHECK(flag && *unit == (int)sizeof(long), "MPI_Win_create_c's displacement unit");
    MPI_Win_free(&win);

    int total = 0;
    MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) {
        printf("win_hints_local: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}
