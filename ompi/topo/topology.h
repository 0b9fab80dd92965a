/*
 * Virtual topologies (MPI-4.1 chapter 8): what MPI_Cart_create, MPI_Graph_create and
 * MPI_Dist_graph_create(_adjacent) attach to the communicator they make, the queries' arithmetic, and
 * the neighbour lists the neighbourhood collectives follow. Pure functions of the description, apart
 * from any communicator, so that they can be tested alone.
 *
 * Reordering is allowed but never done: rank i of the new communicator is rank i of the old one.
 */
#ifndef TESSERA_OMPI_TOPO_TOPOLOGY_H
#define TESSERA_OMPI_TOPO_TOPOLOGY_H

#include <string>
#include <vector>

#include <mpi.h>

namespace tessera::ompi {

struct Topology {
    int kind = MPI_CART; /* MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH (MPI_Topo_test's answer) */

    /* MPI_CART: the grid, row-major (the last dimension varies fastest between consecutive ranks). */
    std::vector<int> dims;
    std::vector<bool> periods;

    /* MPI_GRAPH: the whole graph as MPI_Graph_create takes it (index[i] = edges of nodes 0..i). */
    std::vector<int> index;
    std::vector<int> edges;

    /* MPI_DIST_GRAPH: this process's own edges, in the order MPI_Dist_graph_neighbors gives them. */
    std::vector<int> sources;
    std::vector<int> source_weights;
    std::vector<int> destinations;
    std::vector<int> destination_weights;
    bool weighted = false;

    int nodes() const; /* ranks the topology spans (Cartesian: the product of dims) */
};

/* Cartesian arithmetic. coords_of: the coordinates of a rank (< nodes()). rank_of: the rank at
 * coordinates, periodic dimensions wrapped; -1 when a coordinate of a non-periodic dimension is out of
 * range. shifted: the rank `disp` steps along `dim` from `rank`, MPI_PROC_NULL off a non-periodic edge. */
std::vector<int> cart_coords_of(const Topology &t, int rank);
int cart_rank_of(const Topology &t, std::vector<int> coords);
int cart_shifted(const Topology &t, int rank, int dim, int disp);

/* MPI_Graph_create's nodes' neighbours: edges[index[rank-1] .. index[rank]). */
std::vector<int> graph_neighbors(const Topology &t, int rank);

/* How many blocks a neighbourhood collective of `rank` receives (sources) and sends (destinations). */
int indegree(const Topology &t, int rank);
int outdegree(const Topology &t, int rank);

/*
 * The neighbourhood of `rank` for the neighbourhood collectives (MPI-4.1 8.6): receive-buffer block i
 * comes from sources[i], send-buffer block j goes to destinations[j]; MPI_PROC_NULL entries (a
 * non-periodic edge) move nothing and leave their block alone.
 *
 * Cartesian: for each dimension the -1 then the +1 neighbour, on both sides. The block a process sends
 * towards +1 must land in the receiver's -1 block even when both neighbours are the same process (a
 * periodic dimension of size 1 or 2): messages between two processes match in the order they were sent,
 * so within each dimension the +1 block is sent first, then the -1 block (send_order), while the
 * receives are posted -1 first.
 */
struct Neighborhood {
    std::vector<int> sources;
    std::vector<int> destinations;
    std::vector<int> send_order; /* indices into destinations, in the order the sends are started */
};
Neighborhood neighborhood(const Topology &t, int rank);

/* MPI_Dims_create's choice (MPI-4.1 8.5.2): dims[i] > 0 are kept; the zeros become a factorization of
 * nnodes / (their product), as close to each other as possible, in non-increasing order. "" or what is
 * wrong (a negative entry, nnodes not divisible by the fixed entries...). */
std::string dims_create(int nnodes, std::vector<int> &dims);

} // namespace tessera::ompi

#endif
