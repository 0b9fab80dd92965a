/*
 * Every collective of MPI-4.1 chapter 6 on MPI_COMM_WORLD (or a communicator split from it, coll_check.h),
 * each blocking, non-blocking completed by MPI_Wait, and non-blocking while point-to-point messages are
 * pending (completed together by MPI_Testall/MPI_Waitall): results checked element by element against
 * values computed locally, gaps and tails of the receive buffers untouched. Counts from 0 to 256 Ki ints
 * (1 MiB) per block; with the argument "big", messages of 16 MiB. The _c (MPI_Count) forms are run for a
 * part of the calls.
 */
#include "coll_check.h"

static int rank, size;
static size_t checked;
/* Open MPI 4.1 has no MPI_Count forms (MPI-4.0); its translator serves the scalar ones through the int
 * forms, not those with count arrays. */
static int large_arrays;

#define RUN(mode, tag, blocking_call, nonblocking_call)                                                    \
    do {                                                                                                   \
        struct pending_p2p p_;                                                                             \
        MPI_Request rq_ = MPI_REQUEST_NULL;                                                                \
        int rc_;                                                                                           \
        if ((mode) == BLOCKING) {                                                                          \
            rc_ = (blocking_call);                                                                         \
        } else {                                                                                           \
            if ((mode) == NONBLOCKING_MIXED) {                                                             \
                p2p_start(&p_, tag);                                                                       \
            }                                                                                              \
            rc_ = (nonblocking_call);                                                                      \
            complete(mode, &rq_, &p_, tag);                                                                \
        }                                                                                                  \
        CHECK(rc_ == MPI_SUCCESS, "%s (%s) returned %d", #blocking_call, mode_names[mode], rc_);           \
        ++checked;                                                                                         \
    } while (0)

#define EXPECT_AT(buf, i, want, what)                                                                      \
    CHECK((buf)[i] == (want), "%s, %s, n=%zu: element %zu is %d, want %d", what, mode_names[mode], n,      \
          (size_t)(i), (buf)[i], (want))

static void test_barrier(enum mode mode)
{
    const size_t n = 0;
    RUN(mode, 3, MPI_Barrier(test_comm), MPI_Ibarrier(test_comm, &rq_));
    (void)n;
}

static void test_bcast(size_t n, enum mode mode)
{
    const int root = (int)(n % (size_t)size);
    int *buf = ints(n + 1);
    for (size_t i = 0; i < n && rank == root; ++i) {
        buf[i] = value(root, i);
    }
    if (n % 2 == 0) {
        RUN(mode, 4, MPI_Bcast(buf, (int)n, MPI_INT, root, test_comm),
            MPI_Ibcast(buf, (int)n, MPI_INT, root, test_comm, &rq_));
    } else {
        RUN(mode, 4, MPI_Bcast_c(buf, (MPI_Count)n, MPI_INT, root, test_comm),
            MPI_Ibcast_c(buf, (MPI_Count)n, MPI_INT, root, test_comm, &rq_));
    }
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(buf, i, value(root, i), "MPI_Bcast");
    }
    EXPECT_AT(buf, n, SENTINEL, "MPI_Bcast tail");
    free(buf);
}

static void test_gather_scatter(size_t n, enum mode mode)
{
    const int root = (int)((n + 1) % (size_t)size);
    int *mine = ints(n), *all = ints(n * (size_t)size + 1);
    for (size_t i = 0; i < n; ++i) {
        mine[i] = value(rank, i);
    }
    RUN(mode, 5, MPI_Gather(mine, (int)n, MPI_INT, all, (int)n, MPI_INT, root, test_comm),
        MPI_Igather(mine, (int)n, MPI_INT, all, (int)n, MPI_INT, root, test_comm, &rq_));
    if (rank == root) {
        for (int r = 0; r < size; ++r) {
            for (size_t i = 0; i < n; ++i) {
                EXPECT_AT(all, (size_t)r * n + i, value(r, i), "MPI_Gather");
            }
        }
    }
    /* Scatter back what was gathered: each rank gets its own values again. */
    int *back = ints(n + 1);
    RUN(mode, 6, MPI_Scatter_c(all, (MPI_Count)n, MPI_INT, back, (MPI_Count)n, MPI_INT, root, test_comm),
        MPI_Iscatter_c(all, (MPI_Count)n, MPI_INT, back, (MPI_Count)n, MPI_INT, root, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(back, i, value(rank, i), "MPI_Scatter");
    }
    EXPECT_AT(back, n, SENTINEL, "MPI_Scatter tail");
    free(mine);
    free(all);
    free(back);
}

/* Rank r's block: n + r elements, placed in reverse rank order with a gap of 2 after each. */
static void v_layout(size_t n, int *counts, int *displs, size_t *total)
{
    size_t at = 0;
    for (int r = size - 1; r >= 0; --r) {
        counts[r] = (int)n + r;
        displs[r] = (int)at;
        at += (size_t)counts[r] + 2;
    }
    *total = at;
}

static void test_gatherv_scatterv(size_t n, enum mode mode)
{
    const int root = (int)((n + 2) % (size_t)size);
    int counts[64], displs[64];
    size_t total = 0;
    v_layout(n, counts, displs, &total);
    int *mine = ints(n + (size_t)rank), *all = ints(total);
    for (size_t i = 0; i < n + (size_t)rank; ++i) {
        mine[i] = value(rank, i);
    }
    RUN(mode, 7,
        MPI_Gatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root, test_comm),
        MPI_Igatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root, test_comm, &rq_));
    if (rank == root) {
        for (int r = 0; r < size; ++r) {
            for (size_t i = 0; i < (size_t)counts[r]; ++i) {
                EXPECT_AT(all, (size_t)displs[r] + i, value(r, i), "MPI_Gatherv");
            }
            EXPECT_AT(all, (size_t)displs[r] + (size_t)counts[r], SENTINEL, "MPI_Gatherv gap");
        }
    }
    int *back = ints(n + (size_t)rank + 1);
    MPI_Count ccounts[64];
    MPI_Aint cdispls[64];
    for (int r = 0; r < size; ++r) {
        ccounts[r] = counts[r];
        cdispls[r] = displs[r];
    }
    if (large_arrays) {
        RUN(mode, 8,
            MPI_Scatterv_c(all, ccounts, cdispls, MPI_INT, back, ccounts[rank], MPI_INT, root, test_comm),
            MPI_Iscatterv_c(all, ccounts, cdispls, MPI_INT, back, ccounts[rank], MPI_INT, root, test_comm,
                            &rq_));
    } else {
        RUN(mode, 8, MPI_Scatterv(all, counts, displs, MPI_INT, back, counts[rank], MPI_INT, root, test_comm),
            MPI_Iscatterv(all, counts, displs, MPI_INT, back, counts[rank], MPI_INT, root, test_comm, &rq_));
    }
    for (size_t i = 0; i < (size_t)counts[rank]; ++i) {
        EXPECT_AT(back, i, value(rank, i), "MPI_Scatterv");
    }
    EXPECT_AT(back, (size_t)counts[rank], SENTINEL, "MPI_Scatterv tail");
    free(mine);
    free(all);
    free(back);
}

static void test_allgather(size_t n, enum mode mode)
{
    int *mine = ints(n), *all = ints(n * (size_t)size + 1);
    for (size_t i = 0; i < n; ++i) {
        mine[i] = value(rank, i);
    }
    RUN(mode, 9, MPI_Allgather(mine, (int)n, MPI_INT, all, (int)n, MPI_INT, test_comm),
        MPI_Iallgather(mine, (int)n, MPI_INT, all, (int)n, MPI_INT, test_comm, &rq_));
    for (int r = 0; r < size; ++r) {
        for (size_t i = 0; i < n; ++i) {
            EXPECT_AT(all, (size_t)r * n + i, value(r, i), "MPI_Allgather");
        }
    }
    EXPECT_AT(all, n * (size_t)size, SENTINEL, "MPI_Allgather tail");

    int counts[64], displs[64];
    size_t total = 0;
    v_layout(n, counts, displs, &total);
    int *v = ints(n + (size_t)rank), *vall = ints(total);
    for (size_t i = 0; i < n + (size_t)rank; ++i) {
        v[i] = value(rank, i);
    }
    RUN(mode, 10, MPI_Allgatherv(v, counts[rank], MPI_INT, vall, counts, displs, MPI_INT, test_comm),
        MPI_Iallgatherv(v, counts[rank], MPI_INT, vall, counts, displs, MPI_INT, test_comm, &rq_));
    for (int r = 0; r < size; ++r) {
        for (size_t i = 0; i < (size_t)counts[r]; ++i) {
            EXPECT_AT(vall, (size_t)displs[r] + i, value(r, i), "MPI_Allgatherv");
        }
        EXPECT_AT(vall, (size_t)displs[r] + (size_t)counts[r], SENTINEL, "MPI_Allgatherv gap");
    }
    free(mine);
    free(all);
    free(v);
    free(vall);
}

static void test_alltoall(size_t n, enum mode mode)
{
    int *out = ints(n * (size_t)size), *in = ints(n * (size_t)size + 1);
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < n; ++i) {
            out[(size_t)p * n + i] = value2(rank, p, i);
        }
    }
    RUN(mode, 11, MPI_Alltoall(out, (int)n, MPI_INT, in, (int)n, MPI_INT, test_comm),
        MPI_Ialltoall(out, (int)n, MPI_INT, in, (int)n, MPI_INT, test_comm, &rq_));
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < n; ++i) {
            EXPECT_AT(in, (size_t)p * n + i, value2(p, rank, i), "MPI_Alltoall");
        }
    }
    EXPECT_AT(in, n * (size_t)size, SENTINEL, "MPI_Alltoall tail");
    free(out);
    free(in);
}

/* Block sizes of the vector forms: from p to q, n + (p + q) % 3 elements (both sides agree). */
static void test_alltoallv_w(size_t n, enum mode mode)
{
    int scounts[64], sdispls[64], rcounts[64], rdispls[64], sbytes[64], rbytes[64];
    MPI_Datatype types[64];
    size_t stotal = 0, rtotal = 0;
    for (int p = size - 1; p >= 0; --p) { /* blocks in reverse rank order, gaps of 1 */
        scounts[p] = (int)n + (rank + p) % 3;
        rcounts[p] = (int)n + (p + rank) % 3;
        sdispls[p] = (int)stotal;
        rdispls[p] = (int)rtotal;
        sbytes[p] = sdispls[p] * (int)sizeof(int);
        rbytes[p] = rdispls[p] * (int)sizeof(int);
        types[p] = MPI_INT;
        stotal += (size_t)scounts[p] + 1;
        rtotal += (size_t)rcounts[p] + 1;
    }
    int *out = ints(stotal), *in = ints(rtotal);
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < (size_t)scounts[p]; ++i) {
            out[(size_t)sdispls[p] + i] = value2(rank, p, i);
        }
    }
    RUN(mode, 12,
        MPI_Alltoallv(out, scounts, sdispls, MPI_INT, in, rcounts, rdispls, MPI_INT, test_comm),
        MPI_Ialltoallv(out, scounts, sdispls, MPI_INT, in, rcounts, rdispls, MPI_INT, test_comm, &rq_));
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < (size_t)rcounts[p]; ++i) {
            EXPECT_AT(in, (size_t)rdispls[p] + i, value2(p, rank, i), "MPI_Alltoallv");
        }
        EXPECT_AT(in, (size_t)rdispls[p] + (size_t)rcounts[p], SENTINEL, "MPI_Alltoallv gap");
    }
    for (size_t i = 0; i < rtotal; ++i) {
        in[i] = SENTINEL;
    }
    RUN(mode, 13,
        MPI_Alltoallw(out, scounts, sbytes, types, in, rcounts, rbytes, types, test_comm),
        MPI_Ialltoallw(out, scounts, sbytes, types, in, rcounts, rbytes, types, test_comm, &rq_));
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < (size_t)rcounts[p]; ++i) {
            EXPECT_AT(in, (size_t)rdispls[p] + i, value2(p, rank, i), "MPI_Alltoallw");
        }
        EXPECT_AT(in, (size_t)rdispls[p] + (size_t)rcounts[p], SENTINEL, "MPI_Alltoallw gap");
    }
    free(out);
    free(in);
}

static int sum_of(size_t i, int upto) /* value(0, i) + ... + value(upto - 1, i) */
{
    int s = 0;
    for (int r = 0; r < upto; ++r) {
        s += value(r, i);
    }
    return s;
}

static void test_reductions(size_t n, enum mode mode)
{
    const int root = (int)((n + 3) % (size_t)size);
    int *mine = ints(n * (size_t)size), *out = ints(n * (size_t)size + 1);
    for (size_t i = 0; i < n * (size_t)size; ++i) {
        mine[i] = value(rank, i);
    }
    RUN(mode, 14, MPI_Reduce(mine, out, (int)n, MPI_INT, MPI_SUM, root, test_comm),
        MPI_Ireduce(mine, out, (int)n, MPI_INT, MPI_SUM, root, test_comm, &rq_));
    for (size_t i = 0; i < n && rank == root; ++i) {
        EXPECT_AT(out, i, sum_of(i, size), "MPI_Reduce");
    }
    RUN(mode, 15, MPI_Allreduce_c(mine, out, (MPI_Count)n, MPI_INT, MPI_SUM, test_comm),
        MPI_Iallreduce_c(mine, out, (MPI_Count)n, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(out, i, sum_of(i, size), "MPI_Allreduce");
    }
    EXPECT_AT(out, n * (size_t)size, SENTINEL, "MPI_Allreduce tail");
    RUN(mode, 16, MPI_Scan(mine, out, (int)n, MPI_INT, MPI_SUM, test_comm),
        MPI_Iscan(mine, out, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(out, i, sum_of(i, rank + 1), "MPI_Scan");
    }
    RUN(mode, 17, MPI_Exscan(mine, out, (int)n, MPI_INT, MPI_SUM, test_comm),
        MPI_Iexscan(mine, out, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n && rank > 0; ++i) {
        EXPECT_AT(out, i, sum_of(i, rank), "MPI_Exscan");
    }
    /* Reduce_scatter_block: rank r gets elements [r n, (r+1) n) of the sum. */
    RUN(mode, 18, MPI_Reduce_scatter_block(mine, out, (int)n, MPI_INT, MPI_SUM, test_comm),
        MPI_Ireduce_scatter_block(mine, out, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(out, i, sum_of((size_t)rank * n + i, size), "MPI_Reduce_scatter_block");
    }
    /* Reduce_scatter: n elements to each rank, one fewer to the odd ones, blocks in rank order. */
    int counts[64];
    size_t before = 0;
    for (int r = 0; r < size; ++r) {
        counts[r] = (int)n - (n > 0 && r % 2 == 1 ? 1 : 0);
        before += r < rank ? (size_t)counts[r] : 0;
    }
    for (size_t i = 0; i < n * (size_t)size + 1; ++i) {
        out[i] = SENTINEL;
    }
    RUN(mode, 19, MPI_Reduce_scatter(mine, out, counts, MPI_INT, MPI_SUM, test_comm),
        MPI_Ireduce_scatter(mine, out, counts, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < (size_t)counts[rank]; ++i) {
        EXPECT_AT(out, i, sum_of(before + i, size), "MPI_Reduce_scatter");
    }
    EXPECT_AT(out, (size_t)counts[rank], SENTINEL, "MPI_Reduce_scatter tail");
    free(mine);
    free(out);
}

/* Reductions of doubles with MPI_MAX and MPI_MIN: another type and op through every path. */
static void test_double_ops(size_t n, enum mode mode)
{
    double *mine = malloc((n + 1) * sizeof(double)), *out = malloc((n + 1) * sizeof(double));
    for (size_t i = 0; i < n; ++i) {
        mine[i] = (double)((rank * 7 + (int)i) % (size + 3)) + 0.5;
    }
    RUN(mode, 20, MPI_Allreduce(mine, out, (int)n, MPI_DOUBLE, MPI_MAX, test_comm),
        MPI_Iallreduce(mine, out, (int)n, MPI_DOUBLE, MPI_MAX, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        double want = -1;
        for (int r = 0; r < size; ++r) {
            const double v = (double)((r * 7 + (int)i) % (size + 3)) + 0.5;
            want = v > want ? v : want;
        }
        CHECK(out[i] == want, "MPI_Allreduce MAX, %s, n=%zu: element %zu is %g, want %g", mode_names[mode], n, i,
              out[i], want);
    }
    free(mine);
    free(out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_comm_init(argc, argv);
    MPI_Comm_rank(test_comm, &rank);
    MPI_Comm_size(test_comm, &size);
    CHECK(size <= 64, "at most 64 ranks");
    large_arrays = !runtime_is("Open MPI");
    int big = 0;
    for (int a = 1; a < argc; ++a) {
        big |= strcmp(argv[a], "big") == 0;
    }
    static const size_t counts[] = {0, 1, 3, 1000, 16384 + 5, 262144 + 3};
    /* 16 MiB messages: per block for the rooted ones and the reductions; in total for the all-to-all
     * ones (a block per rank). */
    const size_t big_count = (16u << 20) / sizeof(int);
    for (enum mode mode = BLOCKING; mode < MODES; ++mode) {
        test_barrier(mode);
        if (big) {
            test_bcast(big_count, mode);
            test_gather_scatter(big_count / (size_t)size, mode);
            test_allgather(big_count / (size_t)size, mode);
            test_alltoall(big_count / (size_t)size, mode);
            test_reductions(big_count / (size_t)size, mode);
            test_double_ops(big_count / 2, mode);
            continue;
        }
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
            const size_t n = counts[k];
            test_bcast(n, mode);
            test_gather_scatter(n, mode);
            test_gatherv_scatterv(n, mode);
            test_allgather(n, mode);
            test_alltoall(n, mode);
            test_alltoallv_w(n, mode);
            test_reductions(n, mode);
            test_double_ops(n, mode);
        }
    }
    MPI_Barrier(test_comm);
    if (rank == 0) {
        printf("coll_all: %zu collective calls checked on %s%s\n", checked, test_comm_label(), big ? " (16 MiB)" : "");
    }
    test_comm_free();
    MPI_Finalize();
    return 0;
}
