/* Graph topologies (MPI-4.1 8.5.3, 8.5.5, 8.5.8) and MPI_Topo_test (8.5.5). Every process keeps the
 * whole graph, as MPI_Graph_get must give it back. */
#include <algorithm>
#include <memory>
#include <string>

#include "ompi/communicator/comm_checks.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/topo/topo_checks.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

namespace {

/* MPI_Graph_create's arrays as a topology: MPI_SUCCESS, or the error class with *problem. */
int graph(int nnodes, const int indx[], const int edges[], int limit, Topology *t, std::string *problem)
{
    t->kind = MPI_GRAPH;
    if (nnodes > limit) {
        *problem = "nnodes is " + std::to_string(nnodes) + ", more than the " + std::to_string(limit) +
                   " processes of the communicator";
        return MPI_ERR_ARG;
    }
    int previous = 0;
    for (int i = 0; i < nnodes; ++i) {
        if (indx[i] < previous) {
            *problem = "indx[" + std::to_string(i) + "] = " + std::to_string(indx[i]) +
                       " is below the entry before it: indx holds running totals of degrees";
            return MPI_ERR_ARG;
        }
        previous = indx[i];
    }
    const int nedges = nnodes > 0 ? indx[nnodes - 1] : 0;
    for (int e = 0; e < nedges; ++e) {
        if (edges[e] < 0 || edges[e] >= nnodes) {
            *problem = "edges[" + std::to_string(e) + "] = " + std::to_string(edges[e]) + " is not a node (0.." +
                       std::to_string(nnodes - 1) + ")";
            return MPI_ERR_RANK;
        }
    }
    t->index.assign(indx, indx + nnodes);
    t->edges.assign(edges, edges + nedges);
    return MPI_SUCCESS;
}

/* A node of the graph (argument `rank`). */
int check_node(const char *function, MPI_Comm comm, const Topology &t, int rank)
{
    if (rank < 0 || rank >= t.nodes()) {
        return raise_on_comm(comm, MPI_ERR_RANK, function,
                             "rank " + std::to_string(rank) + " is not a node of the graph (0.." +
                                 std::to_string(t.nodes() - 1) + ")");
    }
    return MPI_SUCCESS;
}

} // namespace

int graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[], int, MPI_Comm *comm_graph)
{
    constexpr const char *kFunction = "MPI_Graph_create";
    int rc = MPI_SUCCESS;
    Communicator *base = topo::base_of(kFunction, comm_old, &rc);
    if (base == nullptr) {
        return rc;
    }
    auto t = std::make_shared<Topology>();
    std::string problem;
    if ((rc = graph(nnodes, indx, edges, base->size, t.get(), &problem)) != MPI_SUCCESS) {
        return raise_on_comm(comm_old, rc, kFunction, problem);
    }
    return topo::make(kFunction, comm_old, base, nnodes, std::move(t), {}, comm_graph);
}

int graph_map(MPI_Comm comm, int nnodes, const int indx[], const int edges[], int *newrank)
{
    constexpr const char *kFunction = "MPI_Graph_map";
    int rc = MPI_SUCCESS;
    Communicator *base = topo::base_of(kFunction, comm, &rc);
    if (base == nullptr) {
        return rc;
    }
    Topology t;
    std::string problem;
    if ((rc = graph(nnodes, indx, edges, base->size, &t, &problem)) != MPI_SUCCESS) {
        return raise_on_comm(comm, rc, kFunction, problem);
    }
    *newrank = base->rank < nnodes ? base->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of("MPI_Graphdims_get", comm, MPI_GRAPH, &rc);
    if (t == nullptr) {
        return rc;
    }
    *nnodes = t->nodes();
    *nedges = static_cast<int>(t->edges.size());
    return MPI_SUCCESS;
}

/* As much of each array as the caller's room allows (maxindex, maxedges), as MPICH and Open MPI do. */
int graph_get(MPI_Comm comm, int maxindex, int maxedges, int indx[], int edges[])
{
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of("MPI_Graph_get", comm, MPI_GRAPH, &rc);
    if (t == nullptr) {
        return rc;
    }
    std::copy_n(t->index.begin(), std::min<std::size_t>(static_cast<std::size_t>(maxindex), t->index.size()), indx);
    std::copy_n(t->edges.begin(), std::min<std::size_t>(static_cast<std::size_t>(maxedges), t->edges.size()), edges);
    return MPI_SUCCESS;
}

int graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    constexpr const char *kFunction = "MPI_Graph_neighbors_count";
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of(kFunction, comm, MPI_GRAPH, &rc);
    if (t == nullptr || (rc = check_node(kFunction, comm, *t, rank)) != MPI_SUCCESS) {
        return rc;
    }
    *nneighbors = static_cast<int>(tessera::ompi::graph_neighbors(*t, rank).size());
    return MPI_SUCCESS;
}

int graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    constexpr const char *kFunction = "MPI_Graph_neighbors";
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of(kFunction, comm, MPI_GRAPH, &rc);
    if (t == nullptr || (rc = check_node(kFunction, comm, *t, rank)) != MPI_SUCCESS) {
        return rc;
    }
    const std::vector<int> n = tessera::ompi::graph_neighbors(*t, rank);
    std::copy_n(n.begin(), std::min<std::size_t>(static_cast<std::size_t>(maxneighbors), n.size()), neighbors);
    return MPI_SUCCESS;
}

int topo_test(MPI_Comm comm, int *status)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_argument("MPI_Topo_test", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *status = c->topo != nullptr ? c->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
