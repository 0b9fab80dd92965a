/* What the point-to-point MPI functions of the native engine (MPI-4.1 chapter 3) share beyond their
 * prototypes (native_api.h). */
#ifndef TESSERA_OMPI_PML_P2P_FUNCTIONS_H
#define TESSERA_OMPI_PML_P2P_FUNCTIONS_H

#include <mpi.h>

#include "ompi/pml/pml_request.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

/* MPI_Start of a persistent buffered send: copies the message into the buffer and sends it from there;
 * the request is complete at once. */
int start_bsend(pml::Request *r);

} // namespace tessera::ompi::native

#endif
