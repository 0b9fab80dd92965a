#include "ompi/topo/topology.h"

#include <numeric>

namespace tessera::ompi {

int Topology::nodes() const
{
    switch (kind) {
    case MPI_CART:
        return std::accumulate(dims.begin(), dims.end(), 1, [](int a, int b) { return a * b; });
    case MPI_GRAPH:
        return static_cast<int>(index.size());
    default:
        return 0;
    }
}

std::vector<int> cart_coords_of(const Topology &t, int rank)
{
    std::vector<int> coords(t.dims.size());
    for (std::size_t d = t.dims.size(); d-- > 0;) {
        coords[d] = rank % t.dims[d];
        rank /= t.dims[d];
    }
    return coords;
}

int cart_rank_of(const Topology &t, std::vector<int> coords)
{
    int rank = 0;
    for (std::size_t d = 0; d < t.dims.size(); ++d) {
        const int n = t.dims[d];
        int c = coords[d];
        if (t.periods[d]) {
            c = ((c % n) + n) % n;
        } else if (c < 0 || c >= n) {
            return -1;
        }
        rank = rank * n + c;
    }
    return rank;
}

int cart_shifted(const Topology &t, int rank, int dim, int disp)
{
    std::vector<int> coords = cart_coords_of(t, rank);
    const auto d = static_cast<std::size_t>(dim);
    /* Far shifts in a periodic dimension wrap without overflowing. */
    coords[d] += t.periods[d] ? disp % t.dims[d] : (disp < -t.dims[d] || disp > t.dims[d] ? t.dims[d] : disp);
    const int r = cart_rank_of(t, coords);
    return r < 0 ? MPI_PROC_NULL : r;
}

std::vector<int> graph_neighbors(const Topology &t, int rank)
{
    const auto r = static_cast<std::size_t>(rank);
    const int begin = r == 0 ? 0 : t.index[r - 1];
    return {t.edges.begin() + begin, t.edges.begin() + t.index[r]};
}

int indegree(const Topology &t, int rank)
{
    switch (t.kind) {
    case MPI_CART:
        return static_cast<int>(2 * t.dims.size());
    case MPI_GRAPH: {
        const auto r = static_cast<std::size_t>(rank);
        return t.index[r] - (r == 0 ? 0 : t.index[r - 1]);
    }
    default:
        return static_cast<int>(t.sources.size());
    }
}

int outdegree(const Topology &t, int rank)
{
    return t.kind == MPI_DIST_GRAPH ? static_cast<int>(t.destinations.size()) : indegree(t, rank);
}

Neighborhood neighborhood(const Topology &t, int rank)
{
    Neighborhood n;
    switch (t.kind) {
    case MPI_CART:
        for (std::size_t d = 0; d < t.dims.size(); ++d) {
            for (int disp : {-1, 1}) {
                n.sources.push_back(cart_shifted(t, rank, static_cast<int>(d), disp));
            }
            n.send_order.push_back(static_cast<int>(2 * d + 1));
            n.send_order.push_back(static_cast<int>(2 * d));
        }
        n.destinations = n.sources;
        return n;
    case MPI_GRAPH:
        n.sources = graph_neighbors(t, rank);
        n.destinations = n.sources;
        break;
    default:
        n.sources = t.sources;
        n.destinations = t.destinations;
        break;
    }
    n.send_order.resize(n.destinations.size());
    std::iota(n.send_order.begin(), n.send_order.end(), 0);
    return n;
}

} // namespace tessera::ompi
