/*
 * trace otf2: the records as the hooks leave them. A hook appends one fixed-size record (time, kind, a
 * few integers) to a preallocated buffer — a few stores, no OTF2 call on the application's call path;
 * the records become OTF2 events (encode) when the buffer is full and at finalize, in the order they
 * were appended. One buffer per event stream (per rank: under MPI_THREAD_MULTIPLE the stream's mutex
 * serializes the threads' appends, which keeps the stream in time order).
 */
#ifndef TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_RAW_H
#define TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_RAW_H

#include <otf2/otf2.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tessera::ompi::trace_otf2 {

enum class RawKind : uint32_t {
    Enter,            /* a: function */
    Leave,            /* a: function */
    Send,             /* a: peer, b: tag, comm, bytes */
    Isend,            /* a: peer, b: tag, comm, bytes, id */
    IsendComplete,    /* id */
    IrecvRequest,     /* id */
    Irecv,            /* a: peer, b: tag, comm, bytes, id */
    Recv,             /* a: peer, b: tag, comm, bytes */
    RequestCancelled, /* id */
    CollectiveBegin,  /* nothing */
    CollectiveEnd,    /* a: operation, b: root (OTF2_UNDEFINED_UINT32: none), comm, bytes: sent, id: received */
    /* Two events of one call at one time, joined into one record (half the stores on the call path):
     * the Enter and what the call reports before calling the runtime, a receive and the Leave after it. */
    EnterSend,             /* Enter (id: function), then Send (a, b, comm, bytes) */
    EnterIrecvRequest,     /* Enter (a: function), then IrecvRequest (id) */
    EnterCollectiveBegin,  /* Enter (a: function), then CollectiveBegin */
    RecvLeave,             /* Recv (a, b, comm, bytes), then Leave (id: function) */
};

struct RawRecord {
    uint64_t time;
    RawKind kind;
    uint32_t a;
    uint32_t b;
    uint32_t comm; /* OTF2_CommRef: this rank's communicator id */
    uint64_t bytes;
    uint64_t id;
};
static_assert(sizeof(RawRecord) == 40, "a raw record stays compact");

class RawBuffer {
public:
    /* Room for `bytes` of records (one at least). */
    explicit RawBuffer(size_t bytes);

    /* The next record, to be filled by the caller; the buffer must not be full. */
    RawRecord *push()
    {
        /* The buffer streams through memory: its lines are asked for ahead of their use (slack records
         * past the capacity keep the address inside the allocation). */
        __builtin_prefetch(&records_[used_ + kPrefetchAhead], 1, 3);
        return &records_[used_++];
    }
    bool full() const { return used_ == capacity_; }
    size_t size() const { return used_; }
    /* The last record, when there is one and it is of `kind`; else NULL. */
    RawRecord *last_of(RawKind kind) { return used_ != 0 && records_[used_ - 1].kind == kind ? &records_[used_ - 1] : nullptr; }
    const RawRecord &first() const { return records_[0]; }

    /* Writes every record to `w` in order (nothing when w is NULL) and empties the buffer. Before each
     * record, *cursor gets its time: what OTF2's own buffer flushes, happening meanwhile, are stamped with. */
    void encode(OTF2_EvtWriter *w, uint64_t *cursor);

private:
    static constexpr size_t kPrefetchAhead = 32;
    std::unique_ptr<RawRecord[]> records_;
    size_t capacity_;
    size_t used_ = 0;
};

} // namespace tessera::ompi::trace_otf2

#endif
