/* MPI_Comm_rank and MPI_Comm_size (MPI-4.1 7.4.1). The bindings have checked the handle and the
 * output pointer. */
#include "ompi/communicator/comm_checks.h"
#include "ompi/runtime/native_functions.h"

namespace tessera::ompi::native {

int comm_rank(MPI_Comm comm, int *rank)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_argument("MPI_Comm_rank", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *rank = c->rank;
    return MPI_SUCCESS;
}

int comm_size(MPI_Comm comm, int *size)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_argument("MPI_Comm_size", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *size = c->size;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
