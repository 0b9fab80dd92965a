#include "ompi/topo/topo_checks.h"

#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::topo {

namespace {

const char *kind_name(int kind)
{
    switch (kind) {
    case MPI_CART:
        return "a Cartesian topology";
    case MPI_GRAPH:
        return "a graph topology";
    default:
        return "a distributed graph topology";
    }
}

} // namespace

const Topology *topology_of(const char *function, MPI_Comm comm, int kind, int *rc, Communicator **out)
{
    Communicator *c = comm_argument(function, comm, rc);
    if (c == nullptr) {
        return nullptr;
    }
    if (c->topo == nullptr || c->topo->kind != kind) {
        *rc = raise_on_comm(comm, MPI_ERR_TOPOLOGY, function,
                            comm_label(*c) + " has " + (c->topo == nullptr ? "no topology" : kind_name(c->topo->kind)) +
                                ", not " + kind_name(kind));
        return nullptr;
    }
    if (out != nullptr) {
        *out = c;
    }
    return c->topo.get();
}

Communicator *base_of(const char *function, MPI_Comm comm_old, int *rc)
{
    Communicator *c = comm_argument(function, comm_old, rc, "comm_old");
    if (c != nullptr && c->is_inter()) {
        *rc = raise_on_comm(comm_old, MPI_ERR_COMM, function,
                            comm_label(*c) + " is an intercommunicator: topologies are for intracommunicators");
        return nullptr;
    }
    return c;
}

int make(const char *function, MPI_Comm comm_old, Communicator *base, int nodes, std::shared_ptr<const Topology> topo,
         InfoEntries info, MPI_Comm *out)
{
    Communicator *c = nullptr;
    std::string error;
    const comm::SplitColor my{base->rank < nodes ? 0 : MPI_UNDEFINED, 0, base->rank};
    const int rc = comm::split(base, my, std::move(info), std::move(topo), &c, &error);
    *out = c != nullptr ? comm_handle(c) : MPI_COMM_NULL;
    return rc == MPI_SUCCESS ? rc : raise_on_comm(comm_old, rc, function, error);
}

} // namespace tessera::ompi::topo
