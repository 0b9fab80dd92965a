/*
 * Error handlers: what happens when an MPI call fails (MPI-4.1 chapter 9.3). For now the predefined
 * handlers, MPI_ERRORS_ARE_FATAL (the default: print the error and end the job), MPI_ERRORS_ABORT
 * (print and end the processes of the communicator; Tessera ends the job, as MPI_Abort does) and
 * MPI_ERRORS_RETURN (return the code to the caller); user handlers come with issue 7.
 *
 * Every error, from the generated argument checks, from a missing function or from the engine itself,
 * goes through raise(): it finds the error handler of the object the call names (errh= in the API
 * description), and either returns the code or prints and aborts.
 */
#ifndef TESSERA_OMPI_ERRHANDLER_ERRHANDLER_H
#define TESSERA_OMPI_ERRHANDLER_ERRHANDLER_H

#include <string>

#include <mpi.h>

namespace tessera::ompi {

/* The objects an error is raised on; the values are the generated TESSERA_MPI_OBJ_* ones
 * (ompi/api/gen_bindings.py, OBJECT_KINDS). */
enum class ObjectKind : int { None = 0, Comm, Win, File, Session, Request, Message, Errhandler };

/* Whether h is a predefined error handler (the only ones until issue 7). */
bool errhandler_valid(MPI_Errhandler h);
/* "MPI_ERRORS_RETURN" */
const char *errhandler_name(MPI_Errhandler h);

/*
 * Raises `code` for `function` on the error handler of `object`:
 *   Comm        the communicator's handler; an invalid communicator falls back to MPI_COMM_WORLD's
 *   File        MPI_FILE_NULL's handler, MPI_ERRORS_RETURN as the standard sets it (no files yet)
 *   Errhandler  that handler itself (MPI_Session_init and the *_from_group constructors)
 *   Win, Session, Request, Message   no such objects yet: MPI_COMM_WORLD's handler
 *   None        no handler: returns the code
 * Returns the code when the handler returns; does not return when it aborts.
 */
int raise_error(ObjectKind kind, const void *object, int code, const char *function, const std::string &detail);

/* The same on a communicator (the common case inside the engine). */
int raise_on_comm(MPI_Comm comm, int code, const char *function, const std::string &detail);

} // namespace tessera::ompi

#endif
