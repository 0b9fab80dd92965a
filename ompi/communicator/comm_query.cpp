/* MPI_Comm_rank and MPI_Comm_size (MPI-4.1 7.4.1). The bindings have checked the handle and the
 * output pointer. */
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_functions.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::native {

int comm_rank(MPI_Comm comm, int *rank)
{
    if (int rc = require_initialized(comm, "MPI_Comm_rank"); rc != MPI_SUCCESS) {
        return rc;
    }
    const Communicator *c = comm_lookup(comm);
    if (c == nullptr) { /* only when called around the bindings */
        return raise_on_comm(comm, MPI_ERR_COMM, "MPI_Comm_rank", "invalid communicator in argument 'comm'");
    }
    *rank = c->rank;
    return MPI_SUCCESS;
}

int comm_size(MPI_Comm comm, int *size)
{
    if (int rc = require_initialized(comm, "MPI_Comm_size"); rc != MPI_SUCCESS) {
        return rc;
    }
    const Communicator *c = comm_lookup(comm);
    if (c == nullptr) { /* only when called around the bindings */
        return raise_on_comm(comm, MPI_ERR_COMM, "MPI_Comm_size", "invalid communicator in argument 'comm'");
    }
    *size = c->size;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
