#include "ompi/trace/trace_requests.h"

#include "ompi/trace/trace_queries.h"

namespace tessera::ompi::trace {

uint64_t next_request_id()
{
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

Requests &requests()
{
    static Requests instance;
    return instance;
}

void Requests::put(MPI_Request request, const RequestRecord &record)
{
    std::lock_guard lock(mutex_);
    std::vector<RequestRecord> &list = records_[request];
    if ((record.op.parts & TESSERA_TRACE_OP_PERSISTENT) != 0) {
        list.clear(); /* a persistent request has a handle of its own: anything older is stale */
    }
    list.push_back(record);
    size_.store(records_.size(), std::memory_order_relaxed);
}

bool Requests::contains(MPI_Request request)
{
    std::lock_guard lock(mutex_);
    return records_.count(request) != 0;
}

bool Requests::mark_cancel(MPI_Request request)
{
    return update(request, [](RequestRecord &r) { r.cancel_requested = true; });
}

void Requests::drop_front(Map::iterator it)
{
    it->second.erase(it->second.begin());
    if (it->second.empty()) {
        records_.erase(it);
    }
    size_.store(records_.size(), std::memory_order_relaxed);
}

std::optional<RequestRecord> Requests::take(MPI_Request request)
{
    std::lock_guard lock(mutex_);
    auto it = records_.find(request);
    if (it == records_.end()) {
        return std::nullopt;
    }
    RequestRecord r = it->second.front();
    drop_front(it);
    return r;
}

std::optional<RequestRecord> Requests::complete(MPI_Request request)
{
    std::lock_guard lock(mutex_);
    auto it = records_.find(request);
    if (it == records_.end() || !it->second.front().active) {
        return std::nullopt;
    }
    RequestRecord &front = it->second.front();
    RequestRecord r = front;
    if ((r.op.parts & TESSERA_TRACE_OP_PERSISTENT) != 0) {
        front.active = false;
        front.cancel_requested = false;
    } else {
        drop_front(it);
    }
    return r;
}

void Requests::clear()
{
    std::lock_guard lock(mutex_);
    records_.clear();
    size_.store(0, std::memory_order_relaxed);
}

void report_completion(const RequestRecord &record, const MPI_Status *status, bool error_in_status)
{
    const tessera_trace_op_t &op = record.op;
    if ((op.parts & TESSERA_TRACE_OP_COLL) != 0) {
        return; /* a persistent collective was reported whole at MPI_Start */
    }
    /* A cancelled operation never happened; MPI_Test_cancelled needs the status to tell. */
    const bool cancelled = record.cancel_requested && status != MPI_STATUS_IGNORE && status_cancelled(status);
    /* A receive that ended in error delivered nothing. MPI_ERROR is set only when the call returned
     * MPI_ERR_IN_STATUS (MPI-4.1 3.2.5); otherwise it is not to be read. */
    const bool failed = error_in_status && status != MPI_STATUS_IGNORE && status->MPI_ERROR != MPI_SUCCESS;
    if (op.send_id != 0) {
        if (cancelled) {
            mca_trace_request_cancelled(op.send_id);
        } else {
            mca_trace_isend_complete(op.send_id);
        }
    }
    if (op.recv_id != 0) {
        if (cancelled || failed || status == MPI_STATUS_IGNORE || status->MPI_SOURCE == MPI_PROC_NULL) {
            mca_trace_request_cancelled(op.recv_id);
        } else {
            mca_trace_irecv(op.comm, status->MPI_SOURCE, status->MPI_TAG, status_bytes(status), op.recv_id);
        }
    }
}

} // namespace tessera::ompi::trace
