#include "matcher.h"

#include <algorithm>
#include <tuple>

#include "describe.h"

namespace tessera::trace {

size_t Matcher::KeyHash::operator()(const Key &k) const
{
    /* Two 64-bit halves through a multiply-xorshift mix: ranks and tags are small, dense numbers. */
    uint64_t a = (uint64_t{k.sender} << 32) | k.receiver;
    uint64_t b = (uint64_t{k.comm} << 32) | k.tag;
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull + (a << 6) + (a >> 2));
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return static_cast<size_t>(h ^ (h >> 29));
}

Matcher::Matcher(MessageSink &out, Warnings &warnings, const Clock &clock)
    : out_(out), warnings_(warnings), clock_(clock)
{
}

uint32_t Matcher::take_node(const Transfer &t)
{
    uint32_t n = free_;
    if (n != none) {
        free_ = pool_[n].next;
        pool_[n] = Node{t, none};
    } else {
        n = static_cast<uint32_t>(pool_.size());
        pool_.push_back(Node{t, none});
    }
    max_in_flight_ = std::max(max_in_flight_, ++in_flight_);
    return n;
}

void Matcher::emit(const Transfer &send, const Transfer &recv)
{
    Message m{send.sender, send.receiver, send.comm, send.tag, send.bytes, recv.bytes, send.time, recv.time};
    ++matched_;
    if (m.latency() <= 0) {
        warnings_.add(WarningKind::NonPositiveDuration, [&] { return describe_message(m, clock_); });
    }
    if (m.bytes_sent > m.bytes_received) {
        warnings_.add(WarningKind::SendLargerThanReceive, [&] { return describe_message(m, clock_); });
    }
    out_.message(m);
}

void Matcher::arrive(const Transfer &t, bool is_send)
{
    Key key{t.sender, t.receiver, t.comm, t.tag};
    auto [it, fresh] = queues_.try_emplace(key);
    Fifo &q = it->second;
    if (fresh || q.sends == is_send) {
        q.sends = is_send;
        uint32_t n = take_node(t);
        if (q.tail == none) {
            q.head = n;
        } else {
            pool_[q.tail].next = n;
        }
        q.tail = n;
        return;
    }
    /* The other side is waiting: the oldest one is this record's partner. */
    uint32_t n = q.head;
    Transfer other = pool_[n].t;
    q.head = pool_[n].next;
    pool_[n].next = free_;
    free_ = n;
    --in_flight_;
    if (q.head == none) {
        queues_.erase(it);
    }
    if (is_send) {
        emit(t, other);
    } else {
        emit(other, t);
    }
}

void Matcher::sent(const Transfer &t)
{
    arrive(t, true);
}

void Matcher::received(const Transfer &t)
{
    arrive(t, false);
}

void Matcher::finish()
{
    /* Oldest first, so that the examples kept are the first ones of the run. */
    std::vector<std::pair<Transfer, bool>> left;
    left.reserve(in_flight_);
    for (const auto &[key, q] : queues_) {
        for (uint32_t n = q.head; n != none; n = pool_[n].next) {
            left.emplace_back(pool_[n].t, q.sends);
        }
    }
    std::stable_sort(left.begin(), left.end(), [](const auto &x, const auto &y) {
        const Transfer &a = x.first;
        const Transfer &b = y.first;
        return std::tie(a.time, a.sender, a.receiver, a.comm, a.tag) <
               std::tie(b.time, b.sender, b.receiver, b.comm, b.tag);
    });
    for (const auto &[t, is_send] : left) {
        // Init-captures: clang before 16 cannot capture a structured binding.
        if (is_send) {
            warnings_.add(WarningKind::MissingReceive, [&, &t = t] { return describe_send(t, clock_); });
        } else {
            warnings_.add(WarningKind::ReceiveWithoutSend, [&, &t = t] { return describe_receive(t, clock_); });
        }
    }
    queues_.clear();
    pool_.clear();
    free_ = none;
    in_flight_ = 0;
}

} // namespace tessera::trace
