/*
 * The point-to-point engine's life cycle, as MPI_Init and MPI_Finalize drive it (ompi/runtime/wire_up.cpp).
 * The engine itself — matching, protocols, requests — is described in docs/p2p.md.
 */
#ifndef TESSERA_OMPI_PML_PML_H
#define TESSERA_OMPI_PML_PML_H

namespace tessera::ompi::pml {

/* After every world proc has its btl endpoint set: registers the receive callbacks, sets up the
 * per-peer state. Returns an MPI error code. */
int init();

/* MPI_Finalize, before the final fence: completes what the engine still owes peers (rendezvous
 * acknowledgements, queued fragments) so that nothing is lost when transports close. */
void quiesce();

/* After the final fence: releases the engine's state; no fragment is processed afterwards. */
void finalize();

} // namespace tessera::ompi::pml

#endif
