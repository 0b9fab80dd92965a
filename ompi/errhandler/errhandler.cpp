#include "ompi/errhandler/errhandler.h"

#include <memory>
#include <mutex>
#include <utility>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/error_classes.h"
#include "ompi/runtime/int_forms.h"
#include "ompi/runtime/runtime.h"
#include "ompi/runtime/user_handle.h"
#include "ompi/file/file.h"
#include "ompi/win/window.h"
#include "opal/threads.h"
#include "tessera_mpi_dispatch.h"

namespace tessera::ompi {

namespace {

MPI_Errhandler file_null_handler = MPI_ERRORS_RETURN;

/* Objects' handler slots are read with a reference taken, and replaced, under this lock
 * (errhandler_get). */
opal::Mutex slots_lock;

bool predefined(MPI_Errhandler h)
{
    return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT;
}

Errhandler *user_handler(MPI_Errhandler h)
{
    return user_object<Errhandler>(h);
}

/* The function the application called: an int-count function the engine runs as its MPI_Count form
 * (generated, ompi/api/gen_native.py) raises under the MPI_Count name, "MPI_Send_c" for MPI_Send. */
const char *called_function(const char *function)
{
    return int_forms::running_for_int_form(function) ? tessera_mpi_int_form : function;
}

/* The handler that decides, and the object it is called with. */
struct Target {
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
    std::string on;               /* "MPI_COMM_WORLD", for the message */
    const void *object = nullptr; /* the application's handle, given to a user handler */
};

Target world_target()
{
    return {comm_world().errhandler, comm_world().name, MPI_COMM_WORLD};
}

/* The null handle of each object kind: what a user handler raised without an object receives. */
const void *null_object(ObjectKind kind)
{
    switch (kind) {
    case ObjectKind::Win:
        return MPI_WIN_NULL;
    case ObjectKind::File:
        return MPI_FILE_NULL;
    case ObjectKind::Session:
        return MPI_SESSION_NULL;
    default:
        return MPI_COMM_NULL;
    }
}

Target find_target(ObjectKind kind, const void *object)
{
    switch (kind) {
    case ObjectKind::Comm:
        /* An MPI_Comm_idup's communicator not complete yet has its handler already. */
        if (const Communicator *c = comm_lookup_settable(static_cast<MPI_Comm>(const_cast<void *>(object)))) {
            return {c->errhandler, comm_label(*c), object};
        }
        /* The call named no valid communicator, so it has none of its own to raise on. */
        return world_target();
    case ObjectKind::File:
        if (const File *f = file_lookup(static_cast<MPI_File>(const_cast<void *>(object)))) {
            return {f->errhandler, file_label(*f), object};
        }
        /* MPI_File_open and MPI_File_delete, and calls naming no open file, raise on MPI_FILE_NULL
         * (MPI-4.1 14.7). */
        return {file_null_handler, "MPI_FILE_NULL", MPI_FILE_NULL};
    case ObjectKind::Errhandler: {
        MPI_Errhandler h = static_cast<MPI_Errhandler>(const_cast<void *>(object));
        if (errhandler_valid(h)) {
            const Errhandler *e = user_handler(h);
            return {h, "the error handler passed to the call", null_object(e != nullptr ? e->kind : ObjectKind::Comm)};
        }
        return world_target();
    }
    case ObjectKind::Win:
        if (const Window *w = win_lookup(static_cast<MPI_Win>(const_cast<void *>(object)))) {
            return {w->errhandler, win_label(*w), object};
        }
        return world_target();
    case ObjectKind::Session:
    case ObjectKind::Request:
    case ObjectKind::Message:
    case ObjectKind::Group:
    case ObjectKind::None:
        break;
    }
    return world_target();
}

/* Calls the application's function as the type of its kind (MPI-4.1 9.3.1-9.3.4): the object's handle
 * and the code, both by address. */
void call_user(const Errhandler &e, const void *object, int code)
{
    switch (e.kind) {
    case ObjectKind::Win: {
        MPI_Win w = static_cast<MPI_Win>(const_cast<void *>(object));
        reinterpret_cast<MPI_Win_errhandler_function *>(e.fn)(&w, &code);
        break;
    }
    case ObjectKind::File: {
        MPI_File f = static_cast<MPI_File>(const_cast<void *>(object));
        reinterpret_cast<MPI_File_errhandler_function *>(e.fn)(&f, &code);
        break;
    }
    case ObjectKind::Session: {
        MPI_Session s = static_cast<MPI_Session>(const_cast<void *>(object));
        reinterpret_cast<MPI_Session_errhandler_function *>(e.fn)(&s, &code);
        break;
    }
    default: {
        MPI_Comm c = static_cast<MPI_Comm>(const_cast<void *>(object));
        reinterpret_cast<MPI_Comm_errhandler_function *>(e.fn)(&c, &code);
        break;
    }
    }
}

} // namespace

MPI_Errhandler errhandler_create(ObjectKind kind, void (*fn)())
{
    auto e = std::make_unique<Errhandler>();
    e->kind = kind;
    e->fn = fn;
    return user_handle<MPI_Errhandler>(e.release());
}

bool errhandler_valid(MPI_Errhandler h)
{
    return predefined(h) || user_handler(h) != nullptr;
}

bool errhandler_fits(MPI_Errhandler h, ObjectKind kind)
{
    if (predefined(h)) {
        return true;
    }
    const Errhandler *e = user_handler(h);
    return e != nullptr && e->kind == kind;
}

std::string errhandler_misfit(MPI_Errhandler h, ObjectKind kind)
{
    if (errhandler_fits(h, kind)) {
        return "";
    }
    if (!errhandler_valid(h)) {
        return "invalid error handler in argument 'errhandler'";
    }
    const char *maker = kind == ObjectKind::Win    ? "MPI_Win_create_errhandler"
                        : kind == ObjectKind::File ? "MPI_File_create_errhandler"
                        : kind == ObjectKind::Session ? "MPI_Session_create_errhandler"
                                                      : "MPI_Comm_create_errhandler";
    return std::string("the error handler was made for another kind of object (not by ") + maker + ")";
}

void errhandler_retain(MPI_Errhandler h)
{
    if (Errhandler *e = user_handler(h)) {
        e->refs.fetch_add(1, std::memory_order_relaxed);
    }
}

void errhandler_release(MPI_Errhandler h)
{
    Errhandler *e = user_handler(h);
    if (e != nullptr && e->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        delete e;
    }
}

void errhandler_assign(MPI_Errhandler *slot, MPI_Errhandler h)
{
    errhandler_retain(h);
    MPI_Errhandler old = MPI_ERRHANDLER_NULL;
    {
        const opal::LockGuard guard(slots_lock);
        old = std::exchange(*slot, h);
    }
    errhandler_release(old);
}

MPI_Errhandler errhandler_get(const MPI_Errhandler *slot)
{
    const opal::LockGuard guard(slots_lock);
    errhandler_retain(*slot);
    return *slot;
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
    return user_handler(h) != nullptr ? "a user error handler" : "an unknown error handler";
}

MPI_Errhandler &file_null_errhandler()
{
    return file_null_handler;
}

bool raise_ends_job(ObjectKind kind, const void *object)
{
    if (kind == ObjectKind::None) {
        return false;
    }
    const MPI_Errhandler h = find_target(kind, object).handler;
    return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_ABORT;
}

int raise_error(ObjectKind kind, const void *object, int code, const char *function, const std::string &detail)
{
    if (kind == ObjectKind::None) {
        return code;
    }
    Target t;
    {
        /* Held for the call: the function (or another thread) may set another handler on the object,
         * dropping this one. */
        const opal::LockGuard guard(slots_lock);
        t = find_target(kind, object);
        errhandler_retain(t.handler);
    }
    if (t.handler == MPI_ERRORS_RETURN) {
        return code;
    }
    if (const Errhandler *e = user_handler(t.handler)) {
        call_user(*e, t.object, code);
        errhandler_release(t.handler);
        return code;
    }
    /* MPI_ERRORS_ARE_FATAL and MPI_ERRORS_ABORT: both end the job here. The standard lets
     * MPI_ERRORS_ABORT end only the communicator's processes; with no way yet to end part of a job,
     * Tessera ends all of it, as MPI_Abort may. The exit status is the error class. */
    const int error_class = error_class_of(code);
    const std::string what = std::string(called_function(function)) + ": " + error_name(code) + ": " + detail +
                             "; the error handler " + errhandler_name(t.handler) + " of " + t.on + " ends the job";
    abort_job(error_class, what, process_label() + ": " + what + " (exit status " + std::to_string(error_class) + ")");
}

int raise_on_comm(MPI_Comm comm, int code, const char *function, const std::string &detail)
{
    return raise_error(ObjectKind::Comm, comm, code, function, detail);
}

} // namespace tessera::ompi
