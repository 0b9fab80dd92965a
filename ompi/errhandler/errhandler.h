/*
 * Error handlers: what happens when an MPI call fails (MPI-4.1 chapter 9.3). The predefined handlers
 * are MPI_ERRORS_ARE_FATAL (the default: print the error and end the job), MPI_ERRORS_ABORT (print and
 * end the processes of the communicator; Tessera ends the job, as MPI_Abort does) and MPI_ERRORS_RETURN
 * (return the code to the caller). The application adds its own with MPI_Comm/Win/File/
 * Session_create_errhandler: a function of that object kind, called with the application's handle of
 * the object and the error code.
 *
 * Every error, from the generated argument checks, from a missing function or from the engine itself,
 * goes through raise_error(): it finds the error handler of the object the call names (errh= in the API
 * description), and returns the code, calls the user's function, or prints and aborts.
 *
 * Lifetime: a user handler counts its references: its handle, each object it is set on, each handle
 * MPI_*_get_errhandler returned. MPI_Errhandler_free drops one; a handler set on a communicator thus
 * keeps working after the application freed its handle (MPI-4.1 9.3.4).
 */
#ifndef TESSERA_OMPI_ERRHANDLER_ERRHANDLER_H
#define TESSERA_OMPI_ERRHANDLER_ERRHANDLER_H

#include <atomic>
#include <cstdint>
#include <string>

#include <mpi.h>

#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

/* The objects an error is raised on, and the handle kinds of the generated handle checks; the values
 * are the generated TESSERA_MPI_OBJ_* ones (ompi/api/gen_bindings.py, OBJECT_KINDS). */
enum class ObjectKind : int { None = 0, Comm, Win, File, Session, Request, Message, Errhandler, Group };

/* A user error handler. `fn` is the application's MPI_<Kind>_errhandler_function, called as its kind's
 * type. */
struct Errhandler {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x45525248; /* "ERRH" */
    static void *operator new(std::size_t size) { return handle_slot_new<Errhandler>(size); }
    static void operator delete(void *object) { handle_slot_delete<Errhandler>(object); }

    ObjectKind kind = ObjectKind::Comm; /* Comm, Win, File or Session */
    void (*fn)() = nullptr;
    std::atomic<int> refs{1};
};

/* A new user handler of `kind` (one reference: the handle's). */
MPI_Errhandler errhandler_create(ObjectKind kind, void (*fn)());

/* Whether h is a predefined error handler or a live user one. */
bool errhandler_valid(MPI_Errhandler h);
/* Whether h may be set on an object of `kind`: predefined, or a user handler made for that kind. */
bool errhandler_fits(MPI_Errhandler h, ObjectKind kind);
/* "" when errhandler_fits; otherwise why not, for MPI_ERR_ERRHANDLER of MPI_<Kind>_set_errhandler. */
std::string errhandler_misfit(MPI_Errhandler h, ObjectKind kind);
/* A reference to a user handler (no-ops for the predefined ones); the last release frees it. */
void errhandler_retain(MPI_Errhandler h);
void errhandler_release(MPI_Errhandler h);
/* Replaces *slot (an object's handler) by h, moving the references. */
void errhandler_assign(MPI_Errhandler *slot, MPI_Errhandler h);
/* The handler in *slot, with a reference the caller releases. Under MPI_THREAD_MULTIPLE another thread
 * may replace an object's handler, dropping the slot's reference, between reading the slot and taking a
 * reference: both assign and this run under one lock (nothing below MULTIPLE). */
MPI_Errhandler errhandler_get(const MPI_Errhandler *slot);
/* "MPI_ERRORS_RETURN", "a user error handler" */
const char *errhandler_name(MPI_Errhandler h);

/* The handler of MPI_FILE_NULL, which every file starts with (MPI-4.1 14.7): MPI_ERRORS_RETURN until
 * MPI_File_set_errhandler(MPI_FILE_NULL, ...) changes it. */
MPI_Errhandler &file_null_errhandler();

/*
 * Raises `code` for `function` on the error handler of `object`:
 *   Comm        the communicator's handler; an invalid communicator falls back to MPI_COMM_WORLD's
 *   File        the file's handler; MPI_FILE_NULL and invalid files: MPI_FILE_NULL's handler
 *   Win         the window's handler; an invalid window falls back to MPI_COMM_WORLD's
 *   Errhandler  that handler itself (MPI_Session_init and the *_from_group constructors)
 *   Session, Request, Message   no such objects yet: MPI_COMM_WORLD's handler
 *   None        no handler: returns the code
 * Returns the code when the handler returns; does not return when it aborts.
 */
int raise_error(ObjectKind kind, const void *object, int code, const char *function, const std::string &detail);

/* Whether raise_error on `object` would end the job (its handler is MPI_ERRORS_ARE_FATAL or
 * MPI_ERRORS_ABORT) rather than return. */
bool raise_ends_job(ObjectKind kind, const void *object);

/* The same on a communicator (the common case inside the engine). */
int raise_on_comm(MPI_Comm comm, int code, const char *function, const std::string &detail);

} // namespace tessera::ompi

#endif
