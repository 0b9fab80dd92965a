/*
 * The communicator that this call's generated argument check found (tessera_mpi_handle_valid), passed
 * on to the engine's own check (pml::check_args) so that a send or receive looks its communicator up
 * once rather than twice.
 *
 * Per thread, and taken by the first engine check that names the same handle: a hand-off that no
 * engine check took (a call that checks its communicator but sends nothing, MPI_Barrier) is overwritten
 * by the next call's argument check, which every MPI function naming a communicator passes first, and
 * MPI_Comm_free drops it. Under MPI_THREAD_MULTIPLE each thread has its own, and a communicator freed
 * by one thread while another uses it is erroneous either way (MPI-4.1 11.6.2).
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_HANDOFF_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_HANDOFF_H

#include <mpi.h>

#include "ompi/communicator/communicator.h"

namespace tessera::ompi {

struct CommHandoff {
    MPI_Comm handle = nullptr;
    Communicator *comm = nullptr; /* nullptr: the check refused the handle */
};

/* constinit and initial-exec: one %fs-relative access, neither a TLS init wrapper nor a __tls_get_addr
 * call (libmpi is loaded at start-up). */
extern constinit thread_local CommHandoff comm_handoff __attribute__((tls_model("initial-exec")));

/* What the argument check found for `handle` (nullptr when it refused it). */
inline void comm_handoff_put(MPI_Comm handle, Communicator *comm)
{
    comm_handoff = CommHandoff{handle, comm};
}

/* Drops the hand-off: its communicator may be gone. */
inline void comm_handoff_drop()
{
    comm_handoff = CommHandoff{};
}

/* The communicator of `handle`: the hand-off's when this call's argument check looked it up, else
 * comm_lookup. Takes the hand-off. */
inline Communicator *comm_lookup_handed(MPI_Comm handle)
{
    CommHandoff &h = comm_handoff;
    /* An empty hand-off (nullptr, nullptr) answers a null handle as comm_lookup would. */
    Communicator *comm = h.handle == handle ? h.comm : comm_lookup(handle);
    h = CommHandoff{};
    return comm;
}

} // namespace tessera::ompi

#endif
