/*
 * Non-blocking records to ordered sends and receives (seeds/otf2-message-matching.txt, "How to Process
 * Non-Blocking MPI Messages"). Matching depends on the order in which a process issued its operations,
 * but an Isend is only known to be a real send once it completes (it may be cancelled), and an Irecv
 * only says what it received when it completes. So each process keeps, per direction, its operations
 * in issue order; an operation is handed on once it and everything issued before it are settled.
 *
 * The seed attaches later operations to the blocked queue of the Isend before them and merges queues
 * as Isends complete; one FIFO per process and direction, drained from the front while the front is
 * settled, hands on exactly the same sequence. A send carries its Isend's time, a receive the time of
 * its completion.
 */
#ifndef TESSERA_TOOLS_TRACE_REQUEST_ORDER_H
#define TESSERA_TOOLS_TRACE_REQUEST_ORDER_H

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "trace_types.h"
#include "warnings.h"

namespace tessera::trace {

/* Where sends and receives go once in issue order (the matcher). */
class TransferSink {
public:
    virtual ~TransferSink() = default;
    virtual void sent(const Transfer &t) = 0;
    virtual void received(const Transfer &t) = 0;
};

class RequestOrder {
public:
    RequestOrder(size_t procs, TransferSink &sink, Warnings &warnings, const Clock &clock);

    /*
     * `usable` false: the record's peer could not be mapped (already warned about). Such an operation
     * still takes its place, so that its request completes quietly, but is never handed on.
     */
    void send(Proc self, const Transfer &t);
    void isend(Proc self, uint64_t request, const Transfer &t, bool usable);
    void isend_complete(Proc self, uint64_t request);
    void recv(Proc self, const Transfer &t);
    void irecv_request(Proc self, uint64_t request, Ticks time);
    void irecv(Proc self, uint64_t request, const Transfer &t, bool usable);
    /* A cancelled Isend or Irecv request is dropped; a request that is neither is ignored (seed). */
    void cancelled(Proc self, uint64_t request);

    /*
     * End of the trace: Isends never completed count as sent (MPI_Request_free'd sends do arrive),
     * Irecvs never completed are dropped; both are warned about, and everything they held is handed on.
     */
    void finish();

    /* Operations held back right now, for the memory report. */
    size_t held() const { return held_; }
    size_t max_held() const { return max_held_; }

private:
    enum class State : uint8_t { Waiting, Ready, Dropped };
    struct Op {
        Transfer t;
        uint64_t request = 0;
        State state = State::Ready;
        bool usable = true;
    };
    /* One process's operations of one direction, in issue order. */
    struct Lane {
        std::deque<Op> ops;
        uint64_t front_seq = 0;                      /* issue number of ops.front() */
        std::unordered_map<uint64_t, uint64_t> open; /* pending request -> issue number */
    };

    void append(Lane &lane, const Op &op);
    void start(Lane &lane, Proc self, const Op &op, bool send);
    /* Settles the pending request; false if the lane has none by that id. */
    bool settle(Lane &lane, uint64_t request, State state, const Transfer *t);
    void drain(Lane &lane, bool send);
    void hand_on(const Op &op, bool send);

    std::vector<Lane> sends_;
    std::vector<Lane> recvs_;
    TransferSink &sink_;
    Warnings &warnings_;
    const Clock &clock_;
    size_t held_ = 0;
    size_t max_held_ = 0;
};

} // namespace tessera::trace

#endif
