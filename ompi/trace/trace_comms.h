/*
 * The feed's communicators: the trace id of each application-side handle, announced to the modules
 * (comm_create) before any event names it. MPI_COMM_WORLD is 0 and MPI_COMM_SELF 1 without a lookup;
 * a communicator made by a call the bindings see is announced when the call returns, any other one
 * (made before tracing started, or by MPI_Comm_idup) at its first use. Also the communicator of each
 * matched-probe message until it is received. Thread-safe.
 */
#ifndef TESSERA_OMPI_TRACE_TRACE_COMMS_H
#define TESSERA_OMPI_TRACE_TRACE_COMMS_H

#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include <mpi.h>

#include "ompi/trace/trace_feed.h"

namespace tessera::ompi::trace {

inline constexpr uint64_t kWorldId = TESSERA_TRACE_WORLD_ID;
inline constexpr uint64_t kSelfId = TESSERA_TRACE_SELF_ID;
inline constexpr uint64_t kUnknownComm = ~uint64_t{0}; /* a message whose probe was not seen */

class Comms {
public:
    /* The id of `comm`, announcing it first when it is new to the feed. */
    uint64_t id_of(MPI_Comm comm)
    {
        if (comm == MPI_COMM_WORLD) {
            return kWorldId;
        }
        if (comm == MPI_COMM_SELF) {
            return kSelfId;
        }
        {
            std::shared_lock lock(mutex_);
            if (auto it = ids_.find(comm); it != ids_.end()) {
                return it->second;
            }
        }
        return announce(comm, false);
    }

    /* Tracing begins: forgets everything and announces MPI_COMM_WORLD and MPI_COMM_SELF. */
    void start();
    /* A call made `comm` (a handle the runtime may have used before: a new id either way). */
    void created(MPI_Comm comm) { (void)announce(comm, true); }
    /* `comm` ended; its handle may come back for another communicator. */
    void ended(MPI_Comm comm);
    /* `comm` got a name: announced again under its id. */
    void renamed(MPI_Comm comm);

    void remember_message(MPI_Message message, uint64_t comm_id);
    /* The message's communicator, forgotten; kUnknownComm when the probe was not seen. */
    uint64_t take_message(MPI_Message message);

private:
    uint64_t announce(MPI_Comm comm, bool fresh);

    std::shared_mutex mutex_;
    std::unordered_map<MPI_Comm, uint64_t> ids_;
    uint64_t next_id_ = kSelfId + 1;
    std::mutex messages_mutex_;
    std::unordered_map<MPI_Message, uint64_t> messages_;
};

Comms &comms();

} // namespace tessera::ompi::trace

#endif
