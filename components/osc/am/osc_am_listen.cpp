/*
 * osc am, the target's side: a receive posted for the next request header of each peer, served from the
 * progress hook (so a target serves requests while it waits in any MPI call, and, with
 * mpi_async_progress, while it computes). One peer's requests are applied in arrival order, which is the
 * order its origin made them. Lock requests wait in a queue until they can be granted; a grant, a flush
 * and an unlock are acknowledged on the reply tag.
 */
#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "components/osc/am/osc_am.h"
#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"

namespace tessera::ompi::osc_am {

namespace {

/* The modules whose windows listen. The hook walks them under the lock (try-lock: a pass never waits
 * for window creation); creation and freeing change the list under it. */
std::mutex registry_lock;
std::vector<Module *> listening;
/* Read first by the hook: with no window, a progress pass costs one load. */
std::atomic<std::size_t> listening_count{0};
thread_local bool in_hook = false;

const Datatype *byte_type()
{
    static const Datatype *const type = datatype_lookup(MPI_BYTE);
    return type;
}

void post_ctl(Module &m, int peer)
{
    Listener &l = m.from[static_cast<std::size_t>(peer)];
    l.ctl_recv = pml::irecv(&l.ctl, sizeof l.ctl, byte_type(), peer, kTagCtl, m.comm);
}

void reply(Module &m, int peer, std::vector<char> bytes)
{
    Pending p;
    p.bytes = std::move(bytes);
    p.r = pml::isend(p.bytes.data(), p.bytes.size(), byte_type(), peer, kTagReply, m.comm);
    m.replies.push_back(std::move(p)); /* a moved vector keeps its bytes where the send reads them */
}

/* The byte counts the operations of `peer` refused since the last acknowledgement (dynamic windows). */
void acknowledge(Module &m, int peer)
{
    std::uint32_t &refused = m.refused[static_cast<std::size_t>(peer)];
    reply(m, peer, std::vector<char>(1, static_cast<char>(std::min<std::uint32_t>(refused, 255))));
    refused = 0;
}

bool moves_data(Kind k)
{
    return k == Kind::Put || k == Kind::Get || k == Kind::Accumulate || k == Kind::GetAccumulate ||
           k == Kind::CompareAndSwap;
}

/* A request of a dynamic window naming bytes outside every attached region: nothing is touched; a
 * request with a reply gets an empty one, and the next acknowledgement counts it. */
bool refuse(Module &m, int peer, const Ctl &c, const mca_dte_elem_t *desc)
{
    if (!m.dynamic || !moves_data(c.kind) || in_region(m, c, desc)) {
        return false;
    }
    if (c.kind == Kind::Put || c.kind == Kind::Accumulate) {
        ++m.refused[static_cast<std::size_t>(peer)];
    } else {
        reply(m, peer, {}); /* the empty reply says it */
    }
    if (c.fence != 0) {
        m.applied[c.fence - 1].fetch_add(1, std::memory_order_release);
    }
    return true;
}

bool grantable(const Module &m, int type)
{
    return m.exclusive < 0 && (type == MPI_LOCK_SHARED || m.shared == 0);
}

void grant(Module &m, int peer, int type)
{
    if (type == MPI_LOCK_EXCLUSIVE) {
        m.exclusive = peer;
    } else {
        ++m.shared;
    }
    acknowledge(m, peer);
}

/* In order: a waiting exclusive request holds back the shared ones behind it (no starvation). */
void grant_waiting(Module &m)
{
    while (!m.waiting.empty() && grantable(m, m.waiting.front().second)) {
        const auto [peer, type] = m.waiting.front();
        m.waiting.pop_front();
        grant(m, peer, type);
    }
}


/* Applies one request of `peer`; `payload` holds the description, then the origin data. */
void apply(Module &m, int peer, const Ctl &c, const char *payload)
{
    const auto *desc = reinterpret_cast<const mca_dte_elem_t *>(payload);
    const char *data = payload == nullptr ? nullptr : payload + c.elems * sizeof(mca_dte_elem_t);
    if (refuse(m, peer, c, desc)) {
        return;
    }
    /* A dynamic window's displacement is the address itself. */
    char *at = m.dynamic ? reinterpret_cast<char *>(static_cast<std::uintptr_t>(c.disp_bytes))
                         : static_cast<char *>(m.w->base) + c.disp_bytes;
    switch (c.kind) {
    case Kind::Put:
        target_scatter(c, desc, at, data);
        break;
    case Kind::Get: {
        std::vector<char> out(c.bytes);
        target_gather(c, desc, at, out.data());
        reply(m, peer, std::move(out));
        break;
    }
    case Kind::Accumulate:
    case Kind::GetAccumulate: {
        std::vector<char> current(c.bytes);
        target_gather(c, desc, at, current.data());
        if (c.kind == Kind::GetAccumulate) {
            reply(m, peer, current);
        }
        const Op *op = op_lookup(reinterpret_cast<MPI_Op>(c.op));
        if (op->kind != OpKind::NoOp) {
            const Datatype *basic = datatype_lookup(reinterpret_cast<MPI_Datatype>(c.basic));
            op_reduce_packed(op, basic, data, current.data(), c.bytes);
            target_scatter(c, desc, at, current.data());
        }
        break;
    }
    case Kind::CompareAndSwap: {
        /* The payload: the origin's value, then the compare value; one predefined element. */
        std::vector<char> current(c.bytes);
        std::memcpy(current.data(), at, c.bytes);
        const bool same = std::memcmp(current.data(), data + c.bytes, c.bytes) == 0;
        reply(m, peer, std::move(current));
        if (same) {
            std::memcpy(at, data, c.bytes);
        }
        break;
    }
    case Kind::Lock: {
        const int type = static_cast<int>(c.count);
        if (m.waiting.empty() && grantable(m, type)) {
            grant(m, peer, type);
        } else {
            m.waiting.emplace_back(peer, type);
        }
        break;
    }
    case Kind::Unlock:
        if (m.exclusive == peer) {
            m.exclusive = -1;
        } else if (m.shared > 0) {
            --m.shared;
        }
        acknowledge(m, peer);
        grant_waiting(m);
        break;
    case Kind::Flush:
        acknowledge(m, peer);
        break;
    case Kind::Post:
        m.posts_from[static_cast<std::size_t>(peer)].fetch_add(1, std::memory_order_release);
        break;
    case Kind::Complete:
        if (c.count != 0) { /* a dynamic window's origin learns of refused operations */
            acknowledge(m, peer);
        }
        m.completes.fetch_add(1, std::memory_order_release);
        break;
    }
    if (c.fence != 0) {
        m.applied[c.fence - 1].fetch_add(1, std::memory_order_release);
    }
}

/* Whether the target may apply `c` now: a fence epoch's request only once the target's own fences
 * reached its epoch (a Get of the next epoch, sent as soon as its origin left the fence, must read what
 * the other origins' requests of this epoch wrote, which may still be on their way here). */
bool ready(const Module &m, const Ctl &c)
{
    return c.fence == 0 || c.fence - 1 == (m.exposure.load(std::memory_order_acquire) & 1u);
}

/* Serves what arrived from `peer`: headers, their payloads, in order. */
int serve_peer(Module &m, int peer)
{
    Listener &l = m.from[static_cast<std::size_t>(peer)];
    int events = 0;
    for (;;) {
        if (l.held) {
            if (!ready(m, l.ctl)) {
                break;
            }
            apply(m, peer, l.ctl, l.ctl.payload > 0 ? l.payload.data() : nullptr);
            l.held = false;
            ++events;
            post_ctl(m, peer);
            continue;
        }
        if (l.payload_recv != nullptr) {
            if (!l.payload_recv->complete) {
                break;
            }
            const bool failed = l.payload_recv->status.MPI_ERROR != MPI_SUCCESS;
            pml::request_release(l.payload_recv);
            l.payload_recv = nullptr;
            if (failed) { /* the peer is gone (the pml raised it): nothing more from it */
                break;
            }
            l.held = true;
            continue;
        }
        if (l.ctl_recv == nullptr || !l.ctl_recv->complete) {
            break;
        }
        const bool failed = l.ctl_recv->status.MPI_ERROR != MPI_SUCCESS;
        pml::request_release(l.ctl_recv);
        l.ctl_recv = nullptr;
        if (failed) {
            break;
        }
        if (l.ctl.payload > 0) {
            l.payload.resize(l.ctl.payload);
            l.payload_recv = pml::irecv(l.payload.data(), l.payload.size(), byte_type(), peer, kTagPayload, m.comm);
            continue;
        }
        l.held = true;
    }
    return events;
}

void release_sent(std::vector<Pending> &replies)
{
    std::erase_if(replies, [](Pending &p) {
        if (!p.r->complete) {
            return false;
        }
        pml::request_release(p.r);
        return true;
    });
}

[[gnu::noinline]] int hook_active()
{
    if (in_hook) {
        return 0;
    }
    const std::unique_lock guard(registry_lock, std::try_to_lock);
    if (!guard.owns_lock()) {
        return 0;
    }
    in_hook = true;
    int events = 0;
    for (Module *m : listening) {
        for (int peer = 0; peer < m->w->size; ++peer) {
            events += serve_peer(*m, peer);
        }
        if (!m->replies.empty()) {
            release_sent(m->replies);
        }
        if (m->tracked_count.load(std::memory_order_acquire) != 0) {
            const std::unique_lock tracked(m->tracked_lock, std::try_to_lock);
            if (tracked.owns_lock()) {
                finish_tracked(*m, -1);
            }
        }
    }
    in_hook = false;
    return events;
}

int hook()
{
    if (listening_count.load(std::memory_order_relaxed) == 0) {
        return 0;
    }
    return hook_active();
}

} // namespace

void with_hook_lock(void (*change)(Module &, void *), Module &m, void *arg)
{
    const std::lock_guard guard(registry_lock);
    change(m, arg);
}

int listen_start(Module &m)
{
    const std::lock_guard guard(registry_lock);
    m.from.resize(static_cast<std::size_t>(m.w->size));
    m.refused.assign(static_cast<std::size_t>(m.w->size), 0);
    for (int peer = 0; peer < m.w->size; ++peer) {
        post_ctl(m, peer);
    }
    listening.push_back(&m);
    if (listening_count.fetch_add(1, std::memory_order_relaxed) == 0) {
        /* The hook runs only while some window exists: no window, no cost on the progress path. */
        pml::progress_hook_add(hook);
    }
    return MPI_SUCCESS;
}

void listen_stop(Module &m)
{
    {
        const std::lock_guard guard(registry_lock);
        std::erase(listening, &m);
        if (listening_count.fetch_sub(1, std::memory_order_relaxed) == 1) {
            pml::progress_hook_remove(hook);
        }
    }
    for (Listener &l : m.from) {
        for (pml::Request *r : {l.ctl_recv, l.payload_recv}) {
            if (r == nullptr) {
                continue;
            }
            if (!pml::cancel_recv(r)) {
                pml::wait_for(r);
            }
            pml::request_release(r);
        }
        l.ctl_recv = l.payload_recv = nullptr;
    }
    for (Pending &p : m.replies) {
        pml::wait_for(p.r);
        pml::request_release(p.r);
    }
    m.replies.clear();
}

void wait_applied(Module &m, unsigned parity, std::uint64_t expected)
{
    std::atomic<std::uint64_t> &applied = m.applied[parity];
    pml::wait_until([&] { return applied.load(std::memory_order_acquire) >= expected; });
    applied.fetch_sub(expected, std::memory_order_relaxed);
}

} // namespace tessera::ompi::osc_am
