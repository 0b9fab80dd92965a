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

bool Requests::mark_cancel(MPI_Request request)
{
    return update(request, [](RequestRecord &r) { r.cancel_requested = true; });
}

void Requests::drop(Map::iterator it, size_t index)
{
    it->second.erase(it->second.begin() + static_cast<std::ptrdiff_t>(index));
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
    drop(it, 0);
    return r;
}

bool Requests::claim(MPI_Request request, uint64_t token)
{
    std::lock_guard lock(mutex_);
    auto it = records_.find(request);
    if (it == records_.end()) {
        return false;
    }
    for (RequestRecord &r : it->second) {
        if (r.active && r.claim == 0) {
            r.claim = token;
            return true;
        }
    }
    return false;
}

std::optional<RequestRecord> Requests::complete(MPI_Request request, uint64_t token)
{
    std::lock_guard lock(mutex_);
    auto it = records_.find(request);
    if (it == records_.end()) {
        return std::nullopt;
    }
    for (size_t i = 0; i < it->second.size(); ++i) {
        RequestRecord &r = it->second[i];
        if (r.claim != token) {
            continue;
        }
        RequestRecord done = r;
        if ((r.op.parts & TESSERA_TRACE_OP_PERSISTENT) != 0) {
            r.active = false;
            r.cancel_requested = false;
            r.claim = 0;
        } else {
            drop(it, i);
        }
        return done;
    }
    return std::nullopt;
}

void Requests::release(MPI_Request request, uint64_t token)
{
    std::lock_guard lock(mutex_);
    auto it = records_.find(request);
    if (it == records_.end()) {
        return;
    }
    for (RequestRecord &r : it->second) {
        if (r.claim == token) {
            r.claim = 0;
            return;
        }
    }
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
