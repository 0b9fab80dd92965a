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

} // namespace tessera::ompi

#endif
