/* What every communicator call checks first: MPI is initialized and the handle names a communicator.
 * The generated wrappers have checked the handle already; the second check matters only when the
 * functions are called around the bindings. */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_CHECKS_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_CHECKS_H

#include <mpi.h>

#include "ompi/communicator/communicator.h"

namespace tessera::ompi {

/* The communicator of argument `name` (`comm`) of `function`, or nullptr with *rc the error raised on
 * `raise_on` (MPI_COMM_NULL: on comm itself, the usual errh=comm). */
Communicator *comm_argument(const char *function, MPI_Comm comm, int *rc, const char *name = "comm",
                            MPI_Comm raise_on = MPI_COMM_NULL);
/* comm_argument for the calls that may set or read the error handler, name and attributes of an
 * MPI_Comm_idup's communicator before it is complete (comm_lookup_settable). */
Communicator *comm_settable_argument(const char *function, MPI_Comm comm, int *rc);

/* The hints of argument 'info' of a creation call on `comm` (none for MPI_INFO_NULL): MPI_SUCCESS, or
 * MPI_ERR_INFO raised on comm for a handle that names no info object. */
int hints_argument(const char *function, MPI_Comm comm, MPI_Info info, InfoEntries *out);

} // namespace tessera::ompi

#endif
