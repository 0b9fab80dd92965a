/* The sender's side: eager sends and control fragments (queued while a transport is full), and the
 * rendezvous: RTS, then on the CTS the data fragments striped over every module that reaches the peer
 * (docs/p2p.md). */
#include "ompi/pml/pml_engine_private.h"

#include <algorithm>
#include <vector>

#include "ompi/datatype/datatype_derived.h"
#include "ompi/pml/pml_contention.h"
#include "ompi/tool/mpit_feed.h"

namespace tessera::ompi::pml {

namespace {

void send_done(mca_btl_base_module_t *, mca_btl_base_endpoint_t *, void *data, int status)
{
    auto *r = static_cast<Request *>(data);
    if (status != TESSERA_SUCCESS) {
        r->status.MPI_ERROR = MPI_ERR_OTHER;
    }
    /* A rendezvous send completes in progress_sends, where it waits in active_sends. Read before the
     * count drops: from then on the request may be another thread's to complete. */
    const bool rendezvous = r->rendezvous;
    if (r->in_flight.add(-1) == 0 && !rendezvous) {
        complete(r);
    }
}

/* Hands a fragment to the peer's first module. Under MPI_THREAD_MULTIPLE a request it completes counts
 * the fragment before the btl sees it: the btl's done callback may run in another thread's progress pass
 * before btl_send has returned here. An `owned` request (Ownership) has no fragment out, so until the
 * btl has it nobody else writes the count: plain stores, not locked adds. */
int try_send(tessera_proc_t *proc, const void *header, std::size_t header_len, const char *payload,
             std::size_t payload_len, Request *completes, bool owned)
{
    mca_btl_base_peer_t *peer = mca_btl_base_peer(proc);
    if (peer == nullptr || peer->count == 0) {
        return TESSERA_ERR_UNREACH;
    }
    mca_btl_base_module_t *m = peer->modules[0].btl;
    const mca_btl_base_segment_t segments[2] = {{header, header_len}, {payload, payload_len}};
    const bool counted_first = completes != nullptr && opal::using_threads();
    if (counted_first) {
        if (owned) {
            completes->in_flight = 1;
        } else {
            completes->in_flight.add(1);
        }
    }
    const int rc = m->btl_send(m, peer->modules[0].endpoint, kTag, segments, payload_len != 0 ? 2 : 1,
                               completes != nullptr ? send_done : nullptr, completes);
    if (tool::counting() && (rc == TESSERA_SUCCESS || rc == MCA_BTL_SEND_COMPLETE)) [[unlikely]] {
        tool::count_fragment(m, header_len + payload_len, false);
    }
    if (counted_first && rc != TESSERA_SUCCESS) { /* no callback will come */
        if (owned) {
            completes->in_flight = 0;
        } else {
            completes->in_flight.add(-1);
        }
    } else if (!counted_first && completes != nullptr && rc == TESSERA_SUCCESS) {
        completes->in_flight.add(1); /* one thread: the callback comes from a later progress() */
    }
    return rc;
}

void set_pending_any()
{
    pending_any.store(!pending.empty(), std::memory_order_release);
}

} // namespace

int send_control(tessera_proc_t *proc, const void *header, std::size_t header_len, const char *payload,
                 std::size_t payload_len, Request *completes, Ownership ownership)
{
    const bool owned = ownership == Ownership::Owned;
    /* Behind what waits already; a sender that looks while another thread queues goes first, which only
     * fragments of other (communicator, peer) pairs (that thread holds the order of its own) or of the
     * same pair sent from two threads at once (the receiver orders those by sequence number) can see. */
    if (!pending_any.load(std::memory_order_acquire)) {
        const int rc = try_send(proc, header, header_len, payload, payload_len, completes, owned);
        if (rc == MCA_BTL_SEND_COMPLETE) {
            if (owned) {
                complete_owned(completes);
            } else if (completes != nullptr) {
                complete(completes);
            }
            return TESSERA_SUCCESS;
        }
        if (rc == TESSERA_SUCCESS) {
            return rc;
        }
        if (rc != TESSERA_ERR_OUT_OF_RESOURCE) {
            return rc;
        }
    }
    const auto *h = static_cast<const char *>(header);
    opal::LockGuard lock(queues_lock);
    pending.push_back(Pending{proc, std::vector<char>(h, h + header_len), payload, payload_len, completes});
    set_pending_any();
    return TESSERA_SUCCESS;
}

/* In a progress pass (the gate held): only this thread takes fragments off the front, so the front stays
 * what it was while it is sent with queues_lock let go (a btl may call back into the engine). */
int progress_pending()
{
    int events = 0;
    for (;;) {
        Pending p;
        {
            opal::LockGuard lock(queues_lock);
            if (pending.empty()) {
                break;
            }
            p = std::move(pending.front());
            pending.pop_front();
            set_pending_any();
        }
        const int rc =
            try_send(p.proc, p.header.data(), p.header.size(), p.payload, p.payload_len, p.completes, false);
        if (rc == TESSERA_ERR_OUT_OF_RESOURCE) {
            /* Back at the front, and nothing more this pass: order is kept. */
            opal::LockGuard lock(queues_lock);
            pending.push_front(std::move(p));
            set_pending_any();
            break;
        }
        if (rc == MCA_BTL_SEND_COMPLETE && p.completes != nullptr) {
            complete(p.completes);
        } else if (rc != MCA_BTL_SEND_COMPLETE && rc != TESSERA_SUCCESS && p.completes != nullptr) {
            fail(p.completes, MPI_ERR_OTHER);
        }
        ++events;
    }
    return events;
}

namespace {

/* Pushes a rendezvous send's data fragments, round-robin (or weighted) over the peer's modules.
 * True when the send is finished (every byte taken and released by the transports, or failed): the
 * caller takes it out of its queue and completes it. */
bool push_data(Request *s)
{
    mca_btl_base_peer_t *peer = mca_btl_base_peer(s->proc);
    if (peer == nullptr || peer->count == 0) {
        s->status.MPI_ERROR = MPI_ERR_OTHER;
        return s->in_flight == 0;
    }
    const char *source = s->type->contiguous ? convertor_contiguous(s->sbuf, *s->type) : s->packed.data();
    while (s->scheduled < s->bytes && s->in_flight < params.pipeline_depth) {
        const std::size_t index = mca_btl_base_stripe_next(&s->stripe, peer);
        mca_btl_base_module_t *m = peer->modules[index].btl;
        const std::size_t room = m->btl_max_send_size - sizeof(DataHeader);
        const std::size_t n = std::min(room, s->bytes - s->scheduled);
        /* Packed here, one fragment ahead of the transports (unless it was packed whole for a single
         * copy): the first fragment leaves after one fragment's packing, not the whole message's. */
        pack_until(s, s->scheduled + n);
        DataHeader h{FragType::Data, {}, s->remote, s->scheduled};
        const mca_btl_base_segment_t segments[2] = {{&h, sizeof h}, {source + s->scheduled, n}};
        s->in_flight.add(1); /* before the btl sees it: see try_send */
        const int rc = m->btl_send(m, peer->modules[index].endpoint, kTag, segments, 2, send_done, s);
        if (tool::counting() && (rc == TESSERA_SUCCESS || rc == MCA_BTL_SEND_COMPLETE)) [[unlikely]] {
            tool::count_fragment(m, sizeof h + n, true);
        }
        if (rc != TESSERA_SUCCESS) {
            s->in_flight.add(-1);
        }
        if (rc == TESSERA_ERR_OUT_OF_RESOURCE) {
            break;
        }
        if (rc != MCA_BTL_SEND_COMPLETE && rc != TESSERA_SUCCESS) {
            s->status.MPI_ERROR = MPI_ERR_OTHER;
            s->scheduled = s->bytes;
            break;
        }
        s->scheduled += n;
    }
    return s->scheduled >= s->bytes && s->in_flight == 0;
}

} // namespace

int progress_sends()
{
    int events = 0;
    for (Request *s = active_sends.head; s != nullptr;) {
        Request *next = s->next;
        const std::size_t before = s->scheduled;
        if (push_data(s)) {
            active_sends.erase(s);
            complete(s);
            ++events;
        } else {
            events += s->scheduled != before;
        }
        s = next;
    }
    return events;
}

void on_cts(const CtsHeader &h)
{
    auto *s = reinterpret_cast<Request *>(h.sender);
    {
        opal::LockGuard lock(queues_lock);
        awaiting_cts.erase(s);
    }
    s->matched = true;
    if (h.receiver == 0 || s->bytes == 0) { /* the receiver read the data itself (single copy), or none */
        complete(s);
        return;
    }
    s->remote = h.receiver;
    mca_btl_base_stripe_init(&s->stripe, mca_btl_base_peer(s->proc));
    if (push_data(s)) {
        complete(s);
    } else {
        active_sends.push_back(s);
    }
}

int start_send(Request *r)
{
    r->proc = r->comm->peers()[static_cast<std::size_t>(r->peer)];
    mca_btl_base_peer_t *peer = mca_btl_base_peer(r->proc);
    if (peer == nullptr || peer->count == 0) {
        return MPI_ERR_OTHER;
    }
    r->bytes = r->count * r->type->size;
    restart(r);
    if (tool::counting()) [[unlikely]] {
        tool::count_message_sent(r->proc, r->bytes);
    }
    auto *state = static_cast<CommState *>(r->comm->pml);
    PeerState &ps = state->peers[static_cast<std::size_t>(r->peer)];
    if (!r->type->contiguous) {
        r->packed.resize(r->bytes);
    }
    const char *payload = r->type->contiguous ? convertor_contiguous(r->sbuf, *r->type) : r->packed.data();
    MatchHeader h{};
    h.context = r->comm->context_id;
    h.generation = r->comm->generation;
    h.source = r->comm->rank;
    h.tag = r->tag;
    h.seq = ps.send_seq.take();
    h.length = r->bytes;
    const std::size_t limit =
        std::min(params.eager_limit != 0 ? params.eager_limit : peer->modules[0].btl->btl_eager_limit,
                 peer->modules[0].btl->btl_max_send_size);
    if (r->mode != SendMode::Sync && r->bytes + sizeof h <= limit) {
        pack_until(r, r->bytes);
        h.type = FragType::Eager;
        r->scheduled = r->bytes;
        const int rc = send_control(r->proc, &h, sizeof h, payload, r->bytes, r, Ownership::Owned);
        return rc == TESSERA_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
    }
    h.type = FragType::Rts;
    h.sender = reinterpret_cast<uint64_t>(r);
    r->rendezvous = true;
    const mca_btl_base_module_t *first = peer->modules[0].btl;
    /* auto offers every contiguous message big enough, and the receiver decides: it reads when either
     * side is contended (the flag brings the sender's view), and streams otherwise. */
    const bool automatic = params.single_copy == kSingleCopyAuto;
    const bool wanted = params.single_copy == kSingleCopyAlways ||
                        (params.single_copy == kSingleCopyExchange && r->exchange) ||
                        (automatic && r->type->contiguous && r->bytes >= params.single_copy_min);
    const bool offer = wanted && peer->count == 1 && (first->btl_flags & MCA_BTL_FLAG_GET) != 0 && r->bytes > 0;
    if (offer && automatic && cpu_contended()) {
        h.flags |= kRtsContended;
    }
    if (offer) {
        /* The receiver reads the packed message as soon as the RTS arrives: whole before it leaves. */
        pack_until(r, r->bytes);
        h.flags |= kRtsAddress;
        r->address = reinterpret_cast<uint64_t>(payload);
    }
    /* Listed before the RTS leaves: the CTS may come back inside send_control (btl self), or in another
     * thread's progress pass before send_control has returned. */
    {
        opal::LockGuard lock(queues_lock);
        awaiting_cts.push_back(r);
    }
    const uint64_t *address = &r->address;
    const int rc = send_control(r->proc, &h, sizeof h, offer ? reinterpret_cast<const char *>(address) : nullptr,
                                offer ? sizeof r->address : 0, nullptr);
    if (rc != TESSERA_SUCCESS) {
        {
            opal::LockGuard lock(queues_lock);
            awaiting_cts.erase(r);
        }
        r->complete = true;
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::pml
