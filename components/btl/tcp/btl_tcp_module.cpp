/* btl tcp: the module — its function table, add/del procs, progress (btl_tcp.h). */
#include <sched.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "components/btl/tcp/btl_tcp_endpoint.h"
#include "components/btl/tcp/btl_tcp_if.h"
#include "ompi/proc/modex.h"

namespace tessera::ompi::btl_tcp {

namespace {

/* Events taken from the set per epoll_wait; more simply wait for the next pass. */
constexpr int kEventsPerPoll = 32;
/* The bound of btl_tcp_direct_reads (component.cpp checks it). */
constexpr int kMaxDirectReads = 64;

Link *as_link(mca_btl_base_module_t *m)
{
    return static_cast<Link *>(m->module_state);
}

int send(mca_btl_base_module_t *m, mca_btl_base_endpoint_t *endpoint, mca_btl_base_tag_t tag,
         const mca_btl_base_segment_t *segments, size_t segment_count, mca_btl_base_send_done_fn_t done,
         void *done_data)
{
    if (endpoint == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    Link *l = as_link(m);
    Guard guard;
    l->active.store(true, std::memory_order_relaxed);
    return send_fragment(l, reinterpret_cast<Endpoint *>(endpoint), tag, segments, segment_count, done, done_data);
}

/* Writes queued fragments and calls the dones of failed peers' queues: this module's own work. */
int progress_sends(Link *l)
{
    int events = 0;
    for (std::size_t i = 0; i < l->flushing.size();) {
        Endpoint *e = l->flushing[i];
        if (e->state == ConnState::Connected) {
            events += flush(l, e, true);
        }
        if (e->head == nullptr || e->state != ConnState::Connected) {
            e->flushing = false;
            l->flushing[i] = l->flushing.back();
            l->flushing.pop_back();
        } else {
            ++i;
        }
    }
    while (!l->failed.empty()) {
        Endpoint *e = l->failed.back();
        l->failed.pop_back();
        e->failing = false;
        events += drain_failed(l, e);
    }
    return events;
}

int dispatch(const epoll_event &ev)
{
    const auto *w = static_cast<const Watch *>(ev.data.ptr);
    Link *l = w->link;
    l->active.store(true, std::memory_order_relaxed); /* polled by another module: its own passes take over */
    switch (w->kind) {
    case WatchKind::Listener:
        accept_connections(l);
        return 0;
    case WatchKind::Pending:
        on_pending_event(l, static_cast<Pending *>(w->owner));
        return 0;
    case WatchKind::Endpoint: {
        auto *e = static_cast<Endpoint *>(w->owner);
        if (e->state == ConnState::Connected) {
            return read_frames(l, e);
        }
        on_connect_event(l, e, ev.events);
        return 0;
    }
    }
    return 0;
}

/* Reads the module's connections directly: with few of them, one recv() each costs less than an
 * epoll_wait() followed by the same recv() — it is what a raw socket ping-pong does. */
int read_directly(Link *l)
{
    Endpoint *snapshot[kMaxDirectReads];
    const std::size_t n = std::min<std::size_t>(l->connected.size(), kMaxDirectReads);
    std::copy_n(l->connected.begin(), n, snapshot);
    int events = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (snapshot[i]->state == ConnState::Connected) {
            events += read_frames(l, snapshot[i]);
        }
    }
    return events;
}

/* Every module polls the component's one set: whichever module the caller progresses, the events
 * of all links are handled. While a module has at most btl_tcp_direct_reads connections (none at all
 * when every peer is reached by shared memory), it reads them directly and polls the set only every
 * btl_tcp_poll_every passes (for new connections and handshakes): an epoll_wait per pass would cost
 * an idle tcp module a system call in every progress pass of the process. */
[[gnu::noinline]] int progress_link(Link *l, bool poll_turn)
{
    Guard guard;
    int events = 0;
    if (!l->flushing.empty() || !l->failed.empty() || l->pending_count != 0) {
        events += progress_sends(l);
        if (l->pending_count != 0) {
            expire_pending(l);
        }
    }
    if (params.direct_reads > 0 && l->connected.size() <= static_cast<std::size_t>(params.direct_reads) &&
        !poll_turn) {
        events += read_directly(l);
    } else {
        epoll_event ev[kEventsPerPoll];
        const int n = epoll_wait(component->epfd, ev, kEventsPerPoll, 0);
        for (int i = 0; i < n; ++i) {
            events += dispatch(ev[i]);
        }
    }
    return events;
}

int progress(mca_btl_base_module_t *m)
{
    Link *l = as_link(m);
    /* A count down rather than a remainder: no division in the pass of an idle module. */
    const unsigned left = l->passes_to_poll.load(std::memory_order_relaxed);
    const bool poll_turn = left <= 1;
    l->passes_to_poll.store(poll_turn ? static_cast<unsigned>(params.poll_every) : left - 1, std::memory_order_relaxed);
    if (!poll_turn && !l->active.load(std::memory_order_relaxed)) {
        return 0;
    }
    return progress_link(l, poll_turn);
}

Endpoint *endpoint_for(Link *l, tessera_proc_t *p)
{
    const uint32_t rank = p->proc_name.rank;
    if (std::unique_ptr<Endpoint> &known = l->by_rank[rank]; known) {
        return known.get();
    }
    const void *data = nullptr;
    size_t len = 0;
    if (tessera_modex_get(rank, "btl.tcp", &data, &len) != TESSERA_SUCCESS || len < card_size(0)) {
        return nullptr; /* tcp does not run there */
    }
    Card card{};
    std::memcpy(&card, data, std::min(len, sizeof card));
    if (card.version != kCardVersion || card.links > kMaxLinks || len < card_size(card.links) || l->link >= card.links) {
        return nullptr;
    }
    auto e = std::make_unique<Endpoint>();
    e->watch = Watch{WatchKind::Endpoint, l, e.get()};
    e->proc = p;
    e->rank = rank;
    e->peer.sin_family = AF_INET;
    e->peer.sin_addr.s_addr = card.link[l->link].addr;
    e->peer.sin_port = card.link[l->link].port;
    l->by_rank[rank] = std::move(e);
    Endpoint *created = l->by_rank[rank].get();
    adopt_waiting(l, created);
    return created;
}

int add_procs(mca_btl_base_module_t *m, size_t nprocs, tessera_proc_t *const *procs,
              mca_btl_base_endpoint_t **endpoints)
{
    Link *l = as_link(m);
    Guard guard;
    for (size_t i = 0; i < nprocs; ++i) {
        endpoints[i] = nullptr;
        tessera_proc_t *p = procs[i];
        if (p == nullptr || (p->proc_flags & TESSERA_PROC_IS_SELF) != 0 || p->proc_name.jobid != component->jobid ||
            p->proc_name.rank >= component->size || p->proc_name.rank == component->rank) {
            continue;
        }
        endpoints[i] = reinterpret_cast<mca_btl_base_endpoint_t *>(endpoint_for(l, p));
    }
    return TESSERA_SUCCESS;
}

/* What is still queued to a peer goes out first, for at most btl_tcp_close_linger seconds: the
 * caller finished with the peer, and the peer may still be reading. */
void linger(Link *l, Endpoint *e)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(params.close_linger);
    while (e->head != nullptr && e->state == ConnState::Connected && std::chrono::steady_clock::now() < until) {
        if (flush(l, e, false) == 0) {
            sched_yield();
        }
    }
}

void release_endpoint(Link *l, Endpoint *e)
{
    linger(l, e);
    if (e->fd >= 0) {
        close(e->fd);
        e->fd = -1;
    }
    discard_queue(l, e);
    std::erase(l->connected, e);
    std::erase(l->flushing, e);
    std::erase(l->failed, e);
    for (auto &slot : l->pending) {
        if (slot->in_use && slot->checked && ntohl(slot->hello.rank) == e->rank) {
            close_pending(l, slot.get());
        }
    }
    l->by_rank[e->rank].reset();
}

int del_procs(mca_btl_base_module_t *m, size_t nprocs, tessera_proc_t *const *procs, mca_btl_base_endpoint_t **endpoints)
{
    Link *l = as_link(m);
    Guard guard;
    for (size_t i = 0; i < nprocs; ++i) {
        auto *e = reinterpret_cast<Endpoint *>(endpoints[i]);
        if (e != nullptr && procs[i] != nullptr && procs[i]->proc_name.rank < l->by_rank.size() &&
            l->by_rank[procs[i]->proc_name.rank].get() == e) {
            release_endpoint(l, e);
        }
    }
    return TESSERA_SUCCESS;
}

int finalize(mca_btl_base_module_t *m)
{
    Link *l = as_link(m);
    Guard guard;
    for (auto &e : l->by_rank) {
        if (e) {
            if (e->fd >= 0) {
                close(e->fd);
            }
            discard_queue(l, e.get());
            e.reset();
        }
    }
    l->flushing.clear();
    l->failed.clear();
    l->connected.clear();
    for (auto &p : l->pending) {
        if (p->in_use) {
            close_pending(l, p.get());
        }
    }
    if (l->listen_fd >= 0) {
        close(l->listen_fd);
        l->listen_fd = -1;
    }
    return TESSERA_SUCCESS;
}

} // namespace

int watch(int op, int fd, uint32_t events, Watch *w)
{
    epoll_event ev{};
    ev.events = events;
    ev.data.ptr = w;
    return epoll_ctl(component->epfd, op, fd, &ev);
}

mca_btl_base_module_t *module_create(int link, int listen_fd)
{
    component->links.push_back(std::make_unique<Link>());
    Link *l = component->links.back().get();
    l->link = link;
    l->listen_fd = listen_fd;
    l->listen_watch = Watch{WatchKind::Listener, l, l};
    l->by_rank.resize(component->size);
    l->name = "tcp:" + address_text(component->addr) + ":" + std::to_string(link);
    l->module = mca_btl_base_module_t{
        .btl_component = &mca_btl_tcp_component,
        .btl_name = l->name.c_str(),
        .btl_eager_limit = params.common.eager_limit,
        .btl_max_send_size = params.common.max_send_size,
        .btl_exclusivity = MCA_BTL_EXCLUSIVITY_LOW,
        .btl_latency = params.common.latency,
        .btl_bandwidth = params.common.bandwidth,
        .btl_flags = MCA_BTL_FLAG_SEND,
        .btl_add_procs = add_procs,
        .btl_del_procs = del_procs,
        .btl_send = send,
        .btl_progress = progress,
        .btl_finalize = finalize,
        .btl_get = nullptr,
        .btl_get_limit = 0,
        .module_state = l,
        .reserved = {},
    };
    watch(EPOLL_CTL_ADD, listen_fd, EPOLLIN, &l->listen_watch);
    return &l->module;
}

void modules_destroy()
{
    if (component == nullptr) {
        return;
    }
    for (auto &l : component->links) {
        finalize(&l->module);
    }
    component->links.clear();
    if (component->epfd >= 0) {
        close(component->epfd);
    }
    delete component;
    component = nullptr;
}

} // namespace tessera::ompi::btl_tcp
