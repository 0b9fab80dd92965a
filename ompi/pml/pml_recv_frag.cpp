/* Fragments as the transports hand them over: matching ones in sequence order per sender (and those
 * of a communicator not created here yet, or freed here), rendezvous data, FIN (docs/p2p.md). */
#include "ompi/pml/pml_engine_private.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "mca/report.h"
#include "ompi/pml/pml_peer_order.h"
#include "ompi/tool/mpit_feed.h"

namespace tessera::ompi::pml {

namespace {

/* Under the state's lock. */
void match_or_queue(CommState *state, const MatchHeader &h, tessera_proc_t *proc, const char *data, std::size_t len)
{
    if (tool::counting()) [[unlikely]] {
        tool::count_message_received(proc, h.length);
    }
    for (Request *r = state->posted.head; r != nullptr; r = r->next) {
        if (matches(r, h.source, h.tag)) {
            state->posted.erase(r);
            deliver(r, h, proc, data);
            return;
        }
    }
    keep_message(state->pool, state->unexpected, state->unexpected.end(), h, proc, data, len);
    state->unexpected_hwm = std::max(state->unexpected_hwm, state->unexpected.size());
    if (tool::raising()) [[unlikely]] {
        tool::raise_unexpected(static_cast<int>(h.context), h.source, h.tag, h.length);
    }
}

/* A message of a communicator freed here before it was received: the one now holding (or next taking)
 * its context id has a later generation, and must not receive it. Said, not silently dropped: the
 * program sent something nobody will receive. */
void drop_stale(const MatchHeader &h, tessera_proc_t *proc)
{
    tessera::mca::report(tessera::mca::Severity::Warning,
                         "a message of " + std::to_string(h.length) + " bytes (tag " + std::to_string(h.tag) +
                             ") from process " + std::to_string(proc != nullptr ? proc->proc_name.rank : 0) +
                             " on a communicator this process freed before receiving it (context id " +
                             std::to_string(h.context) + ") was dropped");
}

/* Adds the time from `start` (0: not counting) to pml_match_time when matching one fragment ends. */
struct MatchTimer {
    uint64_t start;
    ~MatchTimer()
    {
        if (start != 0) [[unlikely]] {
            tool::count_match_time(tool::clock_ns() - start);
        }
    }
};

} // namespace

void on_match(const MatchHeader &h, tessera_proc_t *proc, const char *data, std::size_t len)
{
    /* In a progress pass: the table and the early fragments change only under the gate (comm_attach,
     * comm_detach), so a state found here lives until the pass ends. */
    CommState *state = h.context < states_by_context.size() ? states_by_context[h.context] : nullptr;
    if (state == nullptr || h.generation > state->comm->generation) {
        /* for the communicator that takes the id */
        keep_message(early_pool, early, early.end(), h, proc, data, len);
        return;
    }
    if (h.generation < state->comm->generation) {
        drop_stale(h, proc);
        return;
    }
    const uint64_t match_start = tool::counting() ? tool::clock_ns() : 0;
    MatchTimer timer{match_start};
    std::lock_guard lock(state->lock);
    if (h.source < 0 || static_cast<std::size_t>(h.source) >= state->peers.size()) {
        return; /* no such rank: nothing can receive it */
    }
    PeerState &peer = state->peers[static_cast<std::size_t>(h.source)];
    if (h.seq != peer.recv_seq) {
        /* Ahead of its turn: held in sequence order (it usually goes last). */
        auto pos = peer.held.end();
        while (pos != peer.held.begin() && seq_before(h.seq, std::prev(pos)->header.seq)) {
            --pos;
        }
        keep_message(state->pool, peer.held, pos, h, proc, data, len);
        return;
    }
    match_or_queue(state, h, proc, data, len);
    ++peer.recv_seq;
    while (!peer.held.empty() && peer.held.front().header.seq == peer.recv_seq) {
        MessageList turn;
        turn.splice(turn.begin(), peer.held, peer.held.begin());
        const KeptMessage &m = turn.front();
        match_or_queue(state, m.header, m.proc, m.data.data(), m.data.size());
        ++peer.recv_seq;
        drop_message(state->pool, turn, turn.begin());
    }
}

namespace {

void on_data(const DataHeader &h, const char *data, std::size_t len)
{
    auto *r = reinterpret_cast<Request *>(h.receiver);
    back_from_peer(r);
    const auto offset = static_cast<std::size_t>(h.offset);
    if (offset < r->bytes) {
        convertor_unpack(r->rbuf, r->count, *r->type, offset, data, std::min(len, r->bytes - offset));
    }
    r->delivered += len;
    if (r->delivered >= r->msg_bytes) {
        {
            opal::LockGuard lock(queues_lock);
            receiving.erase(r);
        }
        complete(r);
    }
}

/* A fragment a transport handed over in several segments, in one piece (the calling thread's buffer).
 * Apart from on_fragment, so that the common single segment does not pay for the thread-local buffer
 * (a __tls_get_addr call in a shared library) on every fragment. */
[[gnu::noinline]] std::pair<const char *, std::size_t> gather(const mca_btl_base_recv_desc_t *desc)
{
    thread_local std::vector<char> gathered;
    gathered.clear();
    for (std::size_t i = 0; i < desc->segment_count; ++i) {
        const auto *p = static_cast<const char *>(desc->segments[i].seg_addr);
        gathered.insert(gathered.end(), p, p + desc->segments[i].seg_len);
    }
    return {gathered.data(), gathered.size()};
}

} // namespace

void on_fragment(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *desc, void *)
{
    /* The fragment in one piece: most transports hand it over so; gather it when they do not. */
    const auto [bytes, len] = desc->segment_count == 1
                                  ? std::pair{static_cast<const char *>(desc->segments[0].seg_addr),
                                              static_cast<std::size_t>(desc->segments[0].seg_len)}
                                  : gather(desc);
    if (len == 0) {
        return;
    }
    switch (static_cast<FragType>(bytes[0])) {
    case FragType::Eager:
    case FragType::Rts: {
        MatchHeader h;
        std::memcpy(&h, bytes, sizeof h);
        on_match(h, desc->proc, bytes + sizeof h, len - sizeof h);
        break;
    }
    case FragType::Cts: {
        CtsHeader h;
        std::memcpy(&h, bytes, sizeof h);
        on_cts(h);
        break;
    }
    case FragType::Data: {
        DataHeader h;
        std::memcpy(&h, bytes, sizeof h);
        on_data(h, bytes + sizeof h, len - sizeof h);
        break;
    }
    case FragType::Fin: {
        opal::LockGuard lock(queues_lock);
        finalizing_peers.push_back(desc->proc);
        break;
    }
    }
}

} // namespace tessera::ompi::pml
