/* Cartesian topologies (MPI-4.1 8.5): MPI_Dims_create against hand-computed factorizations and its
 * errors, MPI_Cart_create (ranks beyond the grid get MPI_COMM_NULL; a grid too large is an error),
 * MPI_Cart_coords / rank / shift / get / sub / map, MPI_Cartdim_get, MPI_Topo_test, against the
 * row-major layout computed here. Plain MPI C; also run over the translators. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#include "../p2p/p2p_check.h"

static int rank, size;

static void check_dims(int nnodes, int ndims, const int *given, const int *expect)
{
    int dims[8];
    for (int i = 0; i < ndims; ++i) {
        dims[i] = given[i];
    }
    CHECK(MPI_Dims_create(nnodes, ndims, dims) == MPI_SUCCESS, "MPI_Dims_create(%d, %d)", nnodes, ndims);
    for (int i = 0; i < ndims; ++i) {
        CHECK(dims[i] == expect[i], "MPI_Dims_create(%d, %d): dims[%d] = %d, expected %d", nnodes, ndims, i, dims[i],
              expect[i]);
    }
}

static void dims_create(void)
{
    const int z[4] = {0, 0, 0, 0};
    check_dims(6, 2, z, (const int[]){3, 2});
    check_dims(7, 2, z, (const int[]){7, 1});
    check_dims(12, 3, z, (const int[]){3, 2, 2});
    check_dims(16, 4, z, (const int[]){2, 2, 2, 2});
    check_dims(24, 3, z, (const int[]){4, 3, 2});
    check_dims(30, 3, z, (const int[]){5, 3, 2});
    check_dims(1, 3, z, (const int[]){1, 1, 1});
    check_dims(64, 2, z, (const int[]){8, 8});
    check_dims(12, 3, (const int[]){0, 3, 0}, (const int[]){2, 3, 2});
    check_dims(8, 2, (const int[]){2, 4}, (const int[]){2, 4});
    /* Impossible fixed dimensions are errors (MPI_COMM_SELF's handler returns them). */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    {
        int dims[2] = {5, 0}, cls = -1;
        const int rc = MPI_Dims_create(12, 2, dims);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS, "12 processes with a fixed dimension of 5 is an error");
    }
    {
        int dims[2] = {-1, 0};
        CHECK(MPI_Dims_create(4, 2, dims) != MPI_SUCCESS, "a negative dimension is an error");
    }
}

/* Row-major coordinates of r in dims. */
static void coords_of(int r, int ndims, const int *dims, int *coords)
{
    for (int d = ndims - 1; d >= 0; --d) {
        coords[d] = r % dims[d];
        r /= dims[d];
    }
}

static int rank_at(int ndims, const int *dims, const int *coords)
{
    int r = 0;
    for (int d = 0; d < ndims; ++d) {
        r = r * dims[d] + coords[d];
    }
    return r;
}

/* The neighbour `disp` steps along d, or MPI_PROC_NULL. */
static int neighbour(int r, int ndims, const int *dims, const int *periods, int d, int disp)
{
    int c[8];
    coords_of(r, ndims, dims, c);
    c[d] += disp;
    if (c[d] < 0 || c[d] >= dims[d]) {
        if (!periods[d]) {
            return MPI_PROC_NULL;
        }
        c[d] = ((c[d] % dims[d]) + dims[d]) % dims[d];
    }
    return rank_at(ndims, dims, c);
}

static void check_grid(int ndims, const int *dims, const int *periods)
{
    MPI_Comm cart;
    int nodes = 1, status = -1, nd = -1;
    for (int d = 0; d < ndims; ++d) {
        nodes *= dims[d];
    }
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart) == MPI_SUCCESS, "MPI_Cart_create");
    CHECK((rank < nodes) == (cart != MPI_COMM_NULL), "ranks beyond the grid of %d get MPI_COMM_NULL", nodes);
    if (cart == MPI_COMM_NULL) {
        return;
    }
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    MPI_Topo_test(cart, &status);
    CHECK(status == MPI_CART, "MPI_Topo_test gives MPI_CART");
    MPI_Cartdim_get(cart, &nd);
    CHECK(nd == ndims, "MPI_Cartdim_get: %d", nd);
    {
        int r = -1, n = -1;
        MPI_Comm_rank(cart, &r);
        MPI_Comm_size(cart, &n);
        CHECK(r == rank && n == nodes, "the grid's ranks are the world's (no reordering)");
    }
    for (int r = 0; r < nodes; ++r) {
        int c[8], expect[8], back = -1;
        CHECK(MPI_Cart_coords(cart, r, ndims, c) == MPI_SUCCESS, "MPI_Cart_coords(%d)", r);
        coords_of(r, ndims, dims, expect);
        for (int d = 0; d < ndims; ++d) {
            CHECK(c[d] == expect[d], "coords of %d in dimension %d: %d, expected %d", r, d, c[d], expect[d]);
        }
        CHECK(MPI_Cart_rank(cart, c, &back) == MPI_SUCCESS && back == r, "MPI_Cart_rank of %d's coords: %d", r, back);
    }
    {
        int dd[8], pp[8], cc[8], expect[8];
        MPI_Cart_get(cart, ndims, dd, pp, cc);
        coords_of(rank, ndims, dims, expect);
        for (int d = 0; d < ndims; ++d) {
            CHECK(dd[d] == dims[d] && (pp[d] != 0) == (periods[d] != 0) && cc[d] == expect[d], "MPI_Cart_get, dim %d",
                  d);
        }
    }
    for (int d = 0; d < ndims; ++d) {
        for (int disp = -2; disp <= 2; ++disp) {
            int src = -5, dst = -5;
            CHECK(MPI_Cart_shift(cart, d, disp, &src, &dst) == MPI_SUCCESS, "MPI_Cart_shift");
            CHECK(dst == neighbour(rank, ndims, dims, periods, d, disp) &&
                      src == neighbour(rank, ndims, dims, periods, d, -disp),
                  "MPI_Cart_shift(dim %d, disp %d): source %d dest %d", d, disp, src, dst);
        }
        /* Coordinates out of range: wrapped in a periodic dimension, an error in another. */
        int c[8], r = -1;
        coords_of(rank, ndims, dims, c);
        c[d] += dims[d];
        const int rc = MPI_Cart_rank(cart, c, &r);
        if (periods[d]) {
            CHECK(rc == MPI_SUCCESS && r == rank, "a periodic coordinate wraps (%d)", r);
        } else {
            CHECK(rc != MPI_SUCCESS, "a coordinate beyond a non-periodic dimension is an error");
        }
    }
    {
        /* Open MPI 4.1 checks neither the rank of MPI_Cart_coords nor the direction of MPI_Cart_shift. */
        int r = -1;
        const int checked = !runtime_is("Open MPI");
        CHECK(!checked || MPI_Cart_coords(cart, nodes, ndims, (int[8]){0}) != MPI_SUCCESS,
              "MPI_Cart_coords of a rank beyond");
        CHECK(!checked || MPI_Cart_shift(cart, ndims, 1, &r, &r) != MPI_SUCCESS, "MPI_Cart_shift along a dimension beyond");
    }
    MPI_Comm_free(&cart);
}

/* Rows and columns of a 2-D grid. */
static void check_sub(void)
{
    int dims[2] = {0, 0};
    const int periods[2] = {0, 1};
    MPI_Comm cart, row, col, point;
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    int c[2];
    MPI_Cart_coords(cart, rank, 2, c);
    CHECK(MPI_Cart_sub(cart, (const int[]){0, 1}, &row) == MPI_SUCCESS, "MPI_Cart_sub keeping dimension 1");
    CHECK(MPI_Cart_sub(cart, (const int[]){1, 0}, &col) == MPI_SUCCESS, "MPI_Cart_sub keeping dimension 0");
    {
        int r = -1, n = -1, nd = -1, dd[1], pp[1], cc[1];
        MPI_Comm_rank(row, &r);
        MPI_Comm_size(row, &n);
        CHECK(n == dims[1] && r == c[1], "my row: rank %d of %d", r, n);
        MPI_Cartdim_get(row, &nd);
        MPI_Cart_get(row, 1, dd, pp, cc);
        CHECK(nd == 1 && dd[0] == dims[1] && pp[0] == 1 && cc[0] == c[1], "the row is a periodic 1-D grid");
        MPI_Comm_rank(col, &r);
        MPI_Comm_size(col, &n);
        MPI_Cart_get(col, 1, dd, pp, cc);
        CHECK(n == dims[0] && r == c[0] && pp[0] == 0, "my column: rank %d of %d", r, n);
        /* The row's members are the ranks of my grid row. */
        int sum = -1, expect = 0;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
        for (int j = 0; j < dims[1]; ++j) {
            expect += c[0] * dims[1] + j;
        }
        CHECK(sum == expect, "allreduce over my row: %d, expected %d", sum, expect);
    }
    /* MPICH 4.0 gives no zero-dimensional grid (MPI-4.0 8.5.7) when no dimension is kept. */
    CHECK(MPI_Cart_sub(cart, (const int[]){0, 0}, &point) == MPI_SUCCESS, "MPI_Cart_sub keeping nothing");
    if (!runtime_is("MPICH")) {
        int n = -1, nd = -1;
        MPI_Comm_size(point, &n);
        MPI_Cartdim_get(point, &nd);
        CHECK(n == 1 && nd == 0, "keeping no dimension leaves each process alone (%d, %d dims)", n, nd);
    }
    if (point != MPI_COMM_NULL) {
        MPI_Comm_free(&point);
    }
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    dims_create();
    check_grid(1, (const int[]){size}, (const int[]){1});
    check_grid(1, (const int[]){size}, (const int[]){0});
    {
        int dims[3] = {0, 0, 0};
        MPI_Dims_create(size, 3, dims);
        check_grid(3, dims, (const int[]){1, 0, 1});
        MPI_Dims_create(size, 2, dims);
        check_grid(2, dims, (const int[]){0, 1});
    }
    if (size > 1) {
        check_grid(1, (const int[]){size - 1}, (const int[]){1}); /* the last rank is left out */
    }
    {
        MPI_Comm cart = MPI_COMM_WORLD;
        CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, (const int[]){size + 1}, (const int[]){0}, 0, &cart) != MPI_SUCCESS,
              "a grid larger than the communicator is an error");
        CHECK(cart == MPI_COMM_NULL, "the failed MPI_Cart_create gives MPI_COMM_NULL");
        int newrank = -5;
        MPI_Cart_map(MPI_COMM_WORLD, 1, (const int[]){size > 1 ? size - 1 : 1}, (const int[]){0}, &newrank);
        /* Open MPI 4.1 gives every rank a place, also beyond the grid. */
        CHECK(newrank == (rank < (size > 1 ? size - 1 : 1) ? rank : MPI_UNDEFINED) || runtime_is("Open MPI"),
              "MPI_Cart_map: %d", newrank);
        int status = 0;
        MPI_Topo_test(MPI_COMM_WORLD, &status);
        CHECK(status == MPI_UNDEFINED, "MPI_COMM_WORLD has no topology");
    }
    check_sub();

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("topo_cart: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
