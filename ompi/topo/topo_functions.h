/* The topology functions of the native engine (MPI-4.1 chapter 8), registered in
 * ompi/runtime/native_dispatch.cpp; the neighbourhood collectives are in neighbor_functions.h. */
#ifndef TESSERA_OMPI_TOPO_TOPO_FUNCTIONS_H
#define TESSERA_OMPI_TOPO_TOPO_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* topo_cart.cpp */
int dims_create(int nnodes, int ndims, int dims[]);
int cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart);
int cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int cart_rank(MPI_Comm comm, const int coords[], int *rank);
int cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest);
int cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
int cartdim_get(MPI_Comm comm, int *ndims);
int cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank);

/* topo_graph.cpp */
int graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[], int reorder, MPI_Comm *comm_graph);
int graph_get(MPI_Comm comm, int maxindex, int maxedges, int indx[], int edges[]);
int graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
int graph_map(MPI_Comm comm, int nnodes, const int indx[], const int edges[], int *newrank);
int topo_test(MPI_Comm comm, int *status);

/* topo_dist_graph.cpp */
int dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                               int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                               int reorder, MPI_Comm *comm_dist_graph);
int dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                      const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph);
int dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted);
int dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                         int destinations[], int destweights[]);

} // namespace tessera::ompi::native

#endif
