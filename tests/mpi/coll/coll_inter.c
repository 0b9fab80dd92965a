/*
 * Collectives on an intercommunicator (MPI-4.1 6.2.2): MPI_COMM_WORLD split into the even and the odd
 * ranks (1 + 1, 2 + 1, 2 + 2 processes), joined by MPI_Intercomm_create. Every collective, blocking and
 * non-blocking: the rooted ones with each process of each group as the root (MPI_ROOT, MPI_PROC_NULL
 * in its group, its rank in the other), the all-to-all ones, and the reductions — each group gets the
 * other group's data, reduced in its rank order (a non-commutative op shows it). Then the errors: a
 * root out of range, MPI_IN_PLACE, MPI_Scan.
 */
#include "coll_check.h"

static MPI_Comm inter;
static int group, lrank, lsize, rsize; /* group: 0 even world ranks, 1 odd */
static size_t calls;

/* Element i of what local rank r of group g contributes. */
static int gvalue(int g, int r, size_t i)
{
    return value(g * 10 + r, i);
}

/* Element i of the block local rank `from` of group g sends to rank `to` of the other group. */
static int gvalue2(int g, int from, int to, size_t i)
{
    return value2(g * 10 + from, to, i);
}

#define RUN(nb, blocking_call, nonblocking_call)                                                           \
    do {                                                                                                   \
        MPI_Request rq_ = MPI_REQUEST_NULL;                                                                \
        int rc_ = (nb) ? (nonblocking_call) : (blocking_call);                                             \
        if ((nb) && rc_ == MPI_SUCCESS) {                                                                  \
            rc_ = MPI_Wait(&rq_, MPI_STATUS_IGNORE);                                                       \
        }                                                                                                  \
        CHECK(rc_ == MPI_SUCCESS, "%s returned %d", (nb) ? #nonblocking_call : #blocking_call, rc_);       \
        ++calls;                                                                                           \
    } while (0)

#define WANT(got, want, ...)                                                                               \
    do {                                                                                                   \
        const int got_ = (got), want_ = (want);                                                            \
        if (got_ != want_) {                                                                               \
            fprintf(stderr, "got %d, want %d: ", got_, want_);                                            \
            CHECK(0, __VA_ARGS__);                                                                         \
        }                                                                                                  \
    } while (0)

/* The root argument of a rooted call whose root is local rank r of group g. */
static int root_arg(int g, int r)
{
    return g == group ? (lrank == r ? MPI_ROOT : MPI_PROC_NULL) : r;
}

static void rooted(int nb, size_t n)
{
    const size_t all = n * (size_t)(lsize > rsize ? lsize : rsize);
    int *buf = ints(all + 1), *mine = ints(n + 1);
    int counts[64], displs[64];
    for (int g = 0; g < 2; ++g) {
        const int other = 1 - g, gsize = g == group ? lsize : rsize, osize = g == group ? rsize : lsize;
        for (int r = 0; r < gsize; ++r) {
            const int root = root_arg(g, r), is_root = root == MPI_ROOT;
            /* Bcast from the root to the other group. */
            for (size_t i = 0; i <= n; ++i) {
                buf[i] = is_root && i < n ? gvalue(g, r, i) : SENTINEL;
            }
            RUN(nb, MPI_Bcast(buf, (int)n, MPI_INT, root, inter), MPI_Ibcast(buf, (int)n, MPI_INT, root, inter, &rq_));
            for (size_t i = 0; i < n && group == other; ++i) {
                WANT(buf[i], gvalue(g, r, i), "MPI_Bcast n=%zu from group %d rank %d: element %zu", n, g, r, i);
            }
            WANT(buf[n], SENTINEL, "MPI_Bcast n=%zu: tail", n);
            if (root == MPI_PROC_NULL) {
                WANT(buf[0], SENTINEL, "MPI_Bcast n=%zu: a MPI_PROC_NULL process's buffer changed", n);
            }
            /* Gather of the other group's blocks at the root, then scatter them back. */
            for (size_t i = 0; i < n; ++i) {
                mine[i] = gvalue(group, lrank, i);
            }
            for (size_t i = 0; i <= all; ++i) {
                buf[i] = SENTINEL;
            }
            RUN(nb, MPI_Gather(mine, (int)n, MPI_INT, buf, (int)n, MPI_INT, root, inter),
                MPI_Igather(mine, (int)n, MPI_INT, buf, (int)n, MPI_INT, root, inter, &rq_));
            for (int p = 0; p < osize && is_root; ++p) {
                for (size_t i = 0; i < n; ++i) {
                    WANT(buf[(size_t)p * n + i], gvalue(other, p, i), "MPI_Gather n=%zu: block %d element %zu", n, p,
                         i);
                }
            }
            for (size_t i = 0; i <= n; ++i) {
                mine[i] = SENTINEL;
            }
            RUN(nb, MPI_Scatter(buf, (int)n, MPI_INT, mine, (int)n, MPI_INT, root, inter),
                MPI_Iscatter(buf, (int)n, MPI_INT, mine, (int)n, MPI_INT, root, inter, &rq_));
            for (size_t i = 0; i < n && group == other; ++i) {
                WANT(mine[i], gvalue(group, lrank, i), "MPI_Scatter n=%zu: element %zu", n, i);
            }
            WANT(mine[n], SENTINEL, "MPI_Scatter n=%zu: tail", n);
            /* The vector forms: rank p of the other group gives n - p elements, blocks in reverse order. */
            size_t at = 0;
            for (int p = osize - 1; p >= 0; --p) {
                counts[p] = (int)n - p > 0 ? (int)n - p : 0;
                displs[p] = (int)at;
                at += (size_t)counts[p] + 1;
            }
            int *vbuf = ints(at + 1);
            const int mycount = (int)n - lrank > 0 ? (int)n - lrank : 0;
            for (size_t i = 0; i < n; ++i) {
                mine[i] = gvalue(group, lrank, i);
            }
            RUN(nb, MPI_Gatherv(mine, mycount, MPI_INT, vbuf, counts, displs, MPI_INT, root, inter),
                MPI_Igatherv(mine, mycount, MPI_INT, vbuf, counts, displs, MPI_INT, root, inter, &rq_));
            for (int p = 0; p < osize && is_root; ++p) {
                for (size_t i = 0; i < (size_t)counts[p]; ++i) {
                    WANT(vbuf[(size_t)displs[p] + i], gvalue(other, p, i), "MPI_Gatherv n=%zu: block %d element %zu",
                         n, p, i);
                }
                WANT(vbuf[(size_t)displs[p] + (size_t)counts[p]], SENTINEL, "MPI_Gatherv n=%zu: gap %d", n, p);
            }
            for (size_t i = 0; i <= n; ++i) {
                mine[i] = SENTINEL;
            }
            RUN(nb, MPI_Scatterv(vbuf, counts, displs, MPI_INT, mine, mycount, MPI_INT, root, inter),
                MPI_Iscatterv(vbuf, counts, displs, MPI_INT, mine, mycount, MPI_INT, root, inter, &rq_));
            for (size_t i = 0; i < (size_t)mycount && group == other; ++i) {
                WANT(mine[i], gvalue(group, lrank, i), "MPI_Scatterv n=%zu: element %zu", n, i);
            }
            free(vbuf);
        }
    }
    free(buf);
    free(mine);
}

static void everyone(int nb, size_t n)
{
    const int other = 1 - group;
    int *mine = ints(n * (size_t)rsize + 1), *out = ints(n * (size_t)rsize + 1);
    for (size_t i = 0; i < n; ++i) {
        mine[i] = gvalue(group, lrank, i);
    }
    RUN(nb, MPI_Allgather(mine, (int)n, MPI_INT, out, (int)n, MPI_INT, inter),
        MPI_Iallgather(mine, (int)n, MPI_INT, out, (int)n, MPI_INT, inter, &rq_));
    for (int p = 0; p < rsize; ++p) {
        for (size_t i = 0; i < n; ++i) {
            WANT(out[(size_t)p * n + i], gvalue(other, p, i), "MPI_Allgather n=%zu: block %d element %zu", n, p, i);
        }
    }
    WANT(out[n * (size_t)rsize], SENTINEL, "MPI_Allgather n=%zu: tail", n);

    /* Allgatherv: rank p of the other group gives n + p elements (the send count is its own). */
    int counts[64], displs[64];
    size_t at = 0;
    for (int p = 0; p < rsize; ++p) {
        counts[p] = (int)n + p;
        displs[p] = (int)at;
        at += (size_t)counts[p] + 1;
    }
    int *vmine = ints(n + (size_t)lrank), *vout = ints(at);
    for (size_t i = 0; i < n + (size_t)lrank; ++i) {
        vmine[i] = gvalue(group, lrank, i);
    }
    RUN(nb, MPI_Allgatherv(vmine, (int)n + lrank, MPI_INT, vout, counts, displs, MPI_INT, inter),
        MPI_Iallgatherv(vmine, (int)n + lrank, MPI_INT, vout, counts, displs, MPI_INT, inter, &rq_));
    for (int p = 0; p < rsize; ++p) {
        for (size_t i = 0; i < (size_t)counts[p]; ++i) {
            WANT(vout[(size_t)displs[p] + i], gvalue(other, p, i), "MPI_Allgatherv n=%zu: block %d element %zu", n, p,
                 i);
        }
        WANT(vout[(size_t)displs[p] + (size_t)counts[p]], SENTINEL, "MPI_Allgatherv n=%zu: gap %d", n, p);
    }

    /* Alltoall(v,w): block p goes to rank p of the other group. */
    int *blocks = ints(n * (size_t)rsize), *got = ints(n * (size_t)rsize + 1);
    for (int p = 0; p < rsize; ++p) {
        for (size_t i = 0; i < n; ++i) {
            blocks[(size_t)p * n + i] = gvalue2(group, lrank, p, i);
        }
    }
    int scounts[64], sdispls[64], sbytes[64], rbytes[64];
    MPI_Datatype types[64];
    for (int p = 0; p < rsize; ++p) {
        scounts[p] = (int)n;
        sdispls[p] = p * (int)n;
        sbytes[p] = sdispls[p] * (int)sizeof(int);
        rbytes[p] = sbytes[p];
        types[p] = MPI_INT;
    }
    for (int form = 0; form < 3; ++form) {
        for (size_t i = 0; i <= n * (size_t)rsize; ++i) {
            got[i] = SENTINEL;
        }
        if (form == 0) {
            RUN(nb, MPI_Alltoall(blocks, (int)n, MPI_INT, got, (int)n, MPI_INT, inter),
                MPI_Ialltoall(blocks, (int)n, MPI_INT, got, (int)n, MPI_INT, inter, &rq_));
        } else if (form == 1) {
            RUN(nb, MPI_Alltoallv(blocks, scounts, sdispls, MPI_INT, got, scounts, sdispls, MPI_INT, inter),
                MPI_Ialltoallv(blocks, scounts, sdispls, MPI_INT, got, scounts, sdispls, MPI_INT, inter, &rq_));
        } else {
            RUN(nb, MPI_Alltoallw(blocks, scounts, sbytes, types, got, scounts, rbytes, types, inter),
                MPI_Ialltoallw(blocks, scounts, sbytes, types, got, scounts, rbytes, types, inter, &rq_));
        }
        for (int p = 0; p < rsize; ++p) {
            for (size_t i = 0; i < n; ++i) {
                WANT(got[(size_t)p * n + i], gvalue2(other, p, lrank, i), "MPI_Alltoall%s n=%zu: block %d element %zu",
                     form == 0 ? "" : form == 1 ? "v" : "w", n, p, i);
            }
        }
        WANT(got[n * (size_t)rsize], SENTINEL, "MPI_Alltoall n=%zu: tail", n);
    }
    free(mine);
    free(out);
    free(vmine);
    free(vout);
    free(blocks);
    free(got);
}

/* ---- reductions: sums, and 2x2 matrix products (non-commutative) in the other group's rank order */

static MPI_Datatype mat_type;

static void mat_product(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; ++i) {
        matmul((const int *)in + 4 * i, (int *)inout + 4 * i);
    }
}

/* Matrix j of local rank r of group g, and the product over a group's ranks in order. */
static void gmatrix(int g, int r, int j, int *m)
{
    matrix(g * 10 + r, j, m);
}

static void gproduct(int g, int size, int j, int *m)
{
    m[0] = 1, m[1] = 0, m[2] = 0, m[3] = 1;
    for (int r = size - 1; r >= 0; --r) {
        int a[4];
        gmatrix(g, r, j, a);
        matmul(a, m);
    }
}

static int gsum(int g, int size, size_t i)
{
    int s = 0;
    for (int r = 0; r < size; ++r) {
        s += gvalue(g, r, i);
    }
    return s;
}

static void reductions(int nb, size_t n, MPI_Op matop)
{
    const int other = 1 - group;
    const size_t total = n * (size_t)lsize; /* reduce_scatter_block: the same on both sides needs lsize == rsize */
    int *mine = ints(4 * (total > n ? total : n) + 4), *out = ints(4 * (total > n ? total : n) + 4);
    for (size_t i = 0; i < n; ++i) {
        mine[i] = gvalue(group, lrank, i);
    }
    for (int g = 0; g < 2; ++g) {
        const int gsize = g == group ? lsize : rsize;
        for (int r = 0; r < gsize; ++r) {
            const int root = root_arg(g, r);
            out[0] = SENTINEL;
            RUN(nb, MPI_Reduce(mine, out, (int)n, MPI_INT, MPI_SUM, root, inter),
                MPI_Ireduce(mine, out, (int)n, MPI_INT, MPI_SUM, root, inter, &rq_));
            for (size_t i = 0; i < n && root == MPI_ROOT; ++i) {
                WANT(out[i], gsum(other, rsize, i), "MPI_Reduce n=%zu: element %zu", n, i);
            }
            if (root == MPI_PROC_NULL) {
                WANT(out[0], SENTINEL, "MPI_Reduce: a MPI_PROC_NULL process's buffer changed");
            }
        }
    }
    RUN(nb, MPI_Allreduce(mine, out, (int)n, MPI_INT, MPI_SUM, inter),
        MPI_Iallreduce(mine, out, (int)n, MPI_INT, MPI_SUM, inter, &rq_));
    for (size_t i = 0; i < n; ++i) {
        WANT(out[i], gsum(other, rsize, i), "MPI_Allreduce n=%zu: element %zu", n, i);
    }
    /* Matrices: the other group's product, in its rank order. */
    for (size_t j = 0; j < n; ++j) {
        gmatrix(group, lrank, (int)j, mine + 4 * j);
    }
    RUN(nb, MPI_Allreduce(mine, out, (int)n, mat_type, matop, inter),
        MPI_Iallreduce(mine, out, (int)n, mat_type, matop, inter, &rq_));
    for (size_t j = 0; j < n; ++j) {
        int want[4];
        gproduct(other, rsize, (int)j, want);
        CHECK(memcmp(out + 4 * j, want, sizeof want) == 0, "MPI_Allreduce of matrices n=%zu: matrix %zu", n, j);
    }
    const int root = root_arg(1, 0); /* group 1 gets group 0's product */
    RUN(nb, MPI_Reduce(mine, out, (int)n, mat_type, matop, root, inter),
        MPI_Ireduce(mine, out, (int)n, mat_type, matop, root, inter, &rq_));
    for (size_t j = 0; j < n && root == MPI_ROOT; ++j) {
        int want[4];
        gproduct(other, rsize, (int)j, want);
        CHECK(memcmp(out + 4 * j, want, sizeof want) == 0, "MPI_Reduce of matrices n=%zu: matrix %zu", n, j);
    }
    /* Reduce_scatter: both groups reduce vectors of the same length; a group of one gets it all. */
    int rcounts[64];
    const size_t length = 2 * n; /* the same on both sides */
    size_t before = 0;
    for (int p = 0; p < lsize; ++p) {
        rcounts[p] = lsize == 1 ? (int)length : p == 0 ? (int)n : (int)(length - n) / (lsize - 1);
        before += p < lrank ? (size_t)rcounts[p] : 0;
    }
    int *vec = ints(length), *res = ints(length + 1);
    for (size_t i = 0; i < length; ++i) {
        vec[i] = gvalue(group, lrank, i);
    }
    RUN(nb, MPI_Reduce_scatter(vec, res, rcounts, MPI_INT, MPI_SUM, inter),
        MPI_Ireduce_scatter(vec, res, rcounts, MPI_INT, MPI_SUM, inter, &rq_));
    for (size_t i = 0; i < (size_t)rcounts[lrank]; ++i) {
        WANT(res[i], gsum(other, rsize, before + i), "MPI_Reduce_scatter n=%zu: element %zu", n, i);
    }
    WANT(res[rcounts[lrank]], SENTINEL, "MPI_Reduce_scatter n=%zu: tail", n);
    if (lsize == rsize) {
        RUN(nb, MPI_Reduce_scatter_block(vec, res, (int)(length / (size_t)lsize), MPI_INT, MPI_SUM, inter),
            MPI_Ireduce_scatter_block(vec, res, (int)(length / (size_t)lsize), MPI_INT, MPI_SUM, inter, &rq_));
        for (size_t i = 0; i < length / (size_t)lsize; ++i) {
            WANT(res[i], gsum(other, rsize, (size_t)lrank * (length / (size_t)lsize) + i),
                 "MPI_Reduce_scatter_block n=%zu: element %zu", n, i);
        }
    }
    free(mine);
    free(out);
    free(vec);
    free(res);
}

static void errors(void)
{
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int x = 0, y = 0, class_ = 0;
    int rc = MPI_Bcast(&x, 1, MPI_INT, rsize, inter);
    MPI_Error_class(rc, &class_);
    CHECK(class_ == MPI_ERR_ROOT, "MPI_Bcast with root %d (the remote group has %d): class %d", rsize, rsize, class_);
    rc = MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Error_class(rc, &class_);
    CHECK(class_ == MPI_ERR_BUFFER, "MPI_Allreduce in place on an intercommunicator: class %d", class_);
    rc = MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Error_class(rc, &class_);
    CHECK(class_ == MPI_ERR_COMM, "MPI_Scan on an intercommunicator: class %d", class_);
    rc = MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Error_class(rc, &class_);
    CHECK(class_ == MPI_ERR_COMM, "MPI_Exscan on an intercommunicator: class %d", class_);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int world_rank, world_size;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    CHECK(world_size >= 2, "at least 2 ranks");
    group = world_rank % 2;
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, group, world_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - group, 7, &inter);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Type_contiguous(4, MPI_INT, &mat_type);
    MPI_Type_commit(&mat_type);
    MPI_Op matop;
    MPI_Op_create(mat_product, 0, &matop);
    static const size_t counts[] = {0, 1, 1000, 100000};
    for (int nb = 0; nb < 2; ++nb) {
        RUN(nb, MPI_Barrier(inter), MPI_Ibarrier(inter, &rq_));
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
            rooted(nb, counts[k]);
            everyone(nb, counts[k]);
            reductions(nb, counts[k], matop);
        }
    }
    errors();
    MPI_Op_free(&matop);
    MPI_Type_free(&mat_type);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank == 0) {
        printf("coll_inter: %zu collective calls checked on %d + %d processes\n", calls, lsize, rsize);
    }
    MPI_Finalize();
    return 0;
}
