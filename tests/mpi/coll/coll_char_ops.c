/*
 * Reductions and accumulates on MPI_CHAR, as widely used benchmarks make them (MPI_CHAR with MPI_SUM):
 * Open MPI and MPICH reduce MPI_CHAR as the platform's char, and so does Tessera unless mpi_strict_ops
 * is set. Without an argument the blocking, non-blocking and persistent reductions and MPI_Accumulate
 * must give the sums, maxima and bitwise results of chars. With "strict" (run under --mca
 * mpi_strict_ops 1) each of them must fail with MPI_ERR_OP, and the last, left to MPI_ERRORS_ARE_FATAL,
 * prints the message the test checks (it names the portable types). With "no-accumulate" the
 * accumulate is left out: MPICH 4.0.2 (ch4:ucx, Debian 12) leaves the target of any accumulate of a
 * 1-byte type unchanged (MPI_BYTE with MPI_REPLACE too, in a program built against MPICH itself).
 */
#include "coll_check.h"

enum { N = 5 };

static int rank, size;

/* Rank r contributes r + i + 1 to element i: small enough that every sum fits a char. */
static void contribution(char *v)
{
    for (int i = 0; i < N; ++i) {
        v[i] = (char)(rank + i + 1);
    }
}

static char sum_of(int i)
{
    int s = 0;
    for (int r = 0; r < size; ++r) {
        s += r + i + 1;
    }
    return (char)s;
}

static void lenient(int accumulate)
{
    char in[N], out[N];
    contribution(in);
    CHECK(MPI_Allreduce(in, out, N, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Allreduce MPI_CHAR MPI_SUM");
    for (int i = 0; i < N; ++i) {
        CHECK(out[i] == sum_of(i), "MPI_Allreduce sum[%d] = %d, want %d", i, out[i], sum_of(i));
    }
    CHECK(MPI_Allreduce(in, out, N, MPI_CHAR, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Allreduce MPI_MAX");
    for (int i = 0; i < N; ++i) {
        CHECK(out[i] == (char)(size - 1 + i + 1), "MPI_Allreduce max[%d] = %d", i, out[i]);
    }
    CHECK(MPI_Allreduce(in, out, N, MPI_CHAR, MPI_BOR, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Allreduce MPI_BOR");
    for (int i = 0; i < N; ++i) {
        int want = 0;
        for (int r = 0; r < size; ++r) {
            want |= r + i + 1;
        }
        CHECK(out[i] == (char)want, "MPI_Allreduce bor[%d] = %d, want %d", i, out[i], want);
    }

    MPI_Request rq;
    memset(out, 0, sizeof out);
    CHECK(MPI_Ireduce(in, out, N, MPI_CHAR, MPI_SUM, 0, MPI_COMM_WORLD, &rq) == MPI_SUCCESS, "MPI_Ireduce");
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    for (int i = 0; rank == 0 && i < N; ++i) {
        CHECK(out[i] == sum_of(i), "MPI_Ireduce sum[%d] = %d", i, out[i]);
    }
    memset(out, 0, sizeof out);
    CHECK(MPI_Allreduce_init(in, out, N, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq) == MPI_SUCCESS,
          "MPI_Allreduce_init");
    for (int round = 0; round < 2; ++round) {
        MPI_Start(&rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; ++i) {
            CHECK(out[i] == sum_of(i), "persistent round %d sum[%d] = %d", round, i, out[i]);
        }
    }
    MPI_Request_free(&rq);

    if (!accumulate) {
        return;
    }
    char target[N] = {0};
    MPI_Win win;
    MPI_Win_create(target, N, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    CHECK(MPI_Accumulate(in, N, MPI_CHAR, 0, 0, N, MPI_CHAR, MPI_SUM, win) == MPI_SUCCESS, "MPI_Accumulate");
    MPI_Win_fence(0, win);
    for (int i = 0; rank == 0 && i < N; ++i) {
        CHECK(target[i] == sum_of(i), "MPI_Accumulate sum[%d] = %d", i, target[i]);
    }
    MPI_Win_free(&win);
}

static void strict(void)
{
    char in[N] = {1, 2, 3, 4, 5}, out[N];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    EXPECT_CLASS(MPI_Allreduce(in, out, N, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Reduce_local(in, out, N, MPI_CHAR, MPI_BXOR), MPI_ERR_OP);
    /* The portable character types stay allowed. */
    CHECK(MPI_Allreduce(in, out, N, MPI_SIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_SIGNED_CHAR");
    CHECK(MPI_Allreduce(in, out, N, MPI_UNSIGNED_CHAR, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_UNSIGNED_CHAR");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Allreduce(in, out, N, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "strict") == 0) {
        strict();
    } else {
        lenient(!(argc > 1 && strcmp(argv[1], "no-accumulate") == 0));
        if (rank == 0) {
            printf("coll_char_ops: all checks passed on %d ranks\n", size);
        }
    }
    MPI_Finalize();
    return 0;
}
