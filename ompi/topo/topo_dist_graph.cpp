/*
 * Distributed graph topologies (MPI-4.1 8.5.4, 8.5.5). Each process keeps only its own edges.
 *
 * MPI_Dist_graph_create_adjacent takes them as given. MPI_Dist_graph_create takes any edges from any
 * process: every edge (s -> d, w) goes to s as one of its destinations and to d as one of its sources,
 * through an all-to-all exchange on comm_old's own collectives. A process's lists are ordered by the
 * rank that named the edge, then by the order that rank gave them in: MPI_Dist_graph_neighbors and the
 * neighbourhood collectives follow that order.
 */
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/coll/base/base.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/communicator/comm_checks.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/topo/topo_checks.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

namespace {

/* Every entry a rank of a communicator of `size` processes. */
int check_ranks(const char *function, MPI_Comm comm, const int *ranks, int n, const char *arg, int size)
{
    for (int i = 0; i < n; ++i) {
        if (ranks[i] < 0 || ranks[i] >= size) {
            return raise_on_comm(comm, MPI_ERR_RANK, function,
                                 std::string(arg) + "[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                                     " is not a rank of comm_old (size " + std::to_string(size) + ")");
        }
    }
    return MPI_SUCCESS;
}

/* Weights are non-negative; MPI_WEIGHTS_EMPTY stands for an empty list only. */
int check_weights(const char *function, MPI_Comm comm, const int *weights, int n, const char *arg)
{
    if (weights == MPI_UNWEIGHTED || n == 0) {
        return MPI_SUCCESS;
    }
    if (weights == MPI_WEIGHTS_EMPTY) {
        return raise_on_comm(comm, MPI_ERR_ARG, function,
                             std::string(arg) + " is MPI_WEIGHTS_EMPTY for a list of " + std::to_string(n) + " edges");
    }
    if (weights == nullptr) {
        return raise_on_comm(comm, MPI_ERR_ARG, function, std::string("argument '") + arg + "' is NULL");
    }
    for (int i = 0; i < n; ++i) {
        if (weights[i] < 0) {
            return raise_on_comm(comm, MPI_ERR_ARG, function,
                                 std::string(arg) + "[" + std::to_string(i) + "] = " + std::to_string(weights[i]) +
                                     " is negative");
        }
    }
    return MPI_SUCCESS;
}

/* Each process's share of the edges named anywhere: (kind, peer, weight) triples sent to the processes
 * the edges touch, received in rank order. kind 1: an edge out of the receiver, 0: into it. */
int route_edges(Communicator *c, const std::vector<std::vector<int>> &outgoing, std::vector<int> *incoming)
{
    const auto n = static_cast<std::size_t>(c->size);
    mca_coll_base_comm_coll_t *t = c->coll;
    if (t->coll_alltoall == nullptr || t->coll_alltoallv == nullptr) {
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    const Datatype *ints = datatype_lookup(MPI_INT);
    std::vector<int> send_counts(n), recv_counts(n);
    for (std::size_t r = 0; r < n; ++r) {
        send_counts[r] = static_cast<int>(outgoing[r].size());
    }
    int rc = t->coll_alltoall(send_counts.data(), 1, coll::to_c(ints), recv_counts.data(), 1, coll::to_c(ints),
                              coll::to_c(c), t->coll_alltoall_module);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    std::vector<int> sendbuf;
    std::vector<std::size_t> scounts(n), rcounts(n);
    std::vector<std::ptrdiff_t> sdispls(n), rdispls(n);
    std::size_t received = 0;
    for (std::size_t r = 0; r < n; ++r) {
        sdispls[r] = static_cast<std::ptrdiff_t>(sendbuf.size());
        scounts[r] = outgoing[r].size();
        sendbuf.insert(sendbuf.end(), outgoing[r].begin(), outgoing[r].end());
        rdispls[r] = static_cast<std::ptrdiff_t>(received);
        rcounts[r] = static_cast<std::size_t>(recv_counts[r]);
        received += rcounts[r];
    }
    incoming->assign(received, 0);
    return t->coll_alltoallv(sendbuf.data(), scounts.data(), sdispls.data(), coll::to_c(ints), incoming->data(),
                             rcounts.data(), rdispls.data(), coll::to_c(ints), coll::to_c(c), t->coll_alltoallv_module);
}

} // namespace

int dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                               int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                               int, MPI_Comm *comm_dist_graph)
{
    constexpr const char *kFunction = "MPI_Dist_graph_create_adjacent";
    int rc = MPI_SUCCESS;
    Communicator *base = topo::base_of(kFunction, comm_old, &rc);
    InfoEntries entries;
    if (base == nullptr || (rc = check_ranks(kFunction, comm_old, sources, indegree, "sources", base->size)) ||
        (rc = check_ranks(kFunction, comm_old, destinations, outdegree, "destinations", base->size)) ||
        (rc = check_weights(kFunction, comm_old, sourceweights, indegree, "sourceweights")) ||
        (rc = check_weights(kFunction, comm_old, destweights, outdegree, "destweights")) ||
        (rc = hints_argument(kFunction, comm_old, info, &entries))) {
        return rc;
    }
    auto t = std::make_shared<Topology>();
    t->kind = MPI_DIST_GRAPH;
    t->weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    t->sources.assign(sources, sources + indegree);
    t->destinations.assign(destinations, destinations + outdegree);
    if (t->weighted) {
        if (indegree > 0) {
            t->source_weights.assign(sourceweights, sourceweights + indegree);
        }
        if (outdegree > 0) {
            t->destination_weights.assign(destweights, destweights + outdegree);
        }
    }
    return topo::make(kFunction, comm_old, base, base->size, std::move(t), std::move(entries), comm_dist_graph);
}

int dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                      const int weights[], MPI_Info info, int, MPI_Comm *comm_dist_graph)
{
    constexpr const char *kFunction = "MPI_Dist_graph_create";
    int rc = MPI_SUCCESS;
    Communicator *base = topo::base_of(kFunction, comm_old, &rc);
    InfoEntries entries;
    if (base == nullptr || (rc = check_ranks(kFunction, comm_old, sources, n, "sources", base->size)) ||
        (rc = hints_argument(kFunction, comm_old, info, &entries))) {
        return rc;
    }
    int edges = 0;
    for (int i = 0; i < n; ++i) {
        if (degrees[i] < 0) {
            return raise_on_comm(comm_old, MPI_ERR_ARG, kFunction,
                                 "degrees[" + std::to_string(i) + "] = " + std::to_string(degrees[i]) + " is negative");
        }
        edges += degrees[i];
    }
    if ((rc = check_ranks(kFunction, comm_old, destinations, edges, "destinations", base->size)) ||
        (rc = check_weights(kFunction, comm_old, weights, edges, "weights"))) {
        return rc;
    }
    const bool weighted = weights != MPI_UNWEIGHTED;
    std::vector<std::vector<int>> outgoing(static_cast<std::size_t>(base->size));
    for (int i = 0, e = 0; i < n; ++i) {
        for (int k = 0; k < degrees[i]; ++k, ++e) {
            const int s = sources[i], d = destinations[e], w = weighted && edges > 0 ? weights[e] : 0;
            outgoing[static_cast<std::size_t>(s)].insert(outgoing[static_cast<std::size_t>(s)].end(), {1, d, w});
            outgoing[static_cast<std::size_t>(d)].insert(outgoing[static_cast<std::size_t>(d)].end(), {0, s, w});
        }
    }
    std::vector<int> incoming;
    if ((rc = route_edges(base, outgoing, &incoming)) != MPI_SUCCESS) {
        return raise_on_comm(comm_old, rc, kFunction, "exchanging the edges between the processes failed");
    }
    auto t = std::make_shared<Topology>();
    t->kind = MPI_DIST_GRAPH;
    t->weighted = weighted;
    for (std::size_t i = 0; i + 2 < incoming.size(); i += 3) {
        const bool out = incoming[i] == 1;
        (out ? t->destinations : t->sources).push_back(incoming[i + 1]);
        if (weighted) {
            (out ? t->destination_weights : t->source_weights).push_back(incoming[i + 2]);
        }
    }
    return topo::make(kFunction, comm_old, base, base->size, std::move(t), std::move(entries), comm_dist_graph);
}

int dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of("MPI_Dist_graph_neighbors_count", comm, MPI_DIST_GRAPH, &rc);
    if (t == nullptr) {
        return rc;
    }
    *indegree = static_cast<int>(t->sources.size());
    *outdegree = static_cast<int>(t->destinations.size());
    *weighted = t->weighted ? 1 : 0;
    return MPI_SUCCESS;
}

/* As much of each list as the caller's room allows; the weights only where asked for. */
int dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                         int destinations[], int destweights[])
{
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of("MPI_Dist_graph_neighbors", comm, MPI_DIST_GRAPH, &rc);
    if (t == nullptr) {
        return rc;
    }
    const auto copy = [](const std::vector<int> &from, int room, int *to) {
        if (to != nullptr && to != MPI_UNWEIGHTED && to != MPI_WEIGHTS_EMPTY) {
            std::copy_n(from.begin(), std::min<std::size_t>(static_cast<std::size_t>(room), from.size()), to);
        }
    };
    copy(t->sources, maxindegree, sources);
    copy(t->destinations, maxoutdegree, destinations);
    if (t->weighted) {
        copy(t->source_weights, maxindegree, sourceweights);
        copy(t->destination_weights, maxoutdegree, destweights);
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
