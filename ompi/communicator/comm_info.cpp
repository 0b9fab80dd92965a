/* MPI_Comm_set_info and MPI_Comm_get_info (MPI-4.1 7.4.4). No hint changes how Tessera runs a
 * communicator yet, so every hint the application sets is kept and given back: the standard asks
 * get_info for the hints not ignored, and none is. Setting merges: keys absent from `info` keep their
 * values, as MPICH and Open MPI do. */
#include "ompi/communicator/comm_checks.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

int comm_set_info(MPI_Comm comm, MPI_Info info)
{
    int rc = MPI_SUCCESS;
    Communicator *c = comm_argument("MPI_Comm_set_info", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    if (info == MPI_INFO_NULL) {
        return MPI_SUCCESS;
    }
    const Info *i = info_lookup(info);
    if (i == nullptr) {
        return raise_on_comm(comm, MPI_ERR_INFO, "MPI_Comm_set_info", "invalid info object in argument 'info'");
    }
    c->info.merge(i->entries);
    return MPI_SUCCESS;
}

int comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_argument("MPI_Comm_get_info", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *info_used = tessera::ompi::info_create(c->info);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
