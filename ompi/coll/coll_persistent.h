/* The persistent collectives of the native engine (MPI-4.1 6.13, 7.8: MPI_Barrier_init ... the
 * neighbourhood forms), generated from their nonblocking forms (ompi/api/gen_native.py). Each _init call
 * checks its arguments as its I-form does and returns an inactive persistent request; MPI_Start runs the
 * I-form under the collective numbers the initialization took (coll::FixedTags). */
#ifndef TESSERA_OMPI_COLL_COLL_PERSISTENT_H
#define TESSERA_OMPI_COLL_COLL_PERSISTENT_H

#include <mpi.h>

#include <functional>

#include "ompi/pml/pml_request.h"

namespace tessera::ompi::coll {

/* The _init call `function`: runs `start` (the I-form with the call's arguments, the request it makes
 * being the argument) once with the I-form's checks, named after the _init call, then hands out the
 * inactive request that reruns it at each start. */
int persistent(const char *function, MPI_Comm comm, MPI_Info info, MPI_Request *request,
               std::function<int(MPI_Request *)> start);

/* MPI_Start of a persistent collective request (inactive, complete): starts one run of it. Returns an
 * MPI error code (raised on the communicator's handler already). */
int start_persistent(pml::Request *r);

} // namespace tessera::ompi::coll

#endif
