/* MPI_Comm_rank and MPI_Comm_size (MPI-4.1 7.4.1), MPI_Comm_get_parent (11.8.2). The bindings have
 * checked the handles and the output pointers. */
#include "ompi/communicator/comm_checks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/runtime.h"

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

/* Tessera starts processes only through mpirun (MPI_Comm_spawn is not implemented), so no process has
 * a parent: MPI_COMM_NULL, as the standard says for a process not started by MPI_Comm_spawn. */
int comm_get_parent(MPI_Comm *parent)
{
    if (const int rc = require_initialized(MPI_COMM_SELF, "MPI_Comm_get_parent"); rc != MPI_SUCCESS) {
        return rc;
    }
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
