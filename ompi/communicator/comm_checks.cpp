#include "ompi/communicator/comm_checks.h"

#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi {

namespace {

Communicator *lookup_argument(const char *function, MPI_Comm comm, int *rc, const char *name, MPI_Comm raise_on,
                              Communicator *(*lookup)(MPI_Comm))
{
    if (raise_on == MPI_COMM_NULL) {
        raise_on = comm;
    }
    *rc = require_initialized(raise_on, function);
    if (*rc != MPI_SUCCESS) {
        return nullptr;
    }
    Communicator *c = lookup(comm);
    if (c == nullptr) {
        *rc = raise_on_comm(raise_on, MPI_ERR_COMM, function,
                            std::string("invalid communicator in argument '") + name + "'");
    }
    return c;
}

} // namespace

Communicator *comm_argument(const char *function, MPI_Comm comm, int *rc, const char *name, MPI_Comm raise_on)
{
    return lookup_argument(function, comm, rc, name, raise_on, comm_lookup);
}

Communicator *comm_settable_argument(const char *function, MPI_Comm comm, int *rc)
{
    return lookup_argument(function, comm, rc, "comm", MPI_COMM_NULL, comm_lookup_settable);
}

int hints_argument(const char *function, MPI_Comm comm, MPI_Info info, InfoEntries *out)
{
    out->clear();
    if (info == MPI_INFO_NULL) {
        return MPI_SUCCESS;
    }
    const Info *i = info_lookup(info);
    if (i == nullptr) {
        return raise_on_comm(comm, MPI_ERR_INFO, function, "invalid info object in argument 'info'");
    }
    *out = i->entries;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi
