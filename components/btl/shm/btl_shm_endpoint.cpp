/* btl shm: endpoints for the peers of this host, and how a peer that died is noticed. */
#include "components/btl/shm/btl_shm_endpoint.h"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace tessera::ompi::btl_shm {

namespace {

/* A pidfd turns readable when its process exits (zombie or reaped), and cannot be fooled by a reused
 * pid. Kernels before 5.3 (or a seccomp filter) refuse it: then kill(pid, 0) watches the peer. */
int open_pidfd(int32_t pid)
{
#ifdef SYS_pidfd_open
    return static_cast<int>(syscall(SYS_pidfd_open, static_cast<pid_t>(pid), 0));
#else
    (void)pid;
    return -1;
#endif
}

int64_t coarse_now_ns()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

void rebuild_watch(ModuleState *state)
{
    state->watch.clear();
    for (Endpoint *e : state->polled) {
        if (e->pidfd >= 0 && !e->gone) {
            state->watch.push_back(pollfd{e->pidfd, POLLIN, 0});
        }
    }
}

} // namespace

int add_procs(mca_btl_base_module_t *btl, size_t nprocs, tessera_proc_t *const *procs,
              mca_btl_base_endpoint_t **endpoints)
{
    ModuleState *state = module_state();
    std::fill(endpoints, endpoints + nprocs, nullptr);
    if (state == nullptr) {
        return TESSERA_SUCCESS;
    }
    /* Where local rank 0's segment is: its card says, when it is unnamed. */
    char segment_path[sizeof(Card::segment_path)] = {};
    for (size_t i = 0; i < nprocs && segment_path[0] == '\0'; ++i) {
        Card card{};
        tessera_proc_t *p = procs[i];
        if (p != nullptr && (p->proc_flags & TESSERA_PROC_ON_NODE) != 0 && peer_card(p, &card) &&
            card.local_rank == 0) {
            std::memcpy(segment_path, card.segment_path, sizeof segment_path);
            segment_path[sizeof segment_path - 1] = '\0';
        }
    }
    Segment *segment = nullptr;
    for (size_t i = 0; i < nprocs; ++i) {
        tessera_proc_t *p = procs[i];
        if (p == nullptr || (p->proc_flags & TESSERA_PROC_IS_SELF) != 0 || (p->proc_flags & TESSERA_PROC_ON_NODE) == 0) {
            continue;
        }
        Card card{};
        if (!peer_card(p, &card) || card.local_rank >= state->local_size || card.local_rank == state->me) {
            continue; /* shm does not run there, or a card from another job layout */
        }
        auto &slot = state->by_local_rank[card.local_rank];
        if (!slot) {
            if (segment == nullptr && (segment = attached_segment(segment_path)) == nullptr) {
                return TESSERA_SUCCESS; /* reported: no peer is reachable through shm */
            }
            if (state->segment == nullptr) {
                state->own = segment->region(state->me);
                state->segment = segment;
            }
            auto e = std::make_unique<Endpoint>();
            e->proc = p;
            e->local_rank = card.local_rank;
            e->pid = card.pid;
            e->peer = segment->region(card.local_rank);
            e->until_box = state->box_after != 0 && state->fast_boxes != 0 ? state->box_after : kNoBox;
            e->pidfd = open_pidfd(card.pid);
            if (params.single_copy != kSingleCopyNone) {
                e->cma = probe_single_copy(btl, state, e.get(), card);
            }
            state->removed[card.local_rank] = 0;
            slot = std::move(e);
            state->polled.push_back(slot.get());
        }
        endpoints[i] = reinterpret_cast<mca_btl_base_endpoint_t *>(slot.get());
    }
    /* Said before anyone offers an address: the pml offers single copy only while the flag is set. */
    const bool readable =
        std::any_of(state->polled.begin(), state->polled.end(), [](const Endpoint *e) { return e->cma; });
    btl->btl_flags = readable ? (btl->btl_flags | MCA_BTL_FLAG_GET) : (btl->btl_flags & ~MCA_BTL_FLAG_GET);
    rebuild_watch(state);
    return TESSERA_SUCCESS;
}

int del_procs(mca_btl_base_module_t *, size_t nprocs, tessera_proc_t *const *, mca_btl_base_endpoint_t **endpoints)
{
    ModuleState *state = module_state();
    if (state == nullptr) {
        return TESSERA_SUCCESS;
    }
    for (size_t i = 0; i < nprocs; ++i) {
        Endpoint *e = as_shm(endpoints[i]);
        if (e == nullptr) {
            continue;
        }
        state->polled.erase(std::remove(state->polled.begin(), state->polled.end(), e), state->polled.end());
        if (e->pidfd >= 0) {
            close(e->pidfd);
        }
        state->removed[e->local_rank] = 1;
        state->by_local_rank[e->local_rank].reset();
    }
    rebuild_watch(state);
    return TESSERA_SUCCESS;
}

void release_endpoints(ModuleState *state)
{
    for (auto &e : state->by_local_rank) {
        if (e && e->pidfd >= 0) {
            close(e->pidfd);
        }
        e.reset();
    }
    state->polled.clear();
    state->watch.clear();
}

void peer_gone(mca_btl_base_module_t *btl, Endpoint *e, const char *why)
{
    /* Once, should the progress pass's liveness check and a single-copy read in another thread find it
     * at the same time. */
    if (e->gone.exchange(true)) {
        return;
    }
    /* What it had not delivered it never will: the fragments go back to the pool, which the other
     * peers share. */
    ModuleState *state = module_state();
    if (state != nullptr && state->segment != nullptr) {
        std::unique_lock<std::mutex> lock(state->send_lock, std::defer_lock);
        if (state->threaded) {
            lock.lock(); /* a sender may be taking one of them for another peer */
        }
        for (uint32_t i = 0; i < state->fragments; ++i) {
            FragHeader *f = Segment::fragment(state->own, state->stride, i);
            if (f->receiver == e->local_rank && f->busy.load(std::memory_order_acquire) != 0) {
                f->busy.store(0, std::memory_order_relaxed);
            }
        }
    }
    const std::string text = "local rank " + std::to_string(e->local_rank) + " (pid " + std::to_string(e->pid) +
                             ") " + why;
    mca_btl_base_report_error(btl, e->proc, TESSERA_ERR_UNREACH, text.c_str());
}

void check_peers(mca_btl_base_module_t *btl, ModuleState *state)
{
    const int64_t now = coarse_now_ns();
    if (now - state->last_check_ns < static_cast<int64_t>(params.peer_check_interval * 1e9)) {
        return;
    }
    state->last_check_ns = now;
    if (state->segment != nullptr && state->segment->way_in_open()) {
        state->segment->settle(); /* local rank 0: every rank mapped it, the descriptor goes */
    }
    bool lost = false;
    if (!state->watch.empty() && poll(state->watch.data(), state->watch.size(), 0) > 0) {
        for (const pollfd &w : state->watch) {
            if ((w.revents & (POLLIN | POLLHUP | POLLERR)) == 0) {
                continue;
            }
            for (Endpoint *e : state->polled) {
                if (e->pidfd == w.fd) {
                    peer_gone(btl, e, "exited");
                    lost = true;
                }
            }
        }
    }
    for (Endpoint *e : state->polled) {
        if (e->pidfd < 0 && !e->gone && kill(e->pid, 0) != 0 && errno == ESRCH) {
            peer_gone(btl, e, "exited");
            lost = true;
        }
    }
    if (lost) {
        rebuild_watch(state);
    }
}

} // namespace tessera::ompi::btl_shm
