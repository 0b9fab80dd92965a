/*
 * The point-to-point engine's life cycle, as MPI_Init and MPI_Finalize drive it (ompi/runtime/wire_up.cpp).
 * The engine itself — matching, protocols, requests — is described in docs/p2p.md.
 */
#ifndef TESSERA_OMPI_PML_PML_H
#define TESSERA_OMPI_PML_PML_H

#include <cstddef>

namespace tessera::ompi {
struct Communicator;
}

namespace tessera::ompi::pml {

/* After every world proc has its btl endpoint set: registers the receive callbacks, sets up the
 * per-peer state. Returns an MPI error code. */
int init();

/* MPI_Finalize, before the final fence: completes what the engine still owes peers (rendezvous
 * acknowledgements, queued fragments) so that nothing is lost when transports close. */
void quiesce();

/* After the final fence: releases the engine's state; no fragment is processed afterwards. */
void finalize();

/* A communicator's matching queues now and at their highest (MPI_T's pvars, docs/mpi_t.md). */
struct QueueLevels {
    std::size_t unexpected = 0;
    std::size_t unexpected_hwm = 0;
    std::size_t posted = 0;
    std::size_t posted_hwm = 0;
};
QueueLevels queue_levels(Communicator &comm);

} // namespace tessera::ompi::pml

#endif
