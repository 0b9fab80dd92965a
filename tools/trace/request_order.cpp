#include "request_order.h"

#include <algorithm>

#include "describe.h"
#include "time_format.h"

namespace tessera::trace {

RequestOrder::RequestOrder(size_t procs, TransferSink &sink, Warnings &warnings, const Clock &clock)
    : sends_(procs), recvs_(procs), sink_(sink), warnings_(warnings), clock_(clock)
{
}

void RequestOrder::hand_on(const Op &op, bool send)
{
    if (send) {
        sink_.sent(op.t);
    } else {
        sink_.received(op.t);
    }
}

void RequestOrder::append(Lane &lane, const Op &op)
{
    lane.ops.push_back(op);
    max_held_ = std::max(max_held_, ++held_);
}

void RequestOrder::drain(Lane &lane, bool send)
{
    while (!lane.ops.empty() && lane.ops.front().state != State::Waiting) {
        if (lane.ops.front().state == State::Ready) {
            hand_on(lane.ops.front(), send);
        }
        lane.ops.pop_front();
        ++lane.front_seq;
        --held_;
    }
}

bool RequestOrder::settle(Lane &lane, uint64_t request, State state, const Transfer *t)
{
    auto it = lane.open.find(request);
    if (it == lane.open.end()) {
        return false;
    }
    Op &op = lane.ops[it->second - lane.front_seq];
    lane.open.erase(it);
    if (t != nullptr) {
        op.t = *t;
    }
    op.state = op.usable ? state : State::Dropped;
    return true;
}

void RequestOrder::start(Lane &lane, Proc self, const Op &op, bool send)
{
    if (auto it = lane.open.find(op.request); it != lane.open.end()) {
        /* The first one can no longer be told apart: settle it as if never completed. */
        warnings_.add(WarningKind::DuplicateRequest, [&] {
            return "process " + std::to_string(self) + " started request " + std::to_string(op.request) +
                   " again at " + time_text(op.t.time, clock_) + " s";
        });
        Op &old = lane.ops[it->second - lane.front_seq];
        old.state = send && old.usable ? State::Ready : State::Dropped;
        lane.open.erase(it);
    }
    lane.open.emplace(op.request, lane.front_seq + lane.ops.size());
    append(lane, op);
    drain(lane, send);
}

void RequestOrder::send(Proc self, const Transfer &t)
{
    Lane &lane = sends_[self];
    if (lane.ops.empty()) {
        sink_.sent(t);
    } else {
        append(lane, Op{t, 0, State::Ready, true});
    }
}

void RequestOrder::recv(Proc self, const Transfer &t)
{
    Lane &lane = recvs_[self];
    if (lane.ops.empty()) {
        sink_.received(t);
    } else {
        append(lane, Op{t, 0, State::Ready, true});
    }
}

void RequestOrder::isend(Proc self, uint64_t request, const Transfer &t, bool usable)
{
    start(sends_[self], self, Op{t, request, State::Waiting, usable}, true);
}

void RequestOrder::irecv_request(Proc self, uint64_t request, Ticks time)
{
    /* Only who posts it and when is known until it completes. */
    Transfer unknown;
    unknown.receiver = self;
    unknown.time = time;
    start(recvs_[self], self, Op{unknown, request, State::Waiting, true}, false);
}

void RequestOrder::isend_complete(Proc self, uint64_t request)
{
    if (!settle(sends_[self], request, State::Ready, nullptr)) {
        warnings_.add(WarningKind::CompletionWithoutIsend, [&] {
            return "process " + std::to_string(self) + ", request " + std::to_string(request);
        });
        return;
    }
    drain(sends_[self], true);
}

void RequestOrder::irecv(Proc self, uint64_t request, const Transfer &t, bool usable)
{
    Lane &lane = recvs_[self];
    auto it = lane.open.find(request);
    if (it == lane.open.end()) {
        /* Posted before tracing began, perhaps: the completion is all there is, so it stands for both. */
        warnings_.add(WarningKind::IrecvWithoutRequest, [&] {
            return describe_receive(t, clock_) + ", request " + std::to_string(request);
        });
        if (usable) {
            recv(self, t);
        }
        return;
    }
    lane.ops[it->second - lane.front_seq].usable = usable;
    settle(lane, request, State::Ready, &t);
    drain(lane, false);
}

void RequestOrder::cancelled(Proc self, uint64_t request)
{
    if (settle(sends_[self], request, State::Dropped, nullptr)) {
        drain(sends_[self], true);
    } else if (settle(recvs_[self], request, State::Dropped, nullptr)) {
        drain(recvs_[self], false);
    }
}

void RequestOrder::finish()
{
    for (bool send : {true, false}) {
        std::vector<Lane> &lanes = send ? sends_ : recvs_;
        for (Proc p = 0; p < lanes.size(); ++p) {
            Lane &lane = lanes[p];
            for (Op &op : lane.ops) {
                if (op.state != State::Waiting) {
                    continue;
                }
                if (send) {
                    warnings_.add(WarningKind::IsendNeverCompleted, [&] {
                        return describe_send(op.t, clock_) + ", request " + std::to_string(op.request);
                    });
                    op.state = op.usable ? State::Ready : State::Dropped;
                } else {
                    warnings_.add(WarningKind::IrecvNeverCompleted, [&] {
                        return "process " + std::to_string(p) + ", request " + std::to_string(op.request) +
                               " posted at " + time_text(op.t.time, clock_) + " s";
                    });
                    op.state = State::Dropped;
                }
            }
            lane.open.clear();
            drain(lane, send);
        }
    }
}

} // namespace tessera::trace
