/* Error handlers on communicators (MPI-4.1 9.3.1, 9.3.4, 9.3.5). The bindings have checked the
 * communicator and error handler handles. */
#include "ompi/communicator/comm_checks.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/error_classes.h"

namespace tessera::ompi::native {

int comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler)
{
    if (comm_errhandler_fn == nullptr) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Comm_create_errhandler", "the function is NULL");
    }
    *errhandler = errhandler_create(ObjectKind::Comm, reinterpret_cast<void (*)()>(comm_errhandler_fn));
    return MPI_SUCCESS;
}

int comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    int rc = MPI_SUCCESS;
    Communicator *c = comm_settable_argument("MPI_Comm_set_errhandler", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    if (std::string why = errhandler_misfit(errhandler, ObjectKind::Comm); !why.empty()) {
        return raise_on_comm(comm, MPI_ERR_ERRHANDLER, "MPI_Comm_set_errhandler", why);
    }
    errhandler_assign(&c->errhandler, errhandler);
    return MPI_SUCCESS;
}

/* The handle returned is a new reference, which the application frees (MPI-4.1 9.3.4). */
int comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_settable_argument("MPI_Comm_get_errhandler", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *errhandler = errhandler_get(&c->errhandler);
    return MPI_SUCCESS;
}

/* Returns MPI_SUCCESS once the handler has run and returned (MPI-4.1 9.3.5), not errorcode. */
int comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_argument("MPI_Comm_call_errhandler", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    raise_on_comm(comm, errorcode, "MPI_Comm_call_errhandler",
                  "raised by the application on " + c->name);
    return MPI_SUCCESS;
}

/* Drops the handle's reference: objects the handler is set on keep theirs (MPI-4.1 9.3.4). The
 * predefined handlers themselves live on; only the caller's handle becomes MPI_ERRHANDLER_NULL. */
int errhandler_free(MPI_Errhandler *errhandler)
{
    if (errhandler == nullptr || !errhandler_valid(*errhandler)) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ERRHANDLER, "MPI_Errhandler_free",
                             "invalid error handler in argument 'errhandler'");
    }
    errhandler_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
