/* Error handlers on communicators (MPI-4.1 9.3.1, 9.3.5) for the predefined handlers. The bindings
 * have checked both handles. */
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/errhandler/error_classes.h"
#include "ompi/runtime/native_functions.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::native {

namespace {

Communicator *initialized_comm(MPI_Comm comm, const char *function, int *rc)
{
    *rc = require_initialized(comm, function);
    if (*rc != MPI_SUCCESS) {
        return nullptr;
    }
    Communicator *c = comm_lookup(comm);
    if (c == nullptr) { /* only when called around the bindings */
        *rc = raise_on_comm(comm, MPI_ERR_COMM, function, "invalid communicator in argument 'comm'");
    }
    return c;
}

} // namespace

int comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    int rc = MPI_SUCCESS;
    Communicator *c = initialized_comm(comm, "MPI_Comm_set_errhandler", &rc);
    if (c == nullptr) {
        return rc;
    }
    c->errhandler = errhandler;
    return MPI_SUCCESS;
}

int comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    int rc = MPI_SUCCESS;
    Communicator *c = initialized_comm(comm, "MPI_Comm_get_errhandler", &rc);
    if (c == nullptr) {
        return rc;
    }
    *errhandler = c->errhandler;
    return MPI_SUCCESS;
}

/* Returns MPI_SUCCESS once the handler has run and returned (MPI-4.1 9.3.5), not errorcode. */
int comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    int rc = MPI_SUCCESS;
    Communicator *c = initialized_comm(comm, "MPI_Comm_call_errhandler", &rc);
    if (c == nullptr) {
        return rc;
    }
    raise_on_comm(comm, errorcode, "MPI_Comm_call_errhandler",
                  std::string("the application raised ") + error_name(errorcode) + " on " + c->name);
    return MPI_SUCCESS;
}

/* The handles MPI_Comm_get_errhandler returns may be freed (MPI-4.1 9.3.4); predefined handlers
 * themselves live on, only the caller's handle becomes MPI_ERRHANDLER_NULL. */
int errhandler_free(MPI_Errhandler *errhandler)
{
    if (errhandler == nullptr || !errhandler_valid(*errhandler)) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ERRHANDLER, "MPI_Errhandler_free",
                             "invalid error handler in argument 'errhandler'");
    }
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
