/*
 * The corners the tuned algorithms have and the linear ones do not, each checked against values
 * computed locally (what the basic component gives: this program also runs on basic alone): every
 * root of the rooted collectives; counts smaller than the communicator (empty blocks in the
 * reduce-scatter and allgather phases); counts that are not a whole number of pipeline segments;
 * uneven and empty blocks of reduce-scatter and allgatherv; MPI_IN_PLACE on every rank that may give
 * it; a commutative user op on a derived type with gaps (reduced block by block, the gaps untouched);
 * a non-commutative user op (2x2 matrices) on every reduction, in place too, whose result is right
 * only in rank order; derived types on the receive side of the gathers and alltoall. Each call runs
 * blocking and non-blocking. Run on MPI_COMM_WORLD or, with "reverse"/"halves", on a split
 * communicator (coll_check.h); the test suite forces each algorithm of tuned in turn.
 */
#include "coll_check.h"

static int rank, size;
static size_t calls;

/* Runs the blocking form, then the non-blocking one (after `reset` puts the buffers back). */
#define BOTH(reset, blocking_call, nonblocking_call, check)                                                \
    do {                                                                                                   \
        for (int nb_ = 0; nb_ < 2; ++nb_) {                                                                \
            MPI_Request rq_ = MPI_REQUEST_NULL;                                                            \
            reset;                                                                                         \
            int rc_ = nb_ ? (nonblocking_call) : (blocking_call);                                          \
            if (nb_ && rc_ == MPI_SUCCESS) {                                                               \
                rc_ = MPI_Wait(&rq_, MPI_STATUS_IGNORE);                                                   \
            }                                                                                              \
            CHECK(rc_ == MPI_SUCCESS, "%s returned %d", nb_ ? #nonblocking_call : #blocking_call, rc_);    \
            check;                                                                                         \
            ++calls;                                                                                       \
        }                                                                                                  \
    } while (0)

#define WANT(got, want, ...)                                                                               \
    do {                                                                                                   \
        const int got_ = (got), want_ = (want);                                                            \
        if (got_ != want_) {                                                                               \
            fprintf(stderr, "got %d, want %d: ", got_, want_);                                            \
            CHECK(0, __VA_ARGS__);                                                                         \
        }                                                                                                  \
    } while (0)

static int sum_of(size_t i, int from, int to) /* value(from, i) + ... + value(to - 1, i) */
{
    int s = 0;
    for (int r = from; r < to; ++r) {
        s += value(r, i);
    }
    return s;
}

static void fill(int *buf, size_t n, int r)
{
    for (size_t i = 0; i < n; ++i) {
        buf[i] = value(r, i);
    }
}

static void reset_ints(int *buf, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        buf[i] = SENTINEL;
    }
}

/* ---- broadcast: every root, counts around the segment sizes the tests force */

static void bcasts(void)
{
    static const size_t counts[] = {1, 7, 250, 251, 1000, 70001, 300001};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        const size_t n = counts[k];
        int *buf = ints(n + 1);
        for (int root = 0; root < size; ++root) {
            if (n > 1000 && root != (int)(n % (size_t)size)) {
                continue;
            }
            BOTH(if (rank == root) fill(buf, n, root); else reset_ints(buf, n + 1),
                 MPI_Bcast(buf, (int)n, MPI_INT, root, test_comm),
                 MPI_Ibcast(buf, (int)n, MPI_INT, root, test_comm, &rq_), {
                     for (size_t i = 0; i < n; ++i) {
                         WANT(buf[i], value(root, i), "MPI_Bcast n=%zu root %d: element %zu", n, root, i);
                     }
                     WANT(buf[n], SENTINEL, "MPI_Bcast n=%zu root %d: tail", n, root);
                 });
        }
        free(buf);
    }
}

/* ---- sums of ints: reduce (every root), allreduce, scan, exscan; in place on alternate calls */

static void sums(void)
{
    static const size_t counts[] = {1, 2, 3, 5, 1000, 100003};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        const size_t n = counts[k];
        int *mine = ints(n), *out = ints(n + 1);
        fill(mine, n, rank);
        for (int root = 0; root < size; ++root) {
            const int in_place = (root + (int)k) % 2 == 1 && rank == root;
            BOTH(if (in_place) fill(out, n, rank); else reset_ints(out, n + 1),
                 MPI_Reduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, root, test_comm),
                 MPI_Ireduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, root, test_comm, &rq_),
                 for (size_t i = 0; i < n && rank == root; ++i) {
                     WANT(out[i], sum_of(i, 0, size), "MPI_Reduce n=%zu root %d%s: element %zu", n, root,
                          in_place ? " in place" : "", i);
                 });
        }
        for (int in_place = 0; in_place < 2; ++in_place) {
            BOTH(if (in_place) fill(out, n, rank); else reset_ints(out, n + 1),
                 MPI_Allreduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, test_comm),
                 MPI_Iallreduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_), {
                     for (size_t i = 0; i < n; ++i) {
                         WANT(out[i], sum_of(i, 0, size), "MPI_Allreduce n=%zu%s: element %zu", n,
                              in_place ? " in place" : "", i);
                     }
                     WANT(out[n], SENTINEL, "MPI_Allreduce n=%zu: tail", n);
                 });
            BOTH(if (in_place) fill(out, n, rank); else reset_ints(out, n + 1),
                 MPI_Scan(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, test_comm),
                 MPI_Iscan(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_),
                 for (size_t i = 0; i < n; ++i) {
                     WANT(out[i], sum_of(i, 0, rank + 1), "MPI_Scan n=%zu%s: element %zu", n,
                          in_place ? " in place" : "", i);
                 });
            BOTH(if (in_place) fill(out, n, rank); else reset_ints(out, n + 1),
                 MPI_Exscan(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, test_comm),
                 MPI_Iexscan(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, test_comm, &rq_),
                 for (size_t i = 0; i < n && rank > 0; ++i) {
                     WANT(out[i], sum_of(i, 0, rank), "MPI_Exscan n=%zu%s: element %zu", n,
                          in_place ? " in place" : "", i);
                 });
        }
        free(mine);
        free(out);
    }
}

/* ---- reduce-scatter with uneven blocks (some empty), and the block form */

static void reduce_scatters(void)
{
    static const size_t counts[] = {0, 1, 1000, 50000};
    int rcounts[64];
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        const size_t n = counts[k];
        size_t total = 0, before = 0;
        for (int r = 0; r < size; ++r) {
            rcounts[r] = r % 3 == 1 ? 0 : (int)n + r;
            before += r < rank ? (size_t)rcounts[r] : 0;
            total += (size_t)rcounts[r];
        }
        const size_t block_total = n * (size_t)size;
        const size_t room = (total > block_total ? total : block_total) + 1;
        int *mine = ints(room), *out = ints(room);
        for (int in_place = 0; in_place < 2; ++in_place) {
            fill(mine, total, rank);
            BOTH(if (in_place) fill(out, total, rank); else reset_ints(out, room),
                 MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : mine, out, rcounts, MPI_INT, MPI_SUM, test_comm),
                 MPI_Ireduce_scatter(in_place ? MPI_IN_PLACE : mine, out, rcounts, MPI_INT, MPI_SUM, test_comm,
                                     &rq_),
                 {
                     for (size_t i = 0; i < (size_t)rcounts[rank]; ++i) {
                         WANT(out[i], sum_of(before + i, 0, size), "MPI_Reduce_scatter n=%zu%s: element %zu", n,
                              in_place ? " in place" : "", i);
                     }
                     if (!in_place) {
                         WANT(out[rcounts[rank]], SENTINEL, "MPI_Reduce_scatter n=%zu: tail", n);
                     }
                 });
            fill(mine, block_total, rank);
            BOTH(if (in_place) fill(out, block_total, rank); else reset_ints(out, room),
                 MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, test_comm),
                 MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : mine, out, (int)n, MPI_INT, MPI_SUM, test_comm,
                                           &rq_),
                 for (size_t i = 0; i < n; ++i) {
                     WANT(out[i], sum_of((size_t)rank * n + i, 0, size),
                          "MPI_Reduce_scatter_block n=%zu%s: element %zu", n, in_place ? " in place" : "", i);
                 });
        }
        free(mine);
        free(out);
    }
}

/* ---- a commutative user op on a type with gaps: elements of 4 ints, data in ints 0 and 2; the op adds
 * the first and xors the second */

static MPI_Datatype gap_type;

static void gap_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    CHECK(*type == gap_type, "the user function got another datatype handle");
    const int *a = (const int *)in;
    int *b = (int *)inout;
    for (int i = 0; i < *len; ++i) {
        b[4 * i] += a[4 * i];
        b[4 * i + 2] ^= a[4 * i + 2];
    }
}

static void gap_fill(int *buf, size_t n, int r)
{
    for (size_t j = 0; j < n; ++j) {
        buf[4 * j] = value(r, 2 * j);
        buf[4 * j + 2] = value(r, 2 * j + 1);
    }
}

/* Element j of the reduction over ranks [0, upto): checked, and the gaps left alone. */
static void gap_expect(const int *buf, size_t j, int upto, const char *what)
{
    int xor_ = 0;
    for (int r = 0; r < upto; ++r) {
        xor_ ^= value(r, 2 * j + 1);
    }
    WANT(buf[4 * j], sum_of(2 * j, 0, upto), "%s: element %zu (sum)", what, j);
    WANT(buf[4 * j + 2], xor_, "%s: element %zu (xor)", what, j);
    WANT(buf[4 * j + 1], SENTINEL, "%s: gap after element %zu", what, j);
    WANT(buf[4 * j + 3], SENTINEL, "%s: gap at the end of element %zu", what, j);
}

/* Element `at` of a result holding element j of the whole vector (a reduce-scatter's block). */
static void gap_expect_at(const int *buf, size_t at, size_t j)
{
    int xor_ = 0;
    for (int r = 0; r < size; ++r) {
        xor_ ^= value(r, 2 * j + 1);
    }
    WANT(buf[4 * at], sum_of(2 * j, 0, size), "MPI_Reduce_scatter_block, user op: element %zu (sum)", j);
    WANT(buf[4 * at + 2], xor_, "MPI_Reduce_scatter_block, user op: element %zu (xor)", j);
    WANT(buf[4 * at + 1], SENTINEL, "MPI_Reduce_scatter_block, user op: gap after element %zu", j);
}

static void gap_ops(void)
{
    MPI_Datatype two;
    const int lengths[2] = {1, 1}, displs[2] = {0, 2};
    CHECK(MPI_Type_indexed(2, lengths, displs, MPI_INT, &two) == MPI_SUCCESS, "MPI_Type_indexed");
    CHECK(MPI_Type_create_resized(two, 0, 4 * (MPI_Aint)sizeof(int), &gap_type) == MPI_SUCCESS, "resized");
    CHECK(MPI_Type_commit(&gap_type) == MPI_SUCCESS, "MPI_Type_commit");
    MPI_Type_free(&two);
    MPI_Op op;
    CHECK(MPI_Op_create(gap_op, 1, &op) == MPI_SUCCESS, "MPI_Op_create");
    static const size_t counts[] = {1, 3, 1000, 50001};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        const size_t n = counts[k], all = n * (size_t)size;
        int *mine = ints(4 * all), *out = ints(4 * all);
        gap_fill(mine, all, rank);
        for (int root = 0; root < size; ++root) {
            const int in_place = (root + (int)k) % 2 == 0 && rank == root;
            BOTH({ reset_ints(out, 4 * all); if (in_place) gap_fill(out, n, rank); },
                 MPI_Reduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, gap_type, op, root, test_comm),
                 MPI_Ireduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, gap_type, op, root, test_comm, &rq_),
                 for (size_t j = 0; j < n && rank == root; ++j) { gap_expect(out, j, size, "MPI_Reduce, user op"); });
        }
        for (int in_place = 0; in_place < 2; ++in_place) {
            BOTH({ reset_ints(out, 4 * all); if (in_place) gap_fill(out, n, rank); },
                 MPI_Allreduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, gap_type, op, test_comm),
                 MPI_Iallreduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, gap_type, op, test_comm, &rq_),
                 for (size_t j = 0; j < n; ++j) { gap_expect(out, j, size, "MPI_Allreduce, user op"); });
            BOTH({ reset_ints(out, 4 * all); if (in_place) gap_fill(out, all, rank); },
                 MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : mine, out, (int)n, gap_type, op, test_comm),
                 MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : mine, out, (int)n, gap_type, op, test_comm,
                                           &rq_),
                 for (size_t j = 0; j < n; ++j) { gap_expect_at(out, j, (size_t)rank * n + j); });
            BOTH({ reset_ints(out, 4 * all); if (in_place) gap_fill(out, n, rank); },
                 MPI_Scan(in_place ? MPI_IN_PLACE : mine, out, (int)n, gap_type, op, test_comm),
                 MPI_Iscan(in_place ? MPI_IN_PLACE : mine, out, (int)n, gap_type, op, test_comm, &rq_),
                 for (size_t j = 0; j < n; ++j) { gap_expect(out, j, rank + 1, "MPI_Scan, user op"); });
        }
        free(mine);
        free(out);
    }
    MPI_Op_free(&op);
    MPI_Type_free(&gap_type);
}

/* ---- a non-commutative user op: 2x2 matrices (coll_check.h), every reduction, in place too */

static MPI_Datatype mat_type;

static void mat_product(void *in, void *inout, int *len, MPI_Datatype *type)
{
    CHECK(*type == mat_type, "the user function got another datatype handle");
    for (int i = 0; i < *len; ++i) {
        matmul((const int *)in + 4 * i, (int *)inout + 4 * i);
    }
}

static void mat_fill(int *buf, size_t n, size_t first, int r)
{
    for (size_t j = 0; j < n; ++j) {
        matrix(r, (int)(first + j), buf + 4 * j);
    }
}

static void mat_expect(const int *got, size_t n, size_t first, int from, int to, const char *what)
{
    for (size_t j = 0; j < n; ++j) {
        int want[4];
        product(from, to, (int)(first + j), want);
        CHECK(memcmp(got + 4 * j, want, sizeof want) == 0, "%s: matrix %zu is [%d %d; %d %d], want [%d %d; %d %d]",
              what, first + j, got[4 * j], got[4 * j + 1], got[4 * j + 2], got[4 * j + 3], want[0], want[1],
              want[2], want[3]);
    }
}

static void matrices(void)
{
    CHECK(MPI_Type_contiguous(4, MPI_INT, &mat_type) == MPI_SUCCESS, "MPI_Type_contiguous");
    CHECK(MPI_Type_commit(&mat_type) == MPI_SUCCESS, "MPI_Type_commit");
    MPI_Op op;
    CHECK(MPI_Op_create(mat_product, 0, &op) == MPI_SUCCESS, "MPI_Op_create");
    static const size_t counts[] = {1, 3, 2000, 20001};
    int rcounts[64];
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        const size_t n = counts[k], all = n * (size_t)size;
        int *mine = ints(4 * all), *out = ints(4 * all + 4);
        mat_fill(mine, all, 0, rank);
        for (int root = 0; root < size; ++root) {
            const int in_place = (root + (int)k) % 2 == 1 && rank == root;
            BOTH(if (in_place) mat_fill(out, n, 0, rank),
                 MPI_Reduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, root, test_comm),
                 MPI_Ireduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, root, test_comm, &rq_),
                 if (rank == root) mat_expect(out, n, 0, 0, size, "MPI_Reduce of matrices"));
        }
        size_t before = 0;
        for (int r = 0; r < size; ++r) {
            rcounts[r] = (int)n - (r % 2 == 1 ? (int)(n / 2) : 0);
            before += r < rank ? (size_t)rcounts[r] : 0;
        }
        for (int in_place = 0; in_place < 2; ++in_place) {
            BOTH(if (in_place) mat_fill(out, n, 0, rank),
                 MPI_Allreduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, test_comm),
                 MPI_Iallreduce(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, test_comm, &rq_),
                 mat_expect(out, n, 0, 0, size, "MPI_Allreduce of matrices"));
            BOTH(if (in_place) mat_fill(out, all, 0, rank),
                 MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : mine, out, rcounts, mat_type, op, test_comm),
                 MPI_Ireduce_scatter(in_place ? MPI_IN_PLACE : mine, out, rcounts, mat_type, op, test_comm, &rq_),
                 mat_expect(out, (size_t)rcounts[rank], before, 0, size, "MPI_Reduce_scatter of matrices"));
            BOTH(if (in_place) mat_fill(out, all, 0, rank),
                 MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, test_comm),
                 MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, test_comm,
                                           &rq_),
                 mat_expect(out, n, (size_t)rank * n, 0, size, "MPI_Reduce_scatter_block of matrices"));
            BOTH(if (in_place) mat_fill(out, n, 0, rank),
                 MPI_Scan(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, test_comm),
                 MPI_Iscan(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, test_comm, &rq_),
                 mat_expect(out, n, 0, 0, rank + 1, "MPI_Scan of matrices"));
            BOTH(if (in_place) mat_fill(out, n, 0, rank),
                 MPI_Exscan(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, test_comm),
                 MPI_Iexscan(in_place ? MPI_IN_PLACE : mine, out, (int)n, mat_type, op, test_comm, &rq_),
                 if (rank > 0) mat_expect(out, n, 0, 0, rank, "MPI_Exscan of matrices"));
        }
        free(mine);
        free(out);
    }
    MPI_Op_free(&op);
    MPI_Type_free(&mat_type);
}

/* ---- the gathers and alltoall; a strided vector of n ints (every other int) on the receive side */

static void gathers(void)
{
    static const size_t counts[] = {0, 1, 1000, 100000};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        const size_t n = counts[k], all = n * (size_t)size;
        int *mine = ints(n + 1), *out = ints(all + 1), *spread = ints(2 * all + 2);
        fill(mine, n, rank);
        MPI_Datatype vec = MPI_DATATYPE_NULL, block;
        if (n > 0) {
            MPI_Type_vector((int)n, 1, 2, MPI_INT, &vec);
            MPI_Type_create_resized(vec, 0, 2 * (MPI_Aint)n * (MPI_Aint)sizeof(int), &block);
            MPI_Type_free(&vec);
            MPI_Type_commit(&block);
        } else {
            block = MPI_INT;
        }
        const int vcount = n > 0 ? 1 : 0;
        for (int root = 0; root < size; ++root) {
            if (n > 1000 && root != (int)(k % (size_t)size)) {
                continue;
            }
            const int in_place = (root + (int)k) % 2 == 1 && rank == root;
            BOTH({ reset_ints(out, all + 1); if (in_place) fill(out + (size_t)rank * n, n, rank); },
                 MPI_Gather(in_place ? MPI_IN_PLACE : mine, (int)n, MPI_INT, out, (int)n, MPI_INT, root, test_comm),
                 MPI_Igather(in_place ? MPI_IN_PLACE : mine, (int)n, MPI_INT, out, (int)n, MPI_INT, root, test_comm,
                             &rq_),
                 for (size_t i = 0; i < all && rank == root; ++i) {
                     WANT(out[i], value((int)(i / n), i % n), "MPI_Gather n=%zu root %d: element %zu", n, root, i);
                 });
            BOTH(reset_ints(spread, 2 * all + 2),
                 MPI_Gather(mine, (int)n, MPI_INT, spread, vcount, block, root, test_comm),
                 MPI_Igather(mine, (int)n, MPI_INT, spread, vcount, block, root, test_comm, &rq_),
                 for (size_t i = 0; i < all && rank == root; ++i) {
                     WANT(spread[2 * i], value((int)(i / n), i % n), "MPI_Gather into vectors n=%zu root %d: %zu", n,
                          root, i);
                     WANT(spread[2 * i + 1], SENTINEL, "MPI_Gather into vectors n=%zu root %d: gap %zu", n, root, i);
                 });
            /* Scatter back what was gathered (the root keeps its block in place). */
            for (size_t i = 0; i < all; ++i) {
                out[i] = value((int)(i / n), i % n);
            }
            BOTH(reset_ints(mine, n + 1),
                 MPI_Scatter(out, (int)n, MPI_INT, in_place ? MPI_IN_PLACE : mine, (int)n, MPI_INT, root, test_comm),
                 MPI_Iscatter(out, (int)n, MPI_INT, in_place ? MPI_IN_PLACE : mine, (int)n, MPI_INT, root,
                              test_comm, &rq_),
                 for (size_t i = 0; i < n && !in_place; ++i) {
                     WANT(mine[i], value(rank, i), "MPI_Scatter n=%zu root %d: element %zu", n, root, i);
                 });
            fill(mine, n, rank);
        }
        for (int in_place = 0; in_place < 2; ++in_place) {
            BOTH({ reset_ints(out, all + 1); if (in_place) fill(out + (size_t)rank * n, n, rank); },
                 MPI_Allgather(in_place ? MPI_IN_PLACE : mine, (int)n, MPI_INT, out, (int)n, MPI_INT, test_comm),
                 MPI_Iallgather(in_place ? MPI_IN_PLACE : mine, (int)n, MPI_INT, out, (int)n, MPI_INT, test_comm,
                                &rq_),
                 {
                     for (size_t i = 0; i < all; ++i) {
                         WANT(out[i], value((int)(i / n), i % n), "MPI_Allgather n=%zu: element %zu", n, i);
                     }
                     WANT(out[all], SENTINEL, "MPI_Allgather n=%zu: tail", n);
                 });
        }
        BOTH(reset_ints(spread, 2 * all + 2), MPI_Allgather(mine, (int)n, MPI_INT, spread, vcount, block, test_comm),
             MPI_Iallgather(mine, (int)n, MPI_INT, spread, vcount, block, test_comm, &rq_),
             for (size_t i = 0; i < all; ++i) {
                 WANT(spread[2 * i], value((int)(i / n), i % n), "MPI_Allgather into vectors n=%zu: %zu", n, i);
                 WANT(spread[2 * i + 1], SENTINEL, "MPI_Allgather into vectors n=%zu: gap %zu", n, i);
             });
        if (block != MPI_INT) {
            MPI_Type_free(&block);
        }
        free(mine);
        free(out);
        free(spread);
    }
}

/* Allgatherv: rank r gives n + r elements (none for every third rank), blocks in reverse order with gaps. */
static void allgathervs(void)
{
    static const size_t counts[] = {0, 1, 1000, 100000};
    int rcounts[64], displs[64];
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        const size_t n = counts[k];
        size_t at = 0;
        for (int r = size - 1; r >= 0; --r) {
            rcounts[r] = r % 3 == 2 ? 0 : (int)n + r;
            displs[r] = (int)at;
            at += (size_t)rcounts[r] + 1;
        }
        int *mine = ints(n + (size_t)size), *out = ints(at);
        fill(mine, (size_t)rcounts[rank], rank);
        for (int in_place = 0; in_place < 2; ++in_place) {
            BOTH({ reset_ints(out, at); if (in_place) fill(out + displs[rank], (size_t)rcounts[rank], rank); },
                 MPI_Allgatherv(in_place ? MPI_IN_PLACE : mine, rcounts[rank], MPI_INT, out, rcounts, displs, MPI_INT,
                                test_comm),
                 MPI_Iallgatherv(in_place ? MPI_IN_PLACE : mine, rcounts[rank], MPI_INT, out, rcounts, displs,
                                 MPI_INT, test_comm, &rq_),
                 for (int r = 0; r < size; ++r) {
                     for (size_t i = 0; i < (size_t)rcounts[r]; ++i) {
                         WANT(out[(size_t)displs[r] + i], value(r, i), "MPI_Allgatherv n=%zu: rank %d element %zu", n,
                              r, i);
                     }
                     WANT(out[(size_t)displs[r] + (size_t)rcounts[r]], SENTINEL, "MPI_Allgatherv n=%zu: gap %d", n, r);
                 });
        }
        free(mine);
        free(out);
    }
}

static void alltoalls(void)
{
    static const size_t counts[] = {0, 1, 3, 1000, 50000};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        const size_t n = counts[k], all = n * (size_t)size;
        int *mine = ints(all), *out = ints(all + 1), *spread = ints(2 * all + 1);
        for (int p = 0; p < size; ++p) {
            for (size_t i = 0; i < n; ++i) {
                mine[(size_t)p * n + i] = value2(rank, p, i);
            }
        }
        for (int in_place = 0; in_place < 2; ++in_place) {
            BOTH({ reset_ints(out, all + 1); if (in_place) memcpy(out, mine, all * sizeof(int)); },
                 MPI_Alltoall(in_place ? MPI_IN_PLACE : mine, (int)n, MPI_INT, out, (int)n, MPI_INT, test_comm),
                 MPI_Ialltoall(in_place ? MPI_IN_PLACE : mine, (int)n, MPI_INT, out, (int)n, MPI_INT, test_comm,
                               &rq_),
                 {
                     for (int p = 0; p < size; ++p) {
                         for (size_t i = 0; i < n; ++i) {
                             WANT(out[(size_t)p * n + i], value2(p, rank, i), "MPI_Alltoall n=%zu%s: from %d element "
                                  "%zu", n, in_place ? " in place" : "", p, i);
                         }
                     }
                     WANT(out[all], SENTINEL, "MPI_Alltoall n=%zu: tail", n);
                 });
        }
        /* Into every other int: n ints per rank as a vector with its extent stretched to 2n ints. */
        if (n > 0) {
            MPI_Datatype vec, block;
            MPI_Type_vector((int)n, 1, 2, MPI_INT, &vec);
            MPI_Type_create_resized(vec, 0, 2 * (MPI_Aint)n * (MPI_Aint)sizeof(int), &block);
            MPI_Type_commit(&block);
            MPI_Type_free(&vec);
            BOTH(reset_ints(spread, 2 * all + 1), MPI_Alltoall(mine, (int)n, MPI_INT, spread, 1, block, test_comm),
                 MPI_Ialltoall(mine, (int)n, MPI_INT, spread, 1, block, test_comm, &rq_),
                 for (size_t i = 0; i < all; ++i) {
                     WANT(spread[2 * i], value2((int)(i / n), rank, i % n), "MPI_Alltoall into vectors n=%zu: %zu", n,
                          i);
                     WANT(spread[2 * i + 1], SENTINEL, "MPI_Alltoall into vectors n=%zu: gap %zu", n, i);
                 });
            MPI_Type_free(&block);
        }
        free(mine);
        free(out);
        free(spread);
    }
}

static void barriers(void)
{
    for (int i = 0; i < 5; ++i) {
        BOTH((void)0, MPI_Barrier(test_comm), MPI_Ibarrier(test_comm, &rq_), (void)0);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_comm_init(argc, argv);
    MPI_Comm_rank(test_comm, &rank);
    MPI_Comm_size(test_comm, &size);
    CHECK(size <= 64, "at most 64 ranks");
    barriers();
    bcasts();
    sums();
    reduce_scatters();
    gap_ops();
    matrices();
    gathers();
    allgathervs();
    alltoalls();
    MPI_Barrier(test_comm);
    if (rank == 0) {
        printf("coll_algorithms: %zu collective calls checked on %s\n", calls, test_comm_label());
    }
    test_comm_free();
    MPI_Finalize();
    return 0;
}
