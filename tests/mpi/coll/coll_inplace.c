/*
 * MPI_IN_PLACE everywhere MPI-4.1 chapter 6 allows it, with -1 and MPI_DATATYPE_NULL in the arguments
 * it (or being away from the root) makes insignificant: the send buffer of the root of MPI_Gather(v) and
 * MPI_Reduce, the receive buffer of the root of MPI_Scatter(v), the send buffer of every rank for
 * MPI_Allgather(v), MPI_Alltoall(v,w), MPI_Allreduce, MPI_Reduce_scatter(_block), MPI_Scan and
 * MPI_Exscan; blocking and non-blocking. The data each rank keeps in place must be used and must not be
 * overwritten where the standard says it stays.
 */
#include "coll_check.h"

static int rank, size;

/* What an application may pass for the arguments the standard ignores (with MPI_IN_PLACE, or away from
 * the root), as MPICH's test suite does: they must not be checked. */
#define IGNORED (-1)
#define SEND_TYPE(ignored) ((ignored) ? MPI_DATATYPE_NULL : MPI_INT)
#define RECV_TYPE(ignored) ((ignored) ? MPI_DATATYPE_NULL : MPI_INT)

#define RUN(mode, blocking_call, nonblocking_call)                                                         \
    do {                                                                                                   \
        MPI_Request rq_ = MPI_REQUEST_NULL;                                                                \
        int rc_;                                                                                           \
        if ((mode) == BLOCKING) {                                                                          \
            rc_ = (blocking_call);                                                                         \
        } else {                                                                                           \
            rc_ = (nonblocking_call);                                                                      \
            complete(NONBLOCKING_WAIT, &rq_, NULL, 0);                                                     \
        }                                                                                                  \
        CHECK(rc_ == MPI_SUCCESS, "%s (%s) returned %d", #blocking_call, mode_names[mode], rc_);           \
    } while (0)

#define EXPECT_AT(buf, i, want, what)                                                                      \
    CHECK((buf)[i] == (want), "%s in place, %s, n=%zu: element %zu is %d, want %d", what, mode_names[mode], \
          n, (size_t)(i), (buf)[i], (want))

static int sum_of(size_t i, int upto)
{
    int s = 0;
    for (int r = 0; r < upto; ++r) {
        s += value(r, i);
    }
    return s;
}

static void rooted(size_t n, enum mode mode)
{
    const int root = (int)(n % (size_t)size);
    const size_t all_n = n * (size_t)size;
    int *all = ints(all_n + 1), *mine = ints(n + 1);
    /* Gather: the root's own block is already in its place. */
    if (rank == root) {
        for (size_t i = 0; i < n; ++i) {
            all[(size_t)root * n + i] = value(root, i);
        }
    }
    for (size_t i = 0; i < n; ++i) {
        mine[i] = value(rank, i);
    }
    RUN(mode,
        MPI_Gather(rank == root ? MPI_IN_PLACE : mine, rank == root ? IGNORED : (int)n, SEND_TYPE(rank == root), all,
                   rank == root ? (int)n : IGNORED, RECV_TYPE(rank != root), root, test_comm),
        MPI_Igather(rank == root ? MPI_IN_PLACE : mine, rank == root ? IGNORED : (int)n, SEND_TYPE(rank == root), all,
                    rank == root ? (int)n : IGNORED, RECV_TYPE(rank != root), root, test_comm, &rq_));
    for (size_t i = 0; i < all_n && rank == root; ++i) {
        EXPECT_AT(all, i, value((int)(i / (n ? n : 1)), i % (n ? n : 1)), "MPI_Gather");
    }
    /* Gatherv with the same layout. */
    int counts[64], displs[64];
    for (int r = 0; r < size; ++r) {
        counts[r] = (int)n;
        displs[r] = r * (int)n;
    }
    RUN(mode,
        MPI_Gatherv(rank == root ? MPI_IN_PLACE : mine, rank == root ? IGNORED : (int)n, SEND_TYPE(rank == root), all,
                    counts, displs, MPI_INT, root, test_comm),
        MPI_Igatherv(rank == root ? MPI_IN_PLACE : mine, rank == root ? IGNORED : (int)n, SEND_TYPE(rank == root),
                     all, counts, displs, MPI_INT, root, test_comm, &rq_));
    for (size_t i = 0; i < all_n && rank == root; ++i) {
        EXPECT_AT(all, i, value((int)(i / (n ? n : 1)), i % (n ? n : 1)), "MPI_Gatherv");
    }
    /* Scatter: the root's block stays where it is, the others get theirs. */
    for (size_t i = 0; i < n; ++i) {
        mine[i] = SENTINEL;
    }
    RUN(mode,
        MPI_Scatter(all, rank == root ? (int)n : IGNORED, SEND_TYPE(rank != root), rank == root ? MPI_IN_PLACE : mine,
                    rank == root ? IGNORED : (int)n, RECV_TYPE(rank == root), root, test_comm),
        MPI_Iscatter(all, rank == root ? (int)n : IGNORED, SEND_TYPE(rank != root),
                     rank == root ? MPI_IN_PLACE : mine, rank == root ? IGNORED : (int)n, RECV_TYPE(rank == root), root,
                     test_comm, &rq_));
    for (size_t i = 0; i < n && rank != root; ++i) {
        EXPECT_AT(mine, i, value(rank, i), "MPI_Scatter");
    }
    for (size_t i = 0; i < n && rank == root; ++i) {
        EXPECT_AT(mine, i, SENTINEL, "MPI_Scatter (the root's recvbuf is not touched)");
        EXPECT_AT(all, (size_t)root * n + i, value(root, i), "MPI_Scatter (the root's block)");
    }
    RUN(mode,
        MPI_Scatterv(all, counts, displs, MPI_INT, rank == root ? MPI_IN_PLACE : mine,
                     rank == root ? IGNORED : (int)n, RECV_TYPE(rank == root), root, test_comm),
        MPI_Iscatterv(all, counts, displs, MPI_INT, rank == root ? MPI_IN_PLACE : mine,
                      rank == root ? IGNORED : (int)n, RECV_TYPE(rank == root), root, test_comm, &rq_));
    for (size_t i = 0; i < n && rank != root; ++i) {
        EXPECT_AT(mine, i, value(rank, i), "MPI_Scatterv");
    }
    /* Reduce: the root's operand is in recvbuf. (MPICH 4.0 itself crashes on this from 1365 ints on 2
     * ranks: spared.) */
    if (runtime_is("MPICH") && n > 1000) {
        free(all);
        free(mine);
        return;
    }
    int *acc = ints(n + 1);
    for (size_t i = 0; i < n; ++i) {
        acc[i] = value(rank, i);
    }
    RUN(mode,
        MPI_Reduce(rank == root ? MPI_IN_PLACE : acc, rank == root ? acc : NULL, (int)n, MPI_INT, MPI_SUM, root,
                   test_comm),
        MPI_Ireduce(rank == root ? MPI_IN_PLACE : acc, rank == root ? acc : NULL, (int)n, MPI_INT, MPI_SUM, root,
                    test_comm, &rq_));
    for (size_t i = 0; i < n && rank == root; ++i) {
        EXPECT_AT(acc, i, sum_of(i, size), "MPI_Reduce");
    }
    for (size_t i = 0; i < n && rank != root; ++i) {
        EXPECT_AT(acc, i, value(rank, i), "MPI_Reduce (a non-root's sendbuf)");
    }
    free(all);
    free(mine);
    free(acc);
}

static void everyone(size_t n, enum mode mode)
{
    const size_t all_n = n * (size_t)size;
    int *all = ints(all_n + 1);
    for (size_t i = 0; i < n; ++i) {
        all[(size_t)rank * n + i] = value(rank, i);
    }
    RUN(mode, MPI_Allgather(MPI_IN_PLACE, IGNORED, MPI_DATATYPE_NULL, all, (int)n, MPI_INT, test_comm),
        MPI_Iallgather(MPI_IN_PLACE, IGNORED, MPI_DATATYPE_NULL, all, (int)n, MPI_INT, test_comm, &rq_));
    for (size_t i = 0; i < all_n; ++i) {
        EXPECT_AT(all, i, value((int)(i / n), i % n), "MPI_Allgather");
    }
    int counts[64], displs[64];
    for (int r = 0; r < size; ++r) {
        counts[r] = (int)n;
        displs[r] = r * (int)n;
    }
    for (size_t i = 0; i < all_n; ++i) {
        all[i] = (size_t)rank * n <= i && i < (size_t)(rank + 1) * n ? value(rank, i % n) : SENTINEL;
    }
    RUN(mode, MPI_Allgatherv(MPI_IN_PLACE, IGNORED, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT, test_comm),
        MPI_Iallgatherv(MPI_IN_PLACE, IGNORED, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT, test_comm, &rq_));
    for (size_t i = 0; i < all_n; ++i) {
        EXPECT_AT(all, i, value((int)(i / n), i % n), "MPI_Allgatherv");
    }
    /* Alltoall(v,w): block p holds what goes to p, and receives what comes from p. */
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < n; ++i) {
            all[(size_t)p * n + i] = value2(rank, p, i);
        }
    }
    RUN(mode, MPI_Alltoall(MPI_IN_PLACE, IGNORED, MPI_DATATYPE_NULL, all, (int)n, MPI_INT, test_comm),
        MPI_Ialltoall(MPI_IN_PLACE, IGNORED, MPI_DATATYPE_NULL, all, (int)n, MPI_INT, test_comm, &rq_));
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < n; ++i) {
            EXPECT_AT(all, (size_t)p * n + i, value2(p, rank, i), "MPI_Alltoall");
        }
    }
    /* Back again with Alltoallv: what came from p returns to p. The send arguments are ignored, but
     * valid (a translator converts the arrays it is given). */
    RUN(mode, MPI_Alltoallv(MPI_IN_PLACE, counts, displs, MPI_INT, all, counts, displs, MPI_INT, test_comm),
        MPI_Ialltoallv(MPI_IN_PLACE, counts, displs, MPI_INT, all, counts, displs, MPI_INT, test_comm, &rq_));
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < n; ++i) {
            EXPECT_AT(all, (size_t)p * n + i, value2(rank, p, i), "MPI_Alltoallv");
        }
    }
    int bytes[64];
    MPI_Datatype types[64];
    for (int r = 0; r < size; ++r) {
        bytes[r] = displs[r] * (int)sizeof(int);
        types[r] = MPI_INT;
    }
    RUN(mode, MPI_Alltoallw(MPI_IN_PLACE, counts, bytes, types, all, counts, bytes, types, test_comm),
        MPI_Ialltoallw(MPI_IN_PLACE, counts, bytes, types, all, counts, bytes, types, test_comm, &rq_));
    for (int p = 0; p < size; ++p) {
        for (size_t i = 0; i < n; ++i) {
            EXPECT_AT(all, (size_t)p * n + i, value2(p, rank, i), "MPI_Alltoallw");
        }
    }
    free(all);
}

static void reductions(size_t n, enum mode mode)
{
    const size_t all_n = n * (size_t)size;
    int *buf = ints(all_n + 1);
    for (size_t i = 0; i < n; ++i) {
        buf[i] = value(rank, i);
    }
    RUN(mode, MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, MPI_INT, MPI_SUM, test_comm),
        MPI_Iallreduce(MPI_IN_PLACE, buf, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(buf, i, sum_of(i, size), "MPI_Allreduce");
    }
    for (size_t i = 0; i < n; ++i) {
        buf[i] = value(rank, i);
    }
    RUN(mode, MPI_Scan(MPI_IN_PLACE, buf, (int)n, MPI_INT, MPI_SUM, test_comm),
        MPI_Iscan(MPI_IN_PLACE, buf, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(buf, i, sum_of(i, rank + 1), "MPI_Scan");
    }
    for (size_t i = 0; i < n; ++i) {
        buf[i] = value(rank, i);
    }
    RUN(mode, MPI_Exscan(MPI_IN_PLACE, buf, (int)n, MPI_INT, MPI_SUM, test_comm),
        MPI_Iexscan(MPI_IN_PLACE, buf, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n && rank > 0; ++i) {
        EXPECT_AT(buf, i, sum_of(i, rank), "MPI_Exscan");
    }
    /* Reduce_scatter(_block): the whole vector is in recvbuf; rank r's block ends up at its start. */
    for (size_t i = 0; i < all_n; ++i) {
        buf[i] = value(rank, i);
    }
    RUN(mode, MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, (int)n, MPI_INT, MPI_SUM, test_comm),
        MPI_Ireduce_scatter_block(MPI_IN_PLACE, buf, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(buf, i, sum_of((size_t)rank * n + i, size), "MPI_Reduce_scatter_block");
    }
    int counts[64];
    for (int r = 0; r < size; ++r) {
        counts[r] = (int)n;
    }
    for (size_t i = 0; i < all_n; ++i) {
        buf[i] = value(rank, i);
    }
    RUN(mode, MPI_Reduce_scatter(MPI_IN_PLACE, buf, counts, MPI_INT, MPI_SUM, test_comm),
        MPI_Ireduce_scatter(MPI_IN_PLACE, buf, counts, MPI_INT, MPI_SUM, test_comm, &rq_));
    for (size_t i = 0; i < n; ++i) {
        EXPECT_AT(buf, i, sum_of((size_t)rank * n + i, size), "MPI_Reduce_scatter");
    }
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_comm_init(argc, argv);
    MPI_Comm_rank(test_comm, &rank);
    MPI_Comm_size(test_comm, &size);
    CHECK(size <= 64, "at most 64 ranks");
    static const size_t counts[] = {1, 5, 4096 + 1, 131072 + 7};
    for (enum mode mode = BLOCKING; mode <= NONBLOCKING_WAIT; ++mode) {
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
            rooted(counts[k], mode);
            everyone(counts[k], mode);
            reductions(counts[k], mode);
        }
    }
    MPI_Barrier(test_comm);
    if (rank == 0) {
        printf("coll_inplace: all checks passed on %s\n", test_comm_label());
    }
    test_comm_free();
    MPI_Finalize();
    return 0;
}
