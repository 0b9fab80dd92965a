/*
 * Collectives on derived datatypes (a strided vector on either side, reduced along its type map with
 * the gaps untouched), a non-commutative user op (2x2 matrix product modulo a prime, on a contiguous
 * derived type: the result is A0 A1 ... A(n-1) in rank order only if every algorithm keeps that order),
 * MPI_MINLOC on MPI_DOUBLE_INT, and the op calls MPI_Op_create/commutative/free and MPI_Reduce_local.
 */
#include "coll_check.h"

static int rank, size;

#define OK(call) CHECK((call) == MPI_SUCCESS, "%s failed", #call)

/* ---- a strided vector: n ints, every other one */

static void vector_tests(int n)
{
    MPI_Datatype vec;
    OK(MPI_Type_vector(n, 1, 2, MPI_INT, &vec));
    OK(MPI_Type_commit(&vec));
    const size_t span = (size_t)(2 * n);
    const int root = n % size;

    /* Bcast of one vector: the gaps stay as they were on every rank. */
    int *buf = ints(span);
    for (int i = 0; i < n && rank == root; ++i) {
        buf[2 * i] = value(root, (size_t)i);
    }
    MPI_Request rq;
    OK(MPI_Ibcast(buf, 1, vec, root, test_comm, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; ++i) {
        CHECK(buf[2 * i] == value(root, (size_t)i) && buf[2 * i + 1] == SENTINEL, "MPI_Ibcast of a vector, n=%d: "
              "element %d", n, i);
    }

    /* Gather vectors into contiguous ints, scatter them back into vectors. */
    for (int i = 0; i < n; ++i) {
        buf[2 * i] = value(rank, (size_t)i);
    }
    int *all = ints((size_t)n * (size_t)size);
    OK(MPI_Gather(buf, 1, vec, all, n, MPI_INT, root, test_comm));
    for (int r = 0; r < size && rank == root; ++r) {
        for (int i = 0; i < n; ++i) {
            CHECK(all[r * n + i] == value(r, (size_t)i), "MPI_Gather from vectors, n=%d: rank %d element %d", n, r, i);
        }
    }
    int *back = ints(span);
    OK(MPI_Scatter(all, n, MPI_INT, back, 1, vec, root, test_comm));
    for (int i = 0; i < n; ++i) {
        CHECK(back[2 * i] == value(rank, (size_t)i) && back[2 * i + 1] == SENTINEL,
              "MPI_Scatter into a vector, n=%d: element %d", n, i);
    }

    /* Allreduce on vectors: the sum lands on the vector's elements only. (A predefined op on a derived
     * type made of one predefined type is Tessera's extension, which MPI-4.1 12.3.4 requires for
     * accumulates only: Open MPI and MPICH refuse it in collectives.) */
    int *sum = ints(span);
    const int derived_ops = !runtime_is("Open MPI") && !runtime_is("MPICH");
    if (derived_ops) {
        OK(MPI_Allreduce(buf, sum, 1, vec, MPI_SUM, test_comm));
    }
    for (int i = 0; i < n && derived_ops; ++i) {
        int want = 0;
        for (int r = 0; r < size; ++r) {
            want += value(r, (size_t)i);
        }
        CHECK(sum[2 * i] == want && sum[2 * i + 1] == SENTINEL, "MPI_Allreduce of vectors, n=%d: element %d is %d, "
              "want %d", n, i, sum[2 * i], want);
    }

    /* Alltoall: one vector to each rank (vector p starts p extents on), contiguous ints back. */
    MPI_Aint lb, extent;
    OK(MPI_Type_get_extent(vec, &lb, &extent));
    const size_t stride = (size_t)extent / sizeof(int);
    int *out = ints(stride * (size_t)size + 1), *in = ints((size_t)n * (size_t)size);
    for (int p = 0; p < size; ++p) {
        for (int i = 0; i < n; ++i) {
            out[(size_t)p * stride + 2 * (size_t)i] = value2(rank, p, (size_t)i);
        }
    }
    OK(MPI_Ialltoall(out, 1, vec, in, n, MPI_INT, test_comm, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int p = 0; p < size; ++p) {
        for (int i = 0; i < n; ++i) {
            CHECK(in[p * n + i] == value2(p, rank, (size_t)i), "MPI_Ialltoall from vectors, n=%d: from %d element %d",
                  n, p, i);
        }
    }
    OK(MPI_Type_free(&vec));
    free(buf);
    free(all);
    free(back);
    free(sum);
    free(out);
    free(in);
}

/* ---- a non-commutative op: 2x2 integer matrices multiplied modulo a prime (coll_check.h) */

static MPI_Datatype mat_type;
static int op_calls;

/* inoutvec[i] = invec[i] * inoutvec[i]: invec holds the operand of the lower ranks. */
static void mat_product(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    CHECK(*datatype == mat_type, "the user function got another datatype handle");
    ++op_calls;
    for (int i = 0; i < *len; ++i) {
        matmul((const int *)invec + 4 * i, (int *)inoutvec + 4 * i);
    }
}

static void expect_products(const int *got, int k, int from, int to, const char *what)
{
    for (int j = 0; j < k; ++j) {
        int want[4];
        product(from, to, j, want);
        CHECK(memcmp(got + 4 * j, want, sizeof want) == 0, "%s: matrix %d is [%d %d; %d %d], want [%d %d; %d %d]",
              what, j, got[4 * j], got[4 * j + 1], got[4 * j + 2], got[4 * j + 3], want[0], want[1], want[2],
              want[3]);
    }
}

static void noncommutative_tests(void)
{
    OK(MPI_Type_contiguous(4, MPI_INT, &mat_type));
    OK(MPI_Type_commit(&mat_type));
    MPI_Op op;
    OK(MPI_Op_create(mat_product, 0, &op));
    int commute = 1;
    OK(MPI_Op_commutative(op, &commute));
    CHECK(commute == 0, "MPI_Op_commutative says a non-commutative op commutes");

    enum { K = 3 }; /* matrices per rank and call */
    const int total = K * size;
    int *mine = ints((size_t)(4 * total)), *res = ints((size_t)(4 * total));
    for (int j = 0; j < total; ++j) {
        matrix(rank, j, mine + 4 * j);
    }
    for (int root = 0; root < size; ++root) {
        OK(MPI_Reduce(mine, res, K, mat_type, op, root, test_comm));
        if (rank == root) {
            expect_products(res, K, 0, size, "MPI_Reduce of matrices");
        }
    }
    MPI_Request rq;
    OK(MPI_Iallreduce(mine, res, K, mat_type, op, test_comm, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_products(res, K, 0, size, "MPI_Iallreduce of matrices");
    OK(MPI_Allreduce(mine, res, K, mat_type, op, test_comm));
    expect_products(res, K, 0, size, "MPI_Allreduce of matrices");
    OK(MPI_Scan(mine, res, K, mat_type, op, test_comm));
    expect_products(res, K, 0, rank + 1, "MPI_Scan of matrices");
    OK(MPI_Iexscan(mine, res, K, mat_type, op, test_comm, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    if (rank > 0) {
        expect_products(res, K, 0, rank, "MPI_Iexscan of matrices");
    }
    /* Reduce_scatter_block: rank r gets the products of matrices [r K, (r+1) K). */
    OK(MPI_Reduce_scatter_block(mine, res, K, mat_type, op, test_comm));
    for (int j = 0; j < K; ++j) {
        int want[4];
        product(0, size, rank * K + j, want);
        CHECK(memcmp(res + 4 * j, want, sizeof want) == 0, "MPI_Reduce_scatter_block of matrices: matrix %d", j);
    }
    CHECK(op_calls > 0 || size == 1, "the user function was never called");

    /* MPI_Reduce_local with the user op: inout = in * inout. */
    int a[4], b[4], want[4];
    matrix(1, 2, a);
    matrix(3, 4, b);
    memcpy(want, b, sizeof b);
    matmul(a, want);
    OK(MPI_Reduce_local(a, b, 1, mat_type, op));
    CHECK(memcmp(b, want, sizeof want) == 0, "MPI_Reduce_local with a user op");

    OK(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "MPI_Op_free did not set the handle to MPI_OP_NULL");
    OK(MPI_Type_free(&mat_type));
    free(mine);
    free(res);
}

/* ---- MINLOC on a pair type, and the predefined ops' calls */

static void pair_and_op_calls(void)
{
    struct {
        double value;
        int index;
    } in = {(double)((rank * 37) % (size + 1)) - 0.5, rank}, out = {0, -1};
    OK(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, test_comm));
    double best = 1e9;
    int where = -1;
    for (int r = 0; r < size; ++r) {
        const double v = (double)((r * 37) % (size + 1)) - 0.5;
        if (v < best) {
            best = v;
            where = r;
        }
    }
    CHECK(out.value == best && out.index == where, "MPI_MINLOC: got (%g, %d), want (%g, %d)", out.value, out.index,
          best, where);

    int commute = 0;
    OK(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1, "MPI_Op_commutative(MPI_SUM) says no");
    const int x[3] = {1, 2, 3};
    int y[3] = {10, 20, 30};
    OK(MPI_Reduce_local(x, y, 3, MPI_INT, MPI_PROD));
    CHECK(y[0] == 10 && y[1] == 40 && y[2] == 90, "MPI_Reduce_local(MPI_PROD)");
    OK(MPI_Reduce_local_c(x, y, 3, MPI_INT, MPI_MAX));
    CHECK(y[0] == 10 && y[1] == 40 && y[2] == 90, "MPI_Reduce_local_c(MPI_MAX)");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_comm_init(argc, argv);
    MPI_Comm_rank(test_comm, &rank);
    MPI_Comm_size(test_comm, &size);
    vector_tests(1);
    vector_tests(1000);
    vector_tests(100000);
    noncommutative_tests();
    pair_and_op_calls();
    MPI_Barrier(test_comm);
    if (rank == 0) {
        printf("coll_types: all checks passed on %s\n", test_comm_label());
    }
    test_comm_free();
    MPI_Finalize();
    return 0;
}
