#include "components/trace/otf2/trace_otf2_raw.h"

#include <algorithm>

namespace tessera::ompi::trace_otf2 {

/* Zeroed, so that every page is touched now rather than on the call path (a page fault costs more than
 * a hundred records). */
RawBuffer::RawBuffer(size_t bytes)
    : records_(new RawRecord[std::max<size_t>(1, bytes / sizeof(RawRecord)) + kPrefetchAhead]()),
      capacity_(std::max<size_t>(1, bytes / sizeof(RawRecord)))
{
}

namespace {

void write(OTF2_EvtWriter *w, const RawRecord &r)
{
    const OTF2_TimeStamp t = r.time;
    switch (r.kind) {
    case RawKind::Enter:
        (void)OTF2_EvtWriter_Enter(w, nullptr, t, r.a);
        break;
    case RawKind::Leave:
        (void)OTF2_EvtWriter_Leave(w, nullptr, t, r.a);
        break;
    case RawKind::Send:
        (void)OTF2_EvtWriter_MpiSend(w, nullptr, t, r.a, r.comm, r.b, r.bytes);
        break;
    case RawKind::Isend:
        (void)OTF2_EvtWriter_MpiIsend(w, nullptr, t, r.a, r.comm, r.b, r.bytes, r.id);
        break;
    case RawKind::IsendComplete:
        (void)OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, r.id);
        break;
    case RawKind::IrecvRequest:
        (void)OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, r.id);
        break;
    case RawKind::Irecv:
        (void)OTF2_EvtWriter_MpiIrecv(w, nullptr, t, r.a, r.comm, r.b, r.bytes, r.id);
        break;
    case RawKind::Recv:
        (void)OTF2_EvtWriter_MpiRecv(w, nullptr, t, r.a, r.comm, r.b, r.bytes);
        break;
    case RawKind::RequestCancelled:
        (void)OTF2_EvtWriter_MpiRequestCancelled(w, nullptr, t, r.id);
        break;
    case RawKind::CollectiveBegin:
        (void)OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t);
        break;
    case RawKind::EnterSend:
        (void)OTF2_EvtWriter_Enter(w, nullptr, t, static_cast<OTF2_RegionRef>(r.id));
        (void)OTF2_EvtWriter_MpiSend(w, nullptr, t, r.a, r.comm, r.b, r.bytes);
        break;
    case RawKind::EnterIrecvRequest:
        (void)OTF2_EvtWriter_Enter(w, nullptr, t, r.a);
        (void)OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, r.id);
        break;
    case RawKind::EnterCollectiveBegin:
        (void)OTF2_EvtWriter_Enter(w, nullptr, t, r.a);
        (void)OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t);
        break;
    case RawKind::RecvLeave:
        (void)OTF2_EvtWriter_MpiRecv(w, nullptr, t, r.a, r.comm, r.b, r.bytes);
        (void)OTF2_EvtWriter_Leave(w, nullptr, t, static_cast<OTF2_RegionRef>(r.id));
        break;
    case RawKind::CollectiveEnd:
        /* trace.h numbers the operations as OTF2_CollectiveOp does. */
        (void)OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t, static_cast<OTF2_CollectiveOp>(r.a), r.comm, r.b,
                                              r.bytes, r.id);
        break;
    }
}

} // namespace

void RawBuffer::encode(OTF2_EvtWriter *w, uint64_t *cursor)
{
    if (w != nullptr) {
        for (size_t i = 0; i < used_; ++i) {
            *cursor = records_[i].time;
            write(w, records_[i]);
        }
    }
    used_ = 0;
}

} // namespace tessera::ompi::trace_otf2
