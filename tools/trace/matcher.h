/*
 * Message matching (seeds/otf2-message-matching.txt, "How to Match MPI Messages"): a send belongs to a
 * receive when sender, receiver, communicator and tag coincide, first with first, in issue order. The
 * seed matches two complete lists; here the records stream, so one FIFO per key holds whichever side
 * came first, and a message is handed on as soon as its second side arrives. The pairing is the same
 * (the i-th send of a key with its i-th receive), and memory holds only the unmatched sides.
 */
#ifndef TESSERA_TOOLS_TRACE_MATCHER_H
#define TESSERA_TOOLS_TRACE_MATCHER_H

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "request_order.h"
#include "trace_types.h"
#include "warnings.h"

namespace tessera::trace {

class Matcher : public TransferSink {
public:
    Matcher(MessageSink &out, Warnings &warnings, const Clock &clock);

    void sent(const Transfer &t) override;
    void received(const Transfer &t) override;
    /* End of the trace: what is still queued is a missing receive or a receive without a send. */
    void finish();

    uint64_t matched() const { return matched_; }
    size_t in_flight() const { return in_flight_; }
    size_t max_in_flight() const { return max_in_flight_; }

private:
    struct Key {
        Proc sender;
        Proc receiver;
        uint32_t comm;
        uint32_t tag;
        bool operator==(const Key &) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key &k) const;
    };
    static constexpr uint32_t none = UINT32_MAX;
    /* A FIFO of one side, as a list through the node pool (no allocation per message once warm). */
    struct Fifo {
        uint32_t head = none;
        uint32_t tail = none;
        bool sends = true;
    };
    struct Node {
        Transfer t;
        uint32_t next = none;
    };

    void arrive(const Transfer &t, bool is_send);
    void emit(const Transfer &send, const Transfer &recv);
    uint32_t take_node(const Transfer &t);

    std::unordered_map<Key, Fifo, KeyHash> queues_;
    std::vector<Node> pool_;
    uint32_t free_ = none;
    MessageSink &out_;
    Warnings &warnings_;
    const Clock &clock_;
    uint64_t matched_ = 0;
    size_t in_flight_ = 0;
    size_t max_in_flight_ = 0;
};

} // namespace tessera::trace

#endif
