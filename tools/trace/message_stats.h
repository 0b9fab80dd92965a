/*
 * The communication matrix and per-pair figures, accumulated message by message: counts and bytes,
 * latency (receive time minus send time, so it includes any wait for the receiver) and bandwidth.
 * Memory grows with the pairs that communicate, not with the messages.
 */
#ifndef TESSERA_TOOLS_TRACE_MESSAGE_STATS_H
#define TESSERA_TOOLS_TRACE_MESSAGE_STATS_H

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "trace_types.h"

namespace tessera::trace {

struct PairStats {
    Proc sender = no_proc;
    Proc receiver = no_proc;
    uint64_t messages = 0;
    uint64_t bytes_sent = 0;
    uint64_t bytes_received = 0;
    int64_t latency_sum = 0;
    int64_t latency_min = 0;
    int64_t latency_max = 0;
    /* Messages with a positive latency only: the others say nothing about speed. */
    uint64_t timed_bytes = 0;
    int64_t timed_ticks = 0;

    double mean_latency() const { return messages ? static_cast<double>(latency_sum) / messages : 0.0; }
    /* Bytes per second over the timed messages; none when no message took time. */
    std::optional<double> bandwidth(const Clock &clock) const;
};

class MessageStats : public MessageSink {
public:
    void message(const Message &m) override;

    /* Every pair that exchanged a message, by sender then receiver. */
    std::vector<PairStats> pairs() const;
    uint64_t messages() const { return messages_; }
    uint64_t bytes_sent() const { return bytes_sent_; }
    /* First send and last receive of a matched message. */
    Ticks first_send() const { return first_send_; }
    Ticks last_receive() const { return last_receive_; }

private:
    std::unordered_map<uint64_t, PairStats> pairs_;
    uint64_t messages_ = 0;
    uint64_t bytes_sent_ = 0;
    Ticks first_send_ = UINT64_MAX;
    Ticks last_receive_ = 0;
};

} // namespace tessera::trace

#endif
