/* The communicator facts the generated int-count forms with arrays size their copies by. */
#include "ompi/runtime/int_forms.h"

#include <cstring>

#include "ompi/communicator/communicator.h"
#include "ompi/topo/topology.h"

namespace tessera::ompi::int_forms {

int group_length(MPI_Comm comm)
{
    const Communicator *c = comm_lookup(comm);
    if (c == nullptr) {
        return 0;
    }
    return c->is_inter() ? c->remote_size() : c->size;
}

int local_size(MPI_Comm comm)
{
    const Communicator *c = comm_lookup(comm);
    return c == nullptr ? 0 : c->size;
}

int indegree(MPI_Comm comm)
{
    const Communicator *c = comm_lookup(comm);
    return c == nullptr || c->topo == nullptr ? 0 : ompi::indegree(*c->topo, c->rank);
}

int outdegree(MPI_Comm comm)
{
    const Communicator *c = comm_lookup(comm);
    return c == nullptr || c->topo == nullptr ? 0 : ompi::outdegree(*c->topo, c->rank);
}

bool at_root(MPI_Comm comm, int root)
{
    const Communicator *c = comm_lookup(comm);
    if (c == nullptr) {
        return false;
    }
    return c->is_inter() ? root == MPI_ROOT : c->rank == root;
}

bool running_for_int_form(const char *function)
{
    const char *called = tessera_mpi_int_form;
    if (called == nullptr) {
        return false;
    }
    const std::size_t n = std::strlen(called);
    return std::strncmp(function, called, n) == 0 && std::strcmp(function + n, "_c") == 0;
}

} // namespace tessera::ompi::int_forms
