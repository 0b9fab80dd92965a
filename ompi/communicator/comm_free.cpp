/*
 * MPI_Comm_free (MPI-4.1 7.4.3): the attributes' delete callbacks run first (an error among them keeps
 * the communicator), then the handle becomes MPI_COMM_NULL and invalid. The communicator itself — its
 * context id, matching state and collectives — goes once no request holds it any more: operations
 * pending on it complete normally.
 *
 * MPI_Comm_disconnect (MPI-4.1 11.10.4): the same, collectively. Every process of a Tessera job belongs
 * to one world, so there is no connection to break: a barrier makes every process of the communicator
 * reach the call (their earlier operations on it are then posted), and the free lets those complete.
 */
#include "ompi/attribute/attribute.h"
#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_handoff.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::native {

namespace {

int release(const char *function, MPI_Comm *comm, bool collective)
{
    if (comm == nullptr) {
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_ARG, function, "argument 'comm' is NULL");
    }
    int rc = MPI_SUCCESS;
    Communicator *c = comm_argument(function, *comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    if (c->predefined) {
        return raise_on_comm(*comm, MPI_ERR_COMM, function, comm_label(*c) + " is predefined and cannot be freed");
    }
    if (collective && (rc = barrier(*comm)) != MPI_SUCCESS) {
        return rc;
    }
    std::string error;
    if ((rc = attr_delete_all(AttrKind::Comm, *comm, &error)) != MPI_SUCCESS) {
        return raise_on_comm(*comm, rc, function, "an attribute's delete callback failed: " + error);
    }
    handle_close(c);
    comm_handoff_drop();
    *comm = MPI_COMM_NULL;
    comm_release(c);
    comm_reap();
    return MPI_SUCCESS;
}

} // namespace

int comm_free(MPI_Comm *comm)
{
    return release("MPI_Comm_free", comm, false);
}

int comm_disconnect(MPI_Comm *comm)
{
    return release("MPI_Comm_disconnect", comm, true);
}

} // namespace tessera::ompi::native
