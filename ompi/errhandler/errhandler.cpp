#include "ompi/errhandler/errhandler.h"

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/error_classes.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi {

namespace {

struct Target {
    MPI_Errhandler handler;
    std::string on; /* "MPI_COMM_WORLD", for the message */
};

Target world_target()
{
    return {comm_world().errhandler, comm_world().name};
}

Target find_target(ObjectKind kind, const void *object)
{
    switch (kind) {
    case ObjectKind::Comm:
        if (const Communicator *c = comm_lookup(static_cast<MPI_Comm>(const_cast<void *>(object)))) {
            return {c->errhandler, c->name};
        }
        /* The call named no valid communicator, so it has none of its own to raise on. */
        return world_target();
    case ObjectKind::File:
        /* MPI-4.1 14.7: files start with MPI_ERRORS_RETURN, MPI_FILE_NULL's handler. No file exists
         * and MPI_File_set_errhandler is not implemented yet, so that is always the one. */
        return {MPI_ERRORS_RETURN, "MPI_FILE_NULL"};
    case ObjectKind::Errhandler: {
        MPI_Errhandler h = static_cast<MPI_Errhandler>(const_cast<void *>(object));
        if (errhandler_valid(h)) {
            return {h, "the error handler passed to the call"};
        }
        return world_target();
    }
    case ObjectKind::Win:
    case ObjectKind::Session:
    case ObjectKind::Request:
    case ObjectKind::Message:
    case ObjectKind::None:
        break;
    }
    return world_target();
}

} // namespace

bool errhandler_valid(MPI_Errhandler h)
{
    return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT;
}

const char *errhandler_name(MPI_Errhandler h)
{
    if (h == MPI_ERRORS_ARE_FATAL) {
        return "MPI_ERRORS_ARE_FATAL";
    }
    if (h == MPI_ERRORS_RETURN) {
        return "MPI_ERRORS_RETURN";
    }
    if (h == MPI_ERRORS_ABORT) {
        return "MPI_ERRORS_ABORT";
    }
    if (h == MPI_ERRHANDLER_NULL) {
        return "MPI_ERRHANDLER_NULL";
    }
    return "an unknown error handler";
}

int raise_error(ObjectKind kind, const void *object, int code, const char *function, const std::string &detail)
{
    if (kind == ObjectKind::None) {
        return code;
    }
    const Target t = find_target(kind, object);
    if (t.handler == MPI_ERRORS_RETURN) {
        return code;
    }
    /* MPI_ERRORS_ARE_FATAL and MPI_ERRORS_ABORT: both end the job here. The standard lets
     * MPI_ERRORS_ABORT end only the communicator's processes; with no way yet to end part of a job,
     * Tessera ends all of it, as MPI_Abort may. The exit status is the error class. */
    const std::string what = std::string(function) + ": " + error_name(code) + ": " + detail +
                             "; the error handler " + errhandler_name(t.handler) + " of " + t.on + " ends the job";
    abort_job(code, what, process_label() + ": " + what + " (exit status " + std::to_string(code) + ")");
}

int raise_on_comm(MPI_Comm comm, int code, const char *function, const std::string &detail)
{
    return raise_error(ObjectKind::Comm, comm, code, function, detail);
}

} // namespace tessera::ompi
