/*
 * Generalized requests (MPI-4.1 13.2): operations the application carries out itself and completes
 * with MPI_Grequest_complete, waited for and tested like any other request. Their callbacks run where
 * the standard puts them: query_fn fills the status when a completion call retires the request (and for
 * MPI_Request_get_status), free_fn follows it there or runs at MPI_Request_free, cancel_fn at
 * MPI_Cancel with whether the request has completed.
 */
#ifndef TESSERA_OMPI_PML_P2P_GENERALIZED_H
#define TESSERA_OMPI_PML_P2P_GENERALIZED_H

#include <mpi.h>

#include "ompi/pml/pml_request.h"

namespace tessera::ompi::pml {

/* A completed generalized request about to be retired: query_fn fills r->status (its return code
 * becomes the status's MPI_ERROR), then free_fn runs; returns the first error of the two. */
int generalized_retire(Request *r);
/* query_fn alone, into r->status (MPI_Request_get_status); returns its code. */
int generalized_query(Request *r);
/* free_fn (MPI_Request_free); returns its code. */
int generalized_free(Request *r);
/* cancel_fn with whether the request has completed (MPI_Cancel); returns its code. */
int generalized_cancel(Request *r);

} // namespace tessera::ompi::pml

#endif
