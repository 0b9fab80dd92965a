/* Cartesian topologies (MPI-4.1 8.5.1-8.5.5, 8.5.7, 8.5.8) and MPI_Dims_create (8.5.2). Ranks are laid
 * out row-major over the grid (topology.h). */
#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/topo/topo_checks.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

namespace {

/* A grid description (dims all positive, their product at most `limit`) as a topology: MPI_SUCCESS,
 * or the error class with *problem saying what is wrong. */
int grid(int ndims, const int dims[], const int periods[], int limit, Topology *t, std::string *problem)
{
    t->kind = MPI_CART;
    long nodes = 1;
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] <= 0) {
            *problem = "dims[" + std::to_string(d) + "] is " + std::to_string(dims[d]) + ": every dimension has a size >= 1";
            return MPI_ERR_DIMS;
        }
        nodes *= dims[d];
        if (nodes > limit) {
            *problem = "the grid needs more processes than the " + std::to_string(limit) + " of the communicator";
            return MPI_ERR_ARG;
        }
        t->dims.push_back(dims[d]);
        t->periods.push_back(periods[d] != 0);
    }
    return MPI_SUCCESS;
}

} // namespace

int dims_create(int nnodes, int ndims, int dims[])
{
    std::vector<int> d(dims, dims + ndims);
    if (const std::string problem = tessera::ompi::dims_create(nnodes, d); !problem.empty()) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_DIMS, "MPI_Dims_create", problem);
    }
    std::copy(d.begin(), d.end(), dims);
    return MPI_SUCCESS;
}

int cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int, MPI_Comm *comm_cart)
{
    constexpr const char *kFunction = "MPI_Cart_create";
    int rc = MPI_SUCCESS;
    Communicator *base = topo::base_of(kFunction, comm_old, &rc);
    if (base == nullptr) {
        return rc;
    }
    auto t = std::make_shared<Topology>();
    std::string problem;
    if ((rc = grid(ndims, dims, periods, base->size, t.get(), &problem)) != MPI_SUCCESS) {
        return raise_on_comm(comm_old, rc, kFunction, problem);
    }
    const int nodes = t->nodes();
    return topo::make(kFunction, comm_old, base, nodes, std::move(t), {}, comm_cart);
}

int cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    constexpr const char *kFunction = "MPI_Cart_map";
    int rc = MPI_SUCCESS;
    Communicator *base = topo::base_of(kFunction, comm, &rc);
    if (base == nullptr) {
        return rc;
    }
    Topology t;
    std::string problem;
    if ((rc = grid(ndims, dims, periods, base->size, &t, &problem)) != MPI_SUCCESS) {
        return raise_on_comm(comm, rc, kFunction, problem);
    }
    *newrank = base->rank < t.nodes() ? base->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int cartdim_get(MPI_Comm comm, int *ndims)
{
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of("MPI_Cartdim_get", comm, MPI_CART, &rc);
    if (t == nullptr) {
        return rc;
    }
    *ndims = static_cast<int>(t->dims.size());
    return MPI_SUCCESS;
}

int cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    constexpr const char *kFunction = "MPI_Cart_get";
    int rc = MPI_SUCCESS;
    Communicator *c = nullptr;
    const Topology *t = topo::topology_of(kFunction, comm, MPI_CART, &rc, &c);
    if (t == nullptr) {
        return rc;
    }
    const auto n = static_cast<int>(t->dims.size());
    if (maxdims < n) {
        return raise_on_comm(comm, MPI_ERR_ARG, kFunction,
                             "maxdims is " + std::to_string(maxdims) + ", the grid has " + std::to_string(n) + " dimensions");
    }
    const std::vector<int> mine = cart_coords_of(*t, c->rank);
    for (std::size_t d = 0; d < t->dims.size(); ++d) {
        dims[d] = t->dims[d];
        periods[d] = t->periods[d] ? 1 : 0;
        coords[d] = mine[d];
    }
    return MPI_SUCCESS;
}

int cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    constexpr const char *kFunction = "MPI_Cart_coords";
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of(kFunction, comm, MPI_CART, &rc);
    if (t == nullptr) {
        return rc;
    }
    if (rank < 0 || rank >= t->nodes()) {
        return raise_on_comm(comm, MPI_ERR_RANK, kFunction,
                             "rank " + std::to_string(rank) + " is not in the grid of " + std::to_string(t->nodes()) +
                                 " processes");
    }
    const auto n = static_cast<int>(t->dims.size());
    if (maxdims < n) {
        return raise_on_comm(comm, MPI_ERR_ARG, kFunction,
                             "maxdims is " + std::to_string(maxdims) + ", the grid has " + std::to_string(n) + " dimensions");
    }
    const std::vector<int> c = cart_coords_of(*t, rank);
    std::copy(c.begin(), c.end(), coords);
    return MPI_SUCCESS;
}

int cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    constexpr const char *kFunction = "MPI_Cart_rank";
    int rc = MPI_SUCCESS;
    const Topology *t = topo::topology_of(kFunction, comm, MPI_CART, &rc);
    if (t == nullptr) {
        return rc;
    }
    std::vector<int> c(coords, coords + t->dims.size());
    *rank = cart_rank_of(*t, c);
    if (*rank < 0) {
        for (std::size_t d = 0; d < c.size(); ++d) {
            if (!t->periods[d] && (c[d] < 0 || c[d] >= t->dims[d])) {
                return raise_on_comm(comm, MPI_ERR_ARG, kFunction,
                                     "coords[" + std::to_string(d) + "] = " + std::to_string(c[d]) + " is outside 0.." +
                                         std::to_string(t->dims[d] - 1) + " of a non-periodic dimension");
            }
        }
    }
    return MPI_SUCCESS;
}

int cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    constexpr const char *kFunction = "MPI_Cart_shift";
    int rc = MPI_SUCCESS;
    Communicator *c = nullptr;
    const Topology *t = topo::topology_of(kFunction, comm, MPI_CART, &rc, &c);
    if (t == nullptr) {
        return rc;
    }
    if (direction < 0 || direction >= static_cast<int>(t->dims.size())) {
        return raise_on_comm(comm, MPI_ERR_ARG, kFunction,
                             "direction " + std::to_string(direction) + " is not a dimension of the grid (0.." +
                                 std::to_string(static_cast<int>(t->dims.size()) - 1) + ")");
    }
    /* -disp of INT_MIN does not exist: a shift that far leaves any grid a Cartesian topology can have. */
    *rank_source = cart_shifted(*t, c->rank, direction, disp == INT_MIN ? INT_MAX : -disp);
    *rank_dest = cart_shifted(*t, c->rank, direction, disp);
    return MPI_SUCCESS;
}

/* The processes that share the coordinates of the dimensions dropped form one communicator, ranked by
 * their coordinates in the dimensions kept (MPI-4.1 8.5.7). */
int cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    constexpr const char *kFunction = "MPI_Cart_sub";
    int rc = MPI_SUCCESS;
    Communicator *c = nullptr;
    const Topology *t = topo::topology_of(kFunction, comm, MPI_CART, &rc, &c);
    if (t == nullptr) {
        return rc;
    }
    const std::vector<int> coords = cart_coords_of(*t, c->rank);
    auto sub = std::make_shared<Topology>();
    int color = 0;
    int key = 0;
    for (std::size_t d = 0; d < t->dims.size(); ++d) {
        if (remain_dims[d] != 0) {
            sub->dims.push_back(t->dims[d]);
            sub->periods.push_back(t->periods[d]);
            key = key * t->dims[d] + coords[d];
        } else {
            color = color * t->dims[d] + coords[d];
        }
    }
    Communicator *out = nullptr;
    std::string error;
    rc = comm::split(c, {color, 0, key}, {}, std::move(sub), &out, &error);
    *newcomm = out != nullptr ? comm_handle(out) : MPI_COMM_NULL;
    return rc == MPI_SUCCESS ? rc : raise_on_comm(comm, rc, kFunction, error);
}

} // namespace tessera::ompi::native
