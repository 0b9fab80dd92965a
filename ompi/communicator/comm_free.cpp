/*
 * MPI_Comm_free (MPI-4.1 7.4.3): the attributes' delete callbacks run first (an error among them keeps
 * the communicator), then the handle becomes MPI_COMM_NULL and invalid. The communicator itself — its
 * context id, matching state and collectives — goes once no request holds it any more: operations
 * pending on it complete normally.
 */
#include "ompi/attribute/attribute.h"
#include "ompi/communicator/comm_checks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::native {

int comm_free(MPI_Comm *comm)
{
    constexpr const char *kFunction = "MPI_Comm_free";
    if (comm == nullptr) {
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_ARG, kFunction, "argument 'comm' is NULL");
    }
    int rc = MPI_SUCCESS;
    Communicator *c = comm_argument(kFunction, *comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    if (c->predefined) {
        return raise_on_comm(*comm, MPI_ERR_COMM, kFunction, comm_label(*c) + " is predefined and cannot be freed");
    }
    std::string error;
    if ((rc = attr_delete_all(AttrKind::Comm, *comm, &error)) != MPI_SUCCESS) {
        return raise_on_comm(*comm, rc, kFunction, "an attribute's delete callback failed: " + error);
    }
    c->mark = 0;
    *comm = MPI_COMM_NULL;
    comm_release(c);
    comm_reap();
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
