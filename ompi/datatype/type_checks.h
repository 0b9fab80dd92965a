/* Argument checks the datatype functions share; errors go through the error handler of MPI_COMM_SELF
 * (errh=COMM_SELF in the API description) or of the communicator the call names. */
#ifndef TESSERA_OMPI_DATATYPE_TYPE_CHECKS_H
#define TESSERA_OMPI_DATATYPE_TYPE_CHECKS_H

#include <string>

#include <mpi.h>

#include "ompi/datatype/datatype.h"

namespace tessera::ompi {

/* Raises `code` for `function` on MPI_COMM_SELF. */
int type_error(const char *function, int code, const std::string &detail);

/* The datatype of argument `arg`, or MPI_ERR_TYPE naming it. */
int type_argument(const char *function, MPI_Datatype handle, const char *arg, const Datatype **out);

/* The same for a type that moves data: it must also be committed. Raised on `comm`. */
int type_committed_argument(const char *function, MPI_Datatype handle, MPI_Comm comm, const Datatype **out);

} // namespace tessera::ompi

#endif
