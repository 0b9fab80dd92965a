#include "ompi/pml/p2p_checks.h"

#include <string>

#include "ompi/communicator/comm_handoff.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::pml {

int check_args(const char *function, MPI_Comm comm, int rank, int tag, Role role, MPI_Datatype datatype,
               const void *buf, std::size_t count, Checked *out)
{
    if (int rc = require_initialized(comm, function); rc != MPI_SUCCESS) {
        return rc;
    }
    out->comm = comm_lookup_handed(comm);
    if (out->comm == nullptr) {
        return raise_on_comm(comm, MPI_ERR_COMM, function, "invalid communicator");
    }
    const bool wildcard_ok = role != Role::Send;
    /* An intercommunicator's ranks name its remote group. */
    const int peers = static_cast<int>(out->comm->peers().size());
    const bool rank_ok = (rank >= 0 && rank < peers) || rank == MPI_PROC_NULL || (wildcard_ok && rank == MPI_ANY_SOURCE);
    if (!rank_ok) {
        return raise_on_comm(comm, MPI_ERR_RANK, function,
                             "rank " + std::to_string(rank) + " is not in " +
                                 (out->comm->is_inter() ? "the remote group of " : "") + comm_label(*out->comm) +
                                 " (size " + std::to_string(peers) + ")");
    }
    const bool tag_ok = (tag >= 0 && tag <= kTagUpperBound) || (wildcard_ok && tag == MPI_ANY_TAG);
    if (!tag_ok) {
        return raise_on_comm(comm, MPI_ERR_TAG, function,
                             "tag " + std::to_string(tag) + " is outside 0.." + std::to_string(kTagUpperBound) +
                                 (wildcard_ok ? " and not MPI_ANY_TAG" : ""));
    }
    if (role == Role::Probe) {
        return MPI_SUCCESS;
    }
    out->type = datatype_lookup(datatype);
    if (out->type == nullptr) {
        return raise_on_comm(comm, MPI_ERR_TYPE, function,
                             datatype == MPI_DATATYPE_NULL ? "the datatype is MPI_DATATYPE_NULL"
                                                           : "invalid datatype");
    }
    if (!datatype_committed(out->type)) {
        return raise_on_comm(comm, MPI_ERR_TYPE, function, "the datatype is not committed (MPI_Type_commit)");
    }
    /* MPI_BOTTOM (NULL) with a derived type is the usual way to send absolute addresses (MPI-4.1 5.1.12):
     * only a predefined type makes a NULL buffer certainly wrong (coll_checks.cpp says the same). */
    if (buf == nullptr && count > 0 && out->type->size > 0 && out->type->derived == nullptr && rank != MPI_PROC_NULL) {
        return raise_on_comm(comm, MPI_ERR_BUFFER, function, "the buffer is NULL with a count of " + std::to_string(count));
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::pml
