/* The matching engine: posted and unexpected queues per communicator, eager and rendezvous protocols,
 * striping of rendezvous data over every module that reaches the peer (docs/p2p.md). */
#include "ompi/pml/pml_engine.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/btl/base/base.h"
#include "mca/report.h"
#include "mca/var.h"
#include "ompi/datatype/convertor.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/pml.h"
#include "ompi/pml/pml_internal.h"
#include "ompi/pml/pml_queues.h"
#include "ompi/pml/pml_wire.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::pml {

Params params;
int idle_spins = Params{}.poll_spins;
bool oversubscribed = false;

namespace {

constexpr mca_btl_base_tag_t kTag = MCA_BTL_TAG_PML;

const mca_var_enum_value_t single_copy_values[] = {
    {kSingleCopyNever, "never"},
    {kSingleCopyExchange, "exchange"},
    {kSingleCopyAlways, "always"},
    {0, nullptr},
};

const mca_var_enum_value_t yield_values[] = {
    {kYieldOff, "off"},
    {kYieldOn, "on"},
    {kYieldAuto, "auto"},
    {0, nullptr},
};

struct PeerState {
    uint32_t send_seq = 0;
    uint32_t recv_seq = 0;
    MessageList held; /* fragments ahead of recv_seq, by sequence number */
};

struct CommState {
    Communicator *comm = nullptr;
    RequestList posted;     /* receives in posting order */
    MessageList unexpected; /* in arrival order */
    std::vector<PeerState> peers;
};

/* Sequence numbers wrap: a is before b when the distance from b back to a is short. */
bool seq_before(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) < 0;
}

/* A control fragment the btl could not take yet; sent in order by progress(). */
struct Pending {
    tessera_proc_t *proc;
    std::vector<char> header;
    const char *payload;
    std::size_t payload_len;
    Request *completes; /* an eager send completes once its fragment is taken */
};

std::vector<CommState *> states_by_context;
/* Matching fragments for a context no communicator of this process has yet: a peer may start using a
 * new communicator as soon as its own creation call returns, before this process has finished its own
 * (comm_attach replays them). */
MessageList early;
std::deque<Pending> pending;
RequestList awaiting_cts; /* rendezvous sends whose RTS is out */
RequestList active_sends; /* rendezvous sends moving their data */
RequestList receiving;    /* matched rendezvous receives waiting for their data */
std::vector<const tessera_proc_t *> finalizing_peers; /* whose FIN came: they receive nothing more */
std::vector<ProgressHook> progress_hooks;
bool running = false;
bool yield_enabled = true; /* mpi_yield_when_idle, resolved by init() */

CommState *state_of(uint32_t context)
{
    return context < states_by_context.size() ? states_by_context[context] : nullptr;
}

void complete(Request *r)
{
    r->complete = true;
    Request *parent = r->parent;
    if (parent != nullptr) {
        /* A child of a compound request: the receive's status is the parent's; a failed send shows
         * as the parent's error when the receive succeeded. */
        if (r->kind == Kind::Recv) {
            const int error = parent->status.MPI_ERROR;
            parent->status = r->status;
            if (r->status.MPI_ERROR == MPI_SUCCESS && error != MPI_SUCCESS) {
                parent->status.MPI_ERROR = error;
            }
        } else if (r->status.MPI_ERROR != MPI_SUCCESS) {
            parent->status.MPI_ERROR = r->status.MPI_ERROR;
        }
        request_release(r);
        if (--parent->children == 0) {
            complete(parent);
        }
        return;
    }
    if (r->freed) {
        r->active = false;
        request_release(r);
    }
}

void fail(Request *r, int code)
{
    r->status.MPI_ERROR = code;
    complete(r);
}

/* Sends one control fragment on the peer's first module, behind any already waiting. */
int send_control(tessera_proc_t *proc, const void *header, std::size_t header_len, const char *payload,
                 std::size_t payload_len, Request *completes);

void send_done(mca_btl_base_module_t *, mca_btl_base_endpoint_t *, void *data, int status)
{
    auto *r = static_cast<Request *>(data);
    --r->in_flight;
    if (status != TESSERA_SUCCESS) {
        r->status.MPI_ERROR = MPI_ERR_OTHER;
    }
    /* A rendezvous send completes in progress_sends, where it waits in active_sends. */
    if (!r->rendezvous && r->in_flight == 0 && !r->complete) {
        complete(r);
    }
}

int try_send(tessera_proc_t *proc, const void *header, std::size_t header_len, const char *payload,
             std::size_t payload_len, Request *completes)
{
    mca_btl_base_peer_t *peer = mca_btl_base_peer(proc);
    if (peer == nullptr || peer->count == 0) {
        return TESSERA_ERR_UNREACH;
    }
    mca_btl_base_module_t *m = peer->modules[0].btl;
    const mca_btl_base_segment_t segments[2] = {{header, header_len}, {payload, payload_len}};
    const int rc = m->btl_send(m, peer->modules[0].endpoint, kTag, segments, payload_len != 0 ? 2 : 1,
                               completes != nullptr ? send_done : nullptr, completes);
    if (rc == TESSERA_SUCCESS && completes != nullptr) {
        ++completes->in_flight;
    }
    return rc;
}

int send_control(tessera_proc_t *proc, const void *header, std::size_t header_len, const char *payload,
                 std::size_t payload_len, Request *completes)
{
    if (pending.empty()) {
        const int rc = try_send(proc, header, header_len, payload, payload_len, completes);
        if (rc == MCA_BTL_SEND_COMPLETE) {
            if (completes != nullptr) {
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
    pending.push_back(Pending{proc, std::vector<char>(h, h + header_len), payload, payload_len, completes});
    return TESSERA_SUCCESS;
}

int progress_pending()
{
    int events = 0;
    while (!pending.empty()) {
        Pending &p = pending.front();
        const int rc = try_send(p.proc, p.header.data(), p.header.size(), p.payload, p.payload_len, p.completes);
        if (rc == TESSERA_ERR_OUT_OF_RESOURCE) {
            break;
        }
        if (rc == MCA_BTL_SEND_COMPLETE && p.completes != nullptr) {
            complete(p.completes);
        } else if (rc != MCA_BTL_SEND_COMPLETE && rc != TESSERA_SUCCESS && p.completes != nullptr) {
            fail(p.completes, MPI_ERR_OTHER);
        }
        pending.pop_front();
        ++events;
    }
    return events;
}

/* A send of a non-contiguous type: packs its message up to byte `end` (what is packed already stays). */
void pack_until(Request *s, std::size_t end)
{
    if (!s->type->contiguous && s->packed_upto < end) {
        convertor_pack(s->sbuf, s->count, *s->type, s->packed_upto, s->packed.data() + s->packed_upto,
                       end - s->packed_upto);
        s->packed_upto = end;
    }
}

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
        const int rc = m->btl_send(m, peer->modules[index].endpoint, kTag, segments, 2, send_done, s);
        if (rc == TESSERA_ERR_OUT_OF_RESOURCE) {
            break;
        }
        if (rc != MCA_BTL_SEND_COMPLETE && rc != TESSERA_SUCCESS) {
            s->status.MPI_ERROR = MPI_ERR_OTHER;
            s->scheduled = s->bytes;
            break;
        }
        if (rc == TESSERA_SUCCESS) {
            ++s->in_flight;
        }
        s->scheduled += n;
    }
    return s->scheduled >= s->bytes && s->in_flight == 0;
}

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

/* MPI_ANY_TAG takes user tags only: the library's own traffic (negative tags, pml_internal.h) stays out
 * of reach of every wildcard receive and probe. */
bool tag_matches(int wanted, int tag)
{
    return wanted == tag || (wanted == MPI_ANY_TAG && tag >= 0);
}

bool matches(const Request *r, int source, int tag)
{
    return (r->peer == MPI_ANY_SOURCE || r->peer == source) && tag_matches(r->tag, tag);
}

/* Single copy: reads the sender's data (its address follows the RTS) straight into the receive
 * buffer through the peer's only module, in pieces of btl_get_limit. False when the module cannot
 * (then the fragments protocol follows). */
bool pull(Request *r, tessera_proc_t *proc, const char *data, std::size_t keep)
{
    mca_btl_base_peer_t *peer = mca_btl_base_peer(proc);
    if (peer == nullptr || peer->count != 1) {
        return false;
    }
    mca_btl_base_module_t *m = peer->modules[0].btl;
    if ((m->btl_flags & MCA_BTL_FLAG_GET) == 0 || m->btl_get == nullptr) {
        return false;
    }
    uint64_t address = 0;
    std::memcpy(&address, data, sizeof address);
    char *dst = static_cast<char *>(r->rbuf) + r->type->true_lb;
    const std::size_t piece = m->btl_get_limit != 0 ? m->btl_get_limit : keep;
    for (std::size_t done = 0; done < keep;) {
        const std::size_t n = std::min(piece, keep - done);
        if (m->btl_get(m, peer->modules[0].endpoint, dst + done, address + done, n) != TESSERA_SUCCESS) {
            return false;
        }
        done += n;
    }
    r->delivered = r->msg_bytes;
    return true;
}

/* A receive meets its message: deliver an eager one, answer a rendezvous request. */
void deliver(Request *r, const MatchHeader &h, tessera_proc_t *proc, const char *data)
{
    r->matched = true;
    r->status.MPI_SOURCE = h.source;
    r->status.MPI_TAG = h.tag;
    r->msg_bytes = static_cast<std::size_t>(h.length);
    const std::size_t keep = std::min(r->msg_bytes, r->bytes);
    status_set_count(&r->status, keep);
    if (r->msg_bytes > r->bytes) {
        r->status.MPI_ERROR = MPI_ERR_TRUNCATE;
    } else if (r->msg_bytes < r->bytes && datatype_elements_in(r->type, r->msg_bytes) < 0) {
        /* The sender's type signature is not a prefix of the receiver's (MPI-4.1 3.3.1): caught where
         * it shows, a message that stops inside a basic element. */
        r->status.MPI_ERROR = MPI_ERR_TYPE;
    }
    if (h.type == FragType::Eager) {
        convertor_unpack(r->rbuf, r->count, *r->type, 0, data, keep);
        complete(r);
        return;
    }
    r->proc = proc;
    if ((h.flags & kRtsAddress) != 0 && keep > 0 && r->type->contiguous && pull(r, proc, data, keep)) {
        /* The data is in place: the CTS only tells the sender it may complete. */
        CtsHeader done{FragType::Cts, {}, h.sender, 0};
        if (send_control(proc, &done, sizeof done, nullptr, 0, nullptr) != TESSERA_SUCCESS) {
            fail(r, MPI_ERR_OTHER);
            return;
        }
        complete(r);
        return;
    }
    /* Waiting for the data from here on (the CTS may bring it at once over self). */
    const bool data_follows = r->msg_bytes > 0;
    if (data_follows) {
        receiving.push_back(r);
    }
    CtsHeader cts{FragType::Cts, {}, h.sender, reinterpret_cast<uint64_t>(r)};
    const int rc = send_control(proc, &cts, sizeof cts, nullptr, 0, nullptr);
    if (rc != TESSERA_SUCCESS) {
        if (data_follows) {
            receiving.erase(r);
        }
        fail(r, MPI_ERR_OTHER);
        return;
    }
    if (!data_follows) {
        complete(r);
    }
}

void match_or_queue(CommState *state, const MatchHeader &h, tessera_proc_t *proc, const char *data, std::size_t len)
{
    for (Request *r = state->posted.head; r != nullptr; r = r->next) {
        if (matches(r, h.source, h.tag)) {
            state->posted.erase(r);
            deliver(r, h, proc, data);
            return;
        }
    }
    keep_message(state->unexpected, state->unexpected.end(), h, proc, data, len);
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

void on_match(const MatchHeader &h, tessera_proc_t *proc, const char *data, std::size_t len)
{
    CommState *state = state_of(h.context);
    if (state == nullptr || h.generation > state->comm->generation) {
        keep_message(early, early.end(), h, proc, data, len); /* for the communicator that takes the id */
        return;
    }
    if (h.generation < state->comm->generation) {
        drop_stale(h, proc);
        return;
    }
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
        keep_message(peer.held, pos, h, proc, data, len);
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
        drop_message(turn, turn.begin());
    }
}

void on_cts(const CtsHeader &h)
{
    auto *s = reinterpret_cast<Request *>(h.sender);
    awaiting_cts.erase(s);
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

void on_data(const DataHeader &h, const char *data, std::size_t len)
{
    auto *r = reinterpret_cast<Request *>(h.receiver);
    const auto offset = static_cast<std::size_t>(h.offset);
    if (offset < r->bytes) {
        convertor_unpack(r->rbuf, r->count, *r->type, offset, data, std::min(len, r->bytes - offset));
    }
    r->delivered += len;
    if (r->delivered >= r->msg_bytes) {
        receiving.erase(r);
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
    case FragType::Fin:
        finalizing_peers.push_back(desc->proc);
        break;
    }
}

/* Fails what involves a peer that is gone: sends to it and receives matched to it (or naming it as
 * their source), control fragments still queued for it, fragments of it held for their turn. */
void fail_peer(tessera_proc_t *proc)
{
    const auto fail_in = [proc](RequestList &list) {
        for (Request *r = list.head; r != nullptr;) {
            Request *next = r->next;
            if (r->proc == proc) {
                if (&list == &active_sends && r->in_flight > 0) {
                    /* The transport still owes the done callbacks; progress_sends completes it. */
                    r->status.MPI_ERROR = MPI_ERR_OTHER;
                    r->scheduled = r->bytes;
                } else {
                    list.erase(r);
                    fail(r, MPI_ERR_OTHER);
                }
            }
            r = next;
        }
    };
    fail_in(awaiting_cts);
    fail_in(active_sends);
    fail_in(receiving);
    for (auto it = pending.begin(); it != pending.end();) {
        if (it->proc == proc) {
            if (it->completes != nullptr) {
                fail(it->completes, MPI_ERR_OTHER);
            }
            it = pending.erase(it);
        } else {
            ++it;
        }
    }
    for (CommState *state : states_by_context) {
        if (state == nullptr) {
            continue;
        }
        const auto &procs = state->comm->peers();
        const auto found = std::find(procs.begin(), procs.end(), proc);
        if (found == procs.end()) {
            continue;
        }
        const int rank = static_cast<int>(found - procs.begin());
        for (Request *r = state->posted.head; r != nullptr;) {
            Request *next = r->next;
            if (r->peer == rank) {
                state->posted.erase(r);
                fail(r, MPI_ERR_OTHER);
            }
            r = next;
        }
        MessageList &held = state->peers[static_cast<std::size_t>(rank)].held;
        while (!held.empty()) {
            drop_message(held, held.begin());
        }
    }
}

void on_peer_error(mca_btl_base_module_t *btl, tessera_proc_t *proc, int, const char *why, void *)
{
    if (proc != nullptr) {
        fail_peer(proc);
    }
    /* A rank of MPI_COMM_WORLD is gone: the job cannot go on (fault tolerance is not offered); with
     * MPI_ERRORS_RETURN the failed requests carry the error. */
    std::string who = proc != nullptr ? "rank " + std::to_string(proc->proc_name.rank) : std::string("a peer");
    raise_on_comm(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI progress",
                  who + " is unreachable over " + (btl != nullptr && btl->btl_name ? btl->btl_name : "the btl") +
                      ": " + why);
}

/* The protocol state of a request that starts (again: persistent requests start many times). */
void restart(Request *r)
{
    r->complete = false;
    r->active = true;
    r->matched = false;
    r->cancelled = false;
    r->rendezvous = false;
    r->remote = 0;
    r->address = 0;
    r->msg_bytes = 0;
    r->scheduled = 0;
    r->packed_upto = 0;
    r->delivered = 0;
    r->in_flight = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    status_set_count(&r->status, 0);
    status_set_cancelled(&r->status, false);
}

} // namespace

void comm_attach(Communicator &comm)
{
    auto *state = new CommState{};
    state->comm = &comm;
    state->peers.resize(comm.peers().size());
    comm.pml = state;
    if (states_by_context.size() <= comm.context_id) {
        states_by_context.resize(comm.context_id + 1, nullptr);
    }
    states_by_context[comm.context_id] = state;
    MessageList arrived;
    for (auto it = early.begin(); it != early.end();) {
        const auto next = std::next(it);
        if (it->header.context == comm.context_id && it->header.generation <= comm.generation) {
            arrived.splice(arrived.end(), early, it); /* an older generation's is dropped by on_match */
        }
        it = next;
    }
    while (!arrived.empty()) {
        const KeptMessage &m = arrived.front();
        on_match(m.header, m.proc, m.data.data(), m.data.size());
        drop_message(arrived, arrived.begin());
    }
}

void comm_detach(Communicator &comm)
{
    auto *state = static_cast<CommState *>(comm.pml);
    if (state != nullptr) {
        states_by_context[comm.context_id] = nullptr;
        delete state;
        comm.pml = nullptr;
    }
}

int register_params()
{
    params = Params{};
    const mca_var_decl_t pml_vars[] = {
        {"eager_limit",
         "Largest message (bytes, header included) sent eagerly; larger ones use the rendezvous protocol. 0: each "
         "peer's first btl module decides (btl_*_eager_limit)",
         MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_4, &params.eager_limit},
        {"pipeline_depth", "Fragments of one large message the transports may hold at once (striping)",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.pipeline_depth},
        {"single_copy",
         "Which rendezvous sends offer their buffer to a receiver that can read it in one copy (a btl with btl_get, "
         "e.g. shm's cross-memory attach): always, never (the default: where the kernel's cross-memory read is slower "
         "than copying in and out through the transport, as on the AMD EPYC VMs measured), or exchange (the sends of a "
         "collective step in which the sender also receives: each process then copies once instead of twice; "
         "machines with a fast cross-memory read gain from it)",
         MCA_VAR_TYPE_ENUM, single_copy_values, MCA_INFO_LVL_5, &params.single_copy},
    };
    const mca_var_decl_t mpi_vars[] = {
        {"poll_spins",
         "Empty progress passes before a waiting process yields the CPU (sched_yield, see mpi_yield_when_idle)",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.poll_spins},
        {"poll_spins_oversubscribed",
         "Empty progress passes before a waiting process yields the CPU when this host's ranks outnumber its "
         "online cores (instead of mpi_poll_spins): a peer then waits for the core the spinning rank holds",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.poll_spins_oversubscribed},
        {"yield_when_idle",
         "Whether a waiting process yields the CPU after mpi_poll_spins empty passes: on, off (spin only), or "
         "auto (on when this host's ranks outnumber its online cores)",
         MCA_VAR_TYPE_ENUM, yield_values, MCA_INFO_LVL_5, &params.yield_when_idle},
    };
    const int rc = mca_var_register_table("pml", "", pml_vars, std::size(pml_vars), MCA_VAR_SCOPE_LOCAL);
    return rc != TESSERA_SUCCESS ? rc
                                 : mca_var_register_table("mpi", "", mpi_vars, std::size(mpi_vars), MCA_VAR_SCOPE_LOCAL);
}

std::string check_params(const Params &p)
{
    using tessera::mca::bad_value;
    if (p.pipeline_depth < 1) {
        return bad_value("pml_pipeline_depth", std::to_string(p.pipeline_depth),
                         "must be at least 1 (fragments of one message in flight)");
    }
    if (p.poll_spins < 0) {
        return bad_value("mpi_poll_spins", std::to_string(p.poll_spins), "must be 0 or more");
    }
    if (p.poll_spins_oversubscribed < 0) {
        return bad_value("mpi_poll_spins_oversubscribed", std::to_string(p.poll_spins_oversubscribed),
                         "must be 0 or more");
    }
    if (p.eager_limit != 0 && p.eager_limit <= sizeof(MatchHeader)) {
        return bad_value("pml_eager_limit", std::to_string(p.eager_limit),
                         "must be 0 (the btl decides) or more than " + std::to_string(sizeof(MatchHeader)) +
                             " bytes (the header of an eager message)");
    }
    return "";
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
    h.seq = ps.send_seq++;
    h.length = r->bytes;
    const std::size_t limit =
        std::min(params.eager_limit != 0 ? params.eager_limit : peer->modules[0].btl->btl_eager_limit,
                 peer->modules[0].btl->btl_max_send_size);
    if (r->mode != SendMode::Sync && r->bytes + sizeof h <= limit) {
        pack_until(r, r->bytes);
        h.type = FragType::Eager;
        r->scheduled = r->bytes;
        const int rc = send_control(r->proc, &h, sizeof h, payload, r->bytes, r);
        return rc == TESSERA_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
    }
    h.type = FragType::Rts;
    h.sender = reinterpret_cast<uint64_t>(r);
    r->rendezvous = true;
    const mca_btl_base_module_t *first = peer->modules[0].btl;
    const bool wanted = params.single_copy == kSingleCopyAlways ||
                        (params.single_copy == kSingleCopyExchange && r->exchange);
    const bool offer = wanted && peer->count == 1 && (first->btl_flags & MCA_BTL_FLAG_GET) != 0 && r->bytes > 0;
    if (offer) {
        /* The receiver reads the packed message as soon as the RTS arrives: whole before it leaves. */
        pack_until(r, r->bytes);
        h.flags |= kRtsAddress;
        r->address = reinterpret_cast<uint64_t>(payload);
    }
    /* Listed before the RTS leaves: over self the CTS comes back inside send_control. */
    awaiting_cts.push_back(r);
    const int rc = send_control(r->proc, &h, sizeof h, offer ? reinterpret_cast<const char *>(&r->address) : nullptr,
                                offer ? sizeof r->address : 0, nullptr);
    if (rc != TESSERA_SUCCESS) {
        awaiting_cts.erase(r);
        r->complete = true;
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int start_recv(Request *r)
{
    r->bytes = r->count * r->type->size;
    restart(r);
    auto *state = static_cast<CommState *>(r->comm->pml);
    for (auto it = state->unexpected.begin(); it != state->unexpected.end(); ++it) {
        if (matches(r, it->header.source, it->header.tag)) {
            /* Out of the queue before delivering: a transport may deliver more while we answer. */
            MessageList taken;
            taken.splice(taken.begin(), state->unexpected, it);
            const KeptMessage &m = taken.front();
            deliver(r, m.header, m.proc, m.data.data());
            drop_message(taken, taken.begin());
            return MPI_SUCCESS;
        }
    }
    state->posted.push_back(r);
    return MPI_SUCCESS;
}

int progress()
{
    int events = mca_btl_base_progress();
    if (!pending.empty()) {
        events += progress_pending();
    }
    if (!active_sends.empty()) {
        events += progress_sends();
    }
    for (ProgressHook hook : progress_hooks) {
        events += hook();
    }
    return events;
}

void progress_hook_add(ProgressHook hook)
{
    progress_hooks.push_back(hook);
}

void progress_hook_remove(ProgressHook hook)
{
    std::erase(progress_hooks, hook);
}

void complete_request(Request *r)
{
    complete(r);
}

void yield_cpu()
{
    if (yield_enabled) {
        sched_yield();
    }
}

void wait_for(Request *r)
{
    wait_until([r] { return r->complete; });
}

bool probe(Communicator *comm, int source, int tag, MPI_Status *status)
{
    auto *state = static_cast<CommState *>(comm->pml);
    for (const KeptMessage &u : state->unexpected) {
        if ((source == MPI_ANY_SOURCE || source == u.header.source) && tag_matches(tag, u.header.tag)) {
            if (status != MPI_STATUS_IGNORE) {
                status->MPI_SOURCE = u.header.source;
                status->MPI_TAG = u.header.tag;
                status->MPI_ERROR = MPI_SUCCESS;
                status_set_count(status, static_cast<std::size_t>(u.header.length));
                status_set_cancelled(status, false);
            }
            return true;
        }
    }
    return false;
}

bool cancel_recv(Request *r)
{
    if (r->complete || r->matched) {
        return false;
    }
    auto *state = static_cast<CommState *>(r->comm->pml);
    if (!state->posted.contains(r)) {
        return false;
    }
    state->posted.erase(r);
    r->cancelled = true;
    status_set_cancelled(&r->status, true);
    complete(r);
    return true;
}

struct Message {
    Communicator *comm;
    MessageList node; /* the message, out of the unexpected queue */
};

Message *mprobe(Communicator *comm, int source, int tag, MPI_Status *status)
{
    auto *state = static_cast<CommState *>(comm->pml);
    for (auto it = state->unexpected.begin(); it != state->unexpected.end(); ++it) {
        if ((source == MPI_ANY_SOURCE || source == it->header.source) && tag_matches(tag, it->header.tag)) {
            if (status != MPI_STATUS_IGNORE) {
                status->MPI_SOURCE = it->header.source;
                status->MPI_TAG = it->header.tag;
                status->MPI_ERROR = MPI_SUCCESS;
                status_set_count(status, static_cast<std::size_t>(it->header.length));
                status_set_cancelled(status, false);
            }
            auto *m = new Message{comm, {}};
            comm_retain(comm);
            m->node.splice(m->node.begin(), state->unexpected, it);
            return m;
        }
    }
    return nullptr;
}

void start_mrecv(Request *r, Message *m)
{
    r->bytes = r->count * r->type->size;
    restart(r);
    request_set_comm(r, m->comm);
    comm_release(m->comm);
    const KeptMessage &kept = m->node.front();
    deliver(r, kept.header, kept.proc, kept.data.data());
    drop_message(m->node, m->node.begin());
    delete m;
}

void fail_request(Request *r, int code)
{
    fail(r, code);
}

void adopt(Request *parent, Request *child)
{
    child->parent = parent;
    ++parent->children;
    parent->complete = false;
    parent->active = true;
}

int init()
{
    if (const std::string problem = check_params(params); !problem.empty()) {
        tessera::mca::report(tessera::mca::Severity::Error, problem);
        return MPI_ERR_ARG;
    }
    Runtime &rt = runtime();
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    oversubscribed = cores < 1 || rt.launch.local_size > cores;
    yield_enabled = params.yield_when_idle == kYieldOn || (params.yield_when_idle == kYieldAuto && oversubscribed);
    idle_spins = oversubscribed ? params.poll_spins_oversubscribed : params.poll_spins;
    Communicator &world = comm_world();
    Communicator &self = comm_self();
    world.procs = rt.world_procs;
    self.procs = {rt.world_procs[static_cast<std::size_t>(rt.launch.rank)]};
    comm_attach(world);
    comm_attach(self);
    if (mca_btl_base_register_recv(kTag, on_fragment, nullptr) != TESSERA_SUCCESS) {
        return MPI_ERR_INTERN;
    }
    mca_btl_base_register_error(on_peer_error, nullptr);
    running = true;
    return MPI_SUCCESS;
}

namespace {

bool finalizing(const tessera_proc_t *proc)
{
    return (proc->proc_flags & TESSERA_PROC_IS_SELF) != 0 ||
           std::find(finalizing_peers.begin(), finalizing_peers.end(), proc) != finalizing_peers.end();
}

/* Whether every rendezvous send still waiting for its CTS goes to a process that receives no more. */
bool only_unanswerable_rts()
{
    for (const Request *r = awaiting_cts.head; r != nullptr; r = r->next) {
        if (!finalizing(r->proc)) {
            return false;
        }
    }
    return true;
}

} // namespace

void quiesce()
{
    if (!running) {
        return;
    }
    /* A send the application freed (MPI_Request_free) is still owed to its receiver, which may post the
     * receive long after this process entered MPI_Finalize: wait for its CTS, or for the receiver's FIN
     * (then nobody will ever receive it). Every peer learns this process is finalizing, and the FINs
     * must be written before this process stops progressing (a transport may still be connecting). */
    const FinHeader fin{FragType::Fin, {}};
    Request *fins = request_alloc();
    for (tessera_proc_t *proc : comm_world().procs) {
        if ((proc->proc_flags & TESSERA_PROC_IS_SELF) == 0) {
            (void)send_control(proc, &fin, sizeof fin, nullptr, 0, fins);
        }
    }
    wait_until([fins] {
        return pending.empty() && fins->in_flight == 0 && active_sends.empty() && only_unanswerable_rts();
    });
    request_release(fins);
    std::size_t unreceived = 0;
    while (awaiting_cts.head != nullptr) {
        Request *r = awaiting_cts.head;
        awaiting_cts.erase(r);
        fail(r, MPI_ERR_OTHER);
        ++unreceived;
    }
    if (unreceived > 0) {
        tessera::mca::report(tessera::mca::Severity::Warning,
                             "MPI_Finalize: " + std::to_string(unreceived) +
                                 " send(s) of this process were never received: their receivers finalized "
                                 "without a matching receive");
    }
}

void finalize()
{
    if (!running) {
        return;
    }
    mca_btl_base_register_recv(kTag, nullptr, nullptr);
    mca_btl_base_register_error(nullptr, nullptr);
    comm_detach(comm_world());
    comm_detach(comm_self());
    states_by_context.clear();
    finalizing_peers.clear();
    early.clear();
    clear_message_pool();
    running = false;
}

} // namespace tessera::ompi::pml
