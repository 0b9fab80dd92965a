/*
 * The feed's requests: what each traced request (by application-side handle) will report when it
 * completes. A nonblocking operation's record lives until the call that completes it (Wait/Test
 * forms, MPI_Request_free); a persistent one's until MPI_Request_free, active between MPI_Start and
 * its completion.
 *
 * A handle may stand for several records at once: Open MPI hands back one shared, already complete
 * request for every small send that finished inside MPI_Isend; and under MPI_THREAD_MULTIPLE a handle
 * the runtime freed in one thread's Wait may come back from another thread's MPI_Irecv before the
 * first thread has reported its completion. So a completion call claims its records before it calls
 * the runtime (the oldest unclaimed active record of each handle: the handle cannot be reused before
 * that call completes it) and reports, after the call, exactly the records it claimed.
 * Thread-safe; hooks are called outside the table's lock.
 */
#ifndef TESSERA_OMPI_TRACE_TRACE_REQUESTS_H
#define TESSERA_OMPI_TRACE_TRACE_REQUESTS_H

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include <mpi.h>

#include "frameworks/trace/base/base.h"
#include "ompi/trace/trace_feed.h"

namespace tessera::ompi::trace {

inline bool wants(uint32_t hooks)
{
    return TESSERA_TRACE_WANTS(hooks);
}

/* Hooks that need a nonblocking operation remembered until it completes. */
inline constexpr uint32_t kCompletionHooks =
    MCA_TRACE_HOOK_ISEND_COMPLETE | MCA_TRACE_HOOK_IRECV | MCA_TRACE_HOOK_REQUEST_CANCELLED;

/* A fresh request id (process-wide, never 0). */
uint64_t next_request_id();

struct RequestRecord {
    tessera_trace_op_t op{};     /* what the call that made the request announced or remembered */
    bool active = false;         /* an operation is under way (always, for a nonblocking one) */
    bool cancel_requested = false;
    uint64_t claim = 0;          /* the completion call that claimed it (0: none) */
};

class Requests {
public:
    bool empty() const { return size_.load(std::memory_order_relaxed) == 0; }
    void put(MPI_Request request, const RequestRecord &record);
    /* Marks the request cancelled; false when it is not traced. */
    bool mark_cancel(MPI_Request request);
    /* Applies `f` to the (oldest) record of `request` under the lock; false when it is not traced. */
    template <class F> bool update(MPI_Request request, F f)
    {
        std::lock_guard lock(mutex_);
        auto it = records_.find(request);
        if (it == records_.end()) {
            return false;
        }
        f(it->second.front());
        return true;
    }
    /* The record, removed (a freed request). */
    std::optional<RequestRecord> take(MPI_Request request);
    /* Completion call `token` claims the oldest unclaimed active record of `request`; false: none. */
    bool claim(MPI_Request request, uint64_t token);
    /* The record `token` claimed completed: returned as it was; a persistent one stays, inactive, and a
     * nonblocking one goes. */
    std::optional<RequestRecord> complete(MPI_Request request, uint64_t token);
    /* The record `token` claimed did not complete: another call may claim it. */
    void release(MPI_Request request, uint64_t token);
    void clear();

private:
    using Map = std::unordered_map<MPI_Request, std::vector<RequestRecord>>;
    void drop(Map::iterator it, size_t index);

    std::mutex mutex_;
    Map records_; /* never an empty vector */
    std::atomic<size_t> size_{0};
};

Requests &requests();

/* Reports a completed request: isend_complete / irecv with the status's source, tag and size, or
 * request_cancelled when a cancellation succeeded (or, error_in_status, the receive failed). */
void report_completion(const RequestRecord &record, const MPI_Status *status, bool error_in_status);

} // namespace tessera::ompi::trace

#endif
