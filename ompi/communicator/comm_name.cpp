/* MPI_Comm_set_name and MPI_Comm_get_name (MPI-4.1 7.8): a name longer than MPI_MAX_OBJECT_NAME - 1
 * characters is truncated. */
#include <cstring>

#include "ompi/communicator/comm_checks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/string_out.h"

namespace tessera::ompi::native {

int comm_set_name(MPI_Comm comm, const char *comm_name)
{
    int rc = MPI_SUCCESS;
    Communicator *c = comm_settable_argument("MPI_Comm_set_name", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    if (comm_name == nullptr) {
        return raise_on_comm(comm, MPI_ERR_ARG, "MPI_Comm_set_name", "the name is NULL");
    }
    c->name.assign(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
    return MPI_SUCCESS;
}

int comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    if (comm == MPI_COMM_NULL) { /* MPI-4.1 7.8: the null handle has a name too */
        copy_string_out("MPI_COMM_NULL", comm_name, MPI_MAX_OBJECT_NAME, resultlen);
        return MPI_SUCCESS;
    }
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_settable_argument("MPI_Comm_get_name", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    copy_string_out(c->name, comm_name, MPI_MAX_OBJECT_NAME, resultlen);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
