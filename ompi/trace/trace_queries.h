/*
 * What the feed asks the MPI library underneath, through the dispatch table (application-side handles,
 * so the same code serves the native engine and every runtime translator). A function the selected
 * runtime does not provide holds its fallback, which would raise MPI_ERR_UNSUPPORTED_OPERATION on the
 * application's error handler: every query tests for that first and falls back to what is known.
 */
#ifndef TESSERA_OMPI_TRACE_TRACE_QUERIES_H
#define TESSERA_OMPI_TRACE_TRACE_QUERIES_H

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "tessera_mpi_dispatch.h"

/* Whether the selected runtime provides dispatch entry `slot` (Comm_group, Type_size_c, ...). */
#define TESSERA_TRACE_PROVIDED(slot) (tessera_mpi_dispatch.slot != tessera_mpi_unsupported_fallbacks.slot)

namespace tessera::ompi::trace {

/* count elements of `type`, in bytes; 0 when the type's size cannot be had. Predefined datatypes
 * (immutable, small ABI values) are cached. */
uint64_t type_bytes(MPI_Count count, MPI_Datatype type);

/* The bytes a completed receive's status says arrived. */
uint64_t status_bytes(const MPI_Status *status);
/* Whether the statuses come from the native engine, whose byte count status_bytes then reads itself
 * instead of calling MPI_Get_count through the dispatch table (a receive's return is on the message
 * critical path of a ping-pong); set when tracing starts. */
void use_native_statuses(bool native);

/* Whether the cancellation of the request that gave `status` succeeded (MPI_Test_cancelled). */
bool status_cancelled(const MPI_Status *status);

/* What a communicator is, as the trace framework announces it. */
struct CommFacts {
    int size = 0;                /* of its group, or of the remote group of an intercommunicator */
    int rank = -1;               /* of this process in its (local) group */
    std::vector<int> world_ranks; /* MPI_COMM_WORLD rank of each rank in `size`; empty when unknown */
    std::string name;            /* MPI_Comm_get_name; may be empty */
};
/* Asks the runtime (MPI_Comm_group or _remote_group, MPI_Group_translate_ranks against MPI_COMM_WORLD's
 * group); where it lacks those, MPI_COMM_WORLD and MPI_COMM_SELF are known anyway and others get no
 * rank map. */
CommFacts comm_facts(MPI_Comm comm);

/* This process's rank and the size that counts for a collective's blocks (the remote group's size
 * on an intercommunicator). */
struct CollGroup {
    int rank = 0;
    int size = 1;
    bool inter = false;
};
CollGroup coll_group(MPI_Comm comm);

/* In- and out-degree of a communicator with a topology (neighbourhood collectives); 0 without one. */
void neighbor_counts(MPI_Comm comm, int rank, int *indegree, int *outdegree);

/* MPI_COMM_WORLD's rank and size, MPI_Query_thread's level (MPI_THREAD_SINGLE when unknown). */
int world_rank();
int world_size();
int thread_level();

} // namespace tessera::ompi::trace

#endif
