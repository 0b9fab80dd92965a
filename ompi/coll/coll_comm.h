/*
 * Collectives of a communicator: the MPI layer's side of the coll framework (frameworks/coll/base).
 *
 * coll_init runs in MPI_Init once the point-to-point engine is up: it asks each open coll component
 * whether it takes part and hooks the non-blocking collectives into the progress engine. Then
 * coll_comm_enable selects the functions of MPI_COMM_WORLD and MPI_COMM_SELF — per collective the
 * highest-priority module that implements it — and MPI_Finalize undoes all of it (coll_comm_disable,
 * coll_finalize) before the engine stops.
 *
 * Every communicator created later (MPI_Comm_dup, split, create, Intercomm_create...) must call
 * coll_comm_enable once its rank, size, procs, context and pml state are set, before the application
 * gets it (it may itself run collectives on the new communicator), and coll_comm_disable before the
 * communicator is destroyed.
 */
#ifndef TESSERA_OMPI_COLL_COLL_COMM_H
#define TESSERA_OMPI_COLL_COLL_COMM_H

#include <string>

#include "ompi/communicator/communicator.h"

namespace tessera::ompi {

/* "" when done, otherwise what went wrong. */
std::string coll_init(bool thread_multiple);
void coll_finalize();

/* "" when the communicator has its collectives, otherwise why not (no component offers a module, a
 * module failed to start). */
std::string coll_comm_enable(Communicator &comm);
void coll_comm_disable(Communicator &comm);

} // namespace tessera::ompi

#endif
