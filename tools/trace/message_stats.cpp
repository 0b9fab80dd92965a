#include "message_stats.h"

#include <algorithm>
#include <tuple>

namespace tessera::trace {

std::optional<double> PairStats::bandwidth(const Clock &clock) const
{
    if (timed_ticks <= 0) {
        return std::nullopt;
    }
    return static_cast<double>(timed_bytes) * static_cast<double>(clock.resolution) /
           static_cast<double>(timed_ticks);
}

void MessageStats::message(const Message &m)
{
    auto [it, fresh] = pairs_.try_emplace((uint64_t{m.sender} << 32) | m.receiver);
    PairStats &p = it->second;
    int64_t latency = m.latency();
    if (fresh) {
        p.sender = m.sender;
        p.receiver = m.receiver;
        p.latency_min = latency;
        p.latency_max = latency;
    }
    ++p.messages;
    p.bytes_sent += m.bytes_sent;
    p.bytes_received += m.bytes_received;
    p.latency_sum += latency;
    p.latency_min = std::min(p.latency_min, latency);
    p.latency_max = std::max(p.latency_max, latency);
    if (latency > 0) {
        p.timed_bytes += m.bytes_sent;
        p.timed_ticks += latency;
    }
    ++messages_;
    bytes_sent_ += m.bytes_sent;
    first_send_ = std::min(first_send_, m.send_time);
    last_receive_ = std::max(last_receive_, m.recv_time);
}

std::vector<PairStats> MessageStats::pairs() const
{
    std::vector<PairStats> v;
    v.reserve(pairs_.size());
    for (const auto &[key, p] : pairs_) {
        v.push_back(p);
    }
    std::sort(v.begin(), v.end(),
              [](const PairStats &a, const PairStats &b) { return std::tie(a.sender, a.receiver) < std::tie(b.sender, b.receiver); });
    return v;
}

} // namespace tessera::trace
