#include "record_router.h"

#include "time_format.h"

namespace tessera::trace {

RecordRouter::RecordRouter(const RankMap &ranks, RequestOrder &order, Warnings &warnings, const Clock &clock)
    : ranks_(ranks), order_(order), warnings_(warnings), clock_(clock)
{
}

Proc RecordRouter::process(uint64_t location, Ticks time, const char *record)
{
    if (location != last_location_) {
        last_location_ = location;
        last_proc_ = ranks_.proc_of_location(location);
    }
    if (last_proc_ == no_proc) {
        warnings_.add(WarningKind::UnknownLocation, [&] {
            return std::string(record) + " on location " + std::to_string(location) + " at " +
                   time_text(time, clock_) + " s";
        });
    }
    return last_proc_;
}

bool RecordRouter::route(Proc self, bool is_send, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes,
                         Ticks time, const char *record, Transfer &t)
{
    Peer p = ranks_.peer(comm, self, peer);
    if (p.error != PeerError::None) {
        WarningKind kind = p.error == PeerError::UnknownComm    ? WarningKind::UnknownCommunicator
                           : p.error == PeerError::UnusableComm ? WarningKind::UnusableCommunicator
                           : p.error == PeerError::NotInComm    ? WarningKind::NotInCommunicator
                                                                : WarningKind::RankOutOfRange;
        warnings_.add(kind, [&] {
            return std::string(record) + " on process " + std::to_string(self) + (is_send ? " to" : " from") +
                   " rank " + std::to_string(peer) + " of comm " + std::to_string(comm) + ", tag " +
                   std::to_string(tag) + " at " + time_text(time, clock_) + " s";
        });
        return false;
    }
    t = is_send ? Transfer{self, p.proc, comm, tag, bytes, time} : Transfer{p.proc, self, comm, tag, bytes, time};
    return true;
}

void RecordRouter::mpi_send(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                            uint64_t bytes)
{
    ++counts_.send;
    Transfer t;
    if (Proc self = process(location, time, "MpiSend");
        self != no_proc && route(self, true, peer, comm, tag, bytes, time, "MpiSend", t)) {
        order_.send(self, t);
    }
}

void RecordRouter::mpi_isend(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                             uint64_t bytes, uint64_t request)
{
    ++counts_.isend;
    if (Proc self = process(location, time, "MpiIsend"); self != no_proc) {
        Transfer t;
        bool usable = route(self, true, peer, comm, tag, bytes, time, "MpiIsend", t);
        order_.isend(self, request, t, usable);
    }
}

void RecordRouter::mpi_isend_complete(uint64_t location, Ticks time, uint64_t request)
{
    ++counts_.isend_complete;
    if (Proc self = process(location, time, "MpiIsendComplete"); self != no_proc) {
        order_.isend_complete(self, request);
    }
}

void RecordRouter::mpi_irecv_request(uint64_t location, Ticks time, uint64_t request)
{
    ++counts_.irecv_request;
    if (Proc self = process(location, time, "MpiIrecvRequest"); self != no_proc) {
        order_.irecv_request(self, request, time);
    }
}

void RecordRouter::mpi_recv(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                            uint64_t bytes)
{
    ++counts_.recv;
    Transfer t;
    if (Proc self = process(location, time, "MpiRecv");
        self != no_proc && route(self, false, peer, comm, tag, bytes, time, "MpiRecv", t)) {
        order_.recv(self, t);
    }
}

void RecordRouter::mpi_irecv(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                             uint64_t bytes, uint64_t request)
{
    ++counts_.irecv;
    if (Proc self = process(location, time, "MpiIrecv"); self != no_proc) {
        Transfer t;
        bool usable = route(self, false, peer, comm, tag, bytes, time, "MpiIrecv", t);
        order_.irecv(self, request, t, usable);
    }
}

void RecordRouter::mpi_request_cancelled(uint64_t location, Ticks time, uint64_t request)
{
    ++counts_.cancelled;
    if (Proc self = process(location, time, "MpiRequestCancelled"); self != no_proc) {
        order_.cancelled(self, request);
    }
}

} // namespace tessera::trace
