/* Graph and distributed graph topologies (MPI-4.1 8.5.3-8.5.5): MPI_Graph_create (a ring, and a graph
 * smaller than the communicator), MPI_Graphdims_get, MPI_Graph_get, MPI_Graph_neighbors(_count),
 * MPI_Graph_map; MPI_Dist_graph_create_adjacent with weights and MPI_UNWEIGHTED; MPI_Dist_graph_create
 * with all edges named by rank 0 (a weighted star) and with each rank naming its own (a ring), checked
 * by MPI_Dist_graph_neighbors(_count); MPI_Topo_test. Plain MPI C; also run over the translators. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#include "../p2p/p2p_check.h"

/* MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are sentinel addresses ((int *)10 and 11 in the ABI), which GCC
 * takes for arrays of size 0 when they are passed for an int[] parameter. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

static int rank, size;

/* A ring: node i's neighbours are i-1 and i+1 (one of each even when they coincide). */
static void check_graph(int nnodes)
{
    int *index = malloc(sizeof(int) * (size_t)nnodes), *edges = malloc(sizeof(int) * 2 * (size_t)nnodes);
    MPI_Comm g;
    for (int i = 0; i < nnodes; ++i) {
        edges[2 * i] = (i + nnodes - 1) % nnodes;
        edges[2 * i + 1] = (i + 1) % nnodes;
        index[i] = 2 * (i + 1);
    }
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 0, &g) == MPI_SUCCESS, "MPI_Graph_create");
    CHECK((rank < nnodes) == (g != MPI_COMM_NULL), "ranks beyond the graph's %d nodes get MPI_COMM_NULL", nnodes);
    if (g != MPI_COMM_NULL) {
        int status = -1, nn = -1, ne = -1, count = -1, n[2] = {-1, -1};
        int *gi = malloc(sizeof(int) * (size_t)nnodes), *ge = malloc(sizeof(int) * 2 * (size_t)nnodes);
        MPI_Topo_test(g, &status);
        CHECK(status == MPI_GRAPH, "MPI_Topo_test gives MPI_GRAPH");
        MPI_Graphdims_get(g, &nn, &ne);
        CHECK(nn == nnodes && ne == 2 * nnodes, "MPI_Graphdims_get: %d nodes, %d edges", nn, ne);
        MPI_Graph_get(g, nnodes, 2 * nnodes, gi, ge);
        for (int i = 0; i < nnodes; ++i) {
            CHECK(gi[i] == index[i] && ge[2 * i] == edges[2 * i] && ge[2 * i + 1] == edges[2 * i + 1],
                  "MPI_Graph_get gives the graph back (node %d)", i);
        }
        for (int i = 0; i < nnodes; ++i) {
            MPI_Graph_neighbors_count(g, i, &count);
            MPI_Graph_neighbors(g, i, 2, n);
            CHECK(count == 2 && n[0] == edges[2 * i] && n[1] == edges[2 * i + 1], "node %d's neighbours: %d, %d", i,
                  n[0], n[1]);
        }
        MPI_Comm_free(&g);
        free(gi);
        free(ge);
    }
    {
        int newrank = -5;
        MPI_Graph_map(MPI_COMM_WORLD, nnodes, index, edges, &newrank);
        CHECK(newrank == (rank < nnodes ? rank : MPI_UNDEFINED) || runtime_is("Open MPI"), "MPI_Graph_map: %d",
              newrank);
    }
    free(index);
    free(edges);
}

/* Each rank names its own edges: in from r-1 (weight r), out to r+1 and r+2 (weights 10r, 10r+1). */
static void check_adjacent(int weighted)
{
    MPI_Comm g;
    const int sources[1] = {(rank + size - 1) % size}, sw[1] = {rank};
    const int destinations[2] = {(rank + 1) % size, (rank + 2) % size}, dw[2] = {10 * rank, 10 * rank + 1};
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, sources, weighted ? sw : MPI_UNWEIGHTED, 2, destinations,
                                         weighted ? dw : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g) == MPI_SUCCESS,
          "MPI_Dist_graph_create_adjacent");
    int status = -1, in = -1, out = -1, w = -1, s[2] = {-1, -1}, d[2] = {-1, -1}, sws[2] = {-1, -1}, dws[2] = {-1, -1};
    MPI_Topo_test(g, &status);
    CHECK(status == MPI_DIST_GRAPH, "MPI_Topo_test gives MPI_DIST_GRAPH");
    MPI_Dist_graph_neighbors_count(g, &in, &out, &w);
    CHECK(in == 1 && out == 2 && (w != 0) == weighted, "degrees %d in, %d out, weighted %d", in, out, w);
    if (weighted) {
        MPI_Dist_graph_neighbors(g, 1, s, sws, 2, d, dws);
        CHECK(sws[0] == rank && dws[0] == 10 * rank && dws[1] == 10 * rank + 1, "the weights as given");
    } else {
        MPI_Dist_graph_neighbors(g, 1, s, MPI_UNWEIGHTED, 2, d, MPI_UNWEIGHTED);
    }
    CHECK(s[0] == sources[0] && d[0] == destinations[0] && d[1] == destinations[1], "the neighbours as given");
    MPI_Comm_free(&g);
}

/* Rank 0 names every edge of a star 0 -> i (weight 100 + i); the others name none. */
static void check_star(void)
{
    MPI_Comm g;
    int n = rank == 0 ? 1 : 0, source = 0, degree = size - 1;
    int *dest = malloc(sizeof(int) * (size_t)size), *weights = malloc(sizeof(int) * (size_t)size);
    for (int i = 1; i < size; ++i) {
        dest[i - 1] = i;
        weights[i - 1] = 100 + i;
    }
    CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, &source, &degree, dest, rank == 0 ? weights : MPI_WEIGHTS_EMPTY,
                                MPI_INFO_NULL, 0, &g) == MPI_SUCCESS,
          "MPI_Dist_graph_create");
    int in = -1, out = -1, w = -1;
    MPI_Dist_graph_neighbors_count(g, &in, &out, &w);
    if (rank == 0) {
        CHECK(in == 0 && out == size - 1, "the star's centre: %d in, %d out", in, out);
        int *d = malloc(sizeof(int) * (size_t)size), *dw = malloc(sizeof(int) * (size_t)size);
        MPI_Dist_graph_neighbors(g, 0, NULL, MPI_WEIGHTS_EMPTY, size - 1, d, dw);
        for (int i = 1; i < size; ++i) {
            CHECK(d[i - 1] == i && dw[i - 1] == 100 + i, "edge to %d: %d (weight %d)", i, d[i - 1], dw[i - 1]);
        }
        free(d);
        free(dw);
    } else {
        int s = -1, sw = -1;
        CHECK(in == 1 && out == 0, "a leaf of the star: %d in, %d out", in, out);
        MPI_Dist_graph_neighbors(g, 1, &s, &sw, 0, NULL, MPI_WEIGHTS_EMPTY);
        CHECK(s == 0 && sw == 100 + rank, "a leaf's edge from %d (weight %d)", s, sw);
    }
    MPI_Comm_free(&g);
    free(dest);
    free(weights);
}

/* Each rank names its own out-edge r -> r+1: everyone learns its in-edge from r-1. */
static void check_ring(void)
{
    MPI_Comm g;
    const int source = rank, degree = 1, dest = (rank + 1) % size;
    CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &source, &degree, &dest, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g) ==
              MPI_SUCCESS,
          "MPI_Dist_graph_create (a ring)");
    int in = -1, out = -1, w = -1, s = -1, d = -1;
    MPI_Dist_graph_neighbors_count(g, &in, &out, &w);
    CHECK(in == 1 && out == 1 && w == 0, "the ring: %d in, %d out, weighted %d", in, out, w);
    MPI_Dist_graph_neighbors(g, 1, &s, MPI_UNWEIGHTED, 1, &d, MPI_UNWEIGHTED);
    CHECK(s == (rank + size - 1) % size && d == (rank + 1) % size, "the ring's edges: from %d, to %d", s, d);
    MPI_Comm_free(&g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    check_graph(size);
    if (size > 1) {
        check_graph(size - 1);
    }
    check_adjacent(1);
    check_adjacent(0);
    check_star();
    check_ring();

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("topo_graph: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
