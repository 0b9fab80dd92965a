/*
 * From archive records to ordered operations: finds the process of the record's location and of its
 * communicator-local peer rank (rank_map), warns about what cannot be mapped, counts the records, and
 * hands sends and receives with global ranks to RequestOrder.
 */
#ifndef TESSERA_TOOLS_TRACE_RECORD_ROUTER_H
#define TESSERA_TOOLS_TRACE_RECORD_ROUTER_H

#include <cstdint>

#include "archive_reader.h"
#include "rank_map.h"
#include "request_order.h"
#include "warnings.h"

namespace tessera::trace {

struct RecordCounts {
    uint64_t send = 0;
    uint64_t isend = 0;
    uint64_t isend_complete = 0;
    uint64_t irecv_request = 0;
    uint64_t recv = 0;
    uint64_t irecv = 0;
    uint64_t cancelled = 0;
    uint64_t total() const { return send + isend + isend_complete + irecv_request + recv + irecv + cancelled; }
};

class RecordRouter : public RecordSink {
public:
    RecordRouter(const RankMap &ranks, RequestOrder &order, Warnings &warnings, const Clock &clock);

    void mpi_send(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                  uint64_t bytes) override;
    void mpi_isend(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes,
                   uint64_t request) override;
    void mpi_isend_complete(uint64_t location, Ticks time, uint64_t request) override;
    void mpi_irecv_request(uint64_t location, Ticks time, uint64_t request) override;
    void mpi_recv(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                  uint64_t bytes) override;
    void mpi_irecv(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes,
                   uint64_t request) override;
    void mpi_request_cancelled(uint64_t location, Ticks time, uint64_t request) override;

    const RecordCounts &counts() const { return counts_; }

private:
    /* The record's process, or no_proc after an unknown-location warning. */
    Proc process(uint64_t location, Ticks time, const char *record);
    /*
     * `t` with its ranks global (the peer is the receiver of a send, the sender of a receive); false
     * after a warning when the peer cannot be mapped.
     */
    bool route(Proc self, bool is_send, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes, Ticks time,
               const char *record, Transfer &t);

    const RankMap &ranks_;
    RequestOrder &order_;
    Warnings &warnings_;
    const Clock &clock_;
    RecordCounts counts_;
    /* Records come in runs from one location; one compare saves a hash lookup. */
    uint64_t last_location_ = UINT64_MAX;
    Proc last_proc_ = no_proc;
};

} // namespace tessera::trace

#endif
