/*
 * MPI_Init's wire-up and MPI_Finalize's tear-down of the transports: the business-card exchange
 * (modex.h) through mpirun's key-value service, the proc of every rank with its locality, the btl
 * modules and every peer's endpoint set, then the point-to-point engine.
 */
#ifndef TESSERA_OMPI_RUNTIME_WIRE_UP_H
#define TESSERA_OMPI_RUNTIME_WIRE_UP_H

#include <string>

namespace tessera::ompi {

/* Returns "" or what failed. The frameworks are open; `thread_multiple` as MPI_Init_thread granted. */
std::string wire_up(bool thread_multiple);

/* Quiesces the engine, waits for every rank (so that no peer still sends to a closed transport),
 * releases endpoints and procs. Returns "" or what failed; the tear-down completes either way. */
std::string wire_down();

} // namespace tessera::ompi

#endif
