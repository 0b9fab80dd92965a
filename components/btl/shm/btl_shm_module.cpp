/* btl shm: the module — endpoints, send into a ring, progress out of the rings (btl_shm.h). */
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "components/btl/shm/btl_shm.h"

namespace tessera::ompi::btl_shm {
namespace {

struct ShmEndpoint {
    tessera_proc_t *proc;
    uint32_t local_rank;
    Ring *out;            /* this process -> the peer */
    uint64_t tail_seen;   /* the out ring's tail when last read */
    int32_t pid;          /* for process_vm_readv */
};

struct State {
    uint32_t me = 0;
    Segment *segment = nullptr;
    std::vector<std::unique_ptr<ShmEndpoint>> by_local_rank; /* peers on this host */
    std::vector<Ring *> incoming;                            /* rings of the peers added, to poll */
    std::vector<ShmEndpoint *> incoming_from;
};

/* A plain pointer: the framework may be closed by an exit handler after this DSO's static objects
 * were destroyed (a rank leaving without MPI_Finalize). */
State *state = nullptr;
mca_btl_base_module_t module;

ShmEndpoint *as_shm(mca_btl_base_endpoint_t *e)
{
    return reinterpret_cast<ShmEndpoint *>(e);
}

int send(mca_btl_base_module_t *, mca_btl_base_endpoint_t *endpoint, mca_btl_base_tag_t tag,
         const mca_btl_base_segment_t *segments, size_t segment_count, mca_btl_base_send_done_fn_t, void *)
{
    ShmEndpoint *e = as_shm(endpoint);
    if (e == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    size_t total = 0;
    for (size_t i = 0; i < segment_count; ++i) {
        total += segments[i].seg_len;
    }
    if (total > params.max_send_size) {
        return TESSERA_ERR_BAD_PARAM;
    }
    Ring *r = e->out;
    const uint64_t head = r->head.load(std::memory_order_relaxed);
    const uint64_t depth = state->segment->header()->fifo_depth;
    if (head - e->tail_seen >= depth) {
        e->tail_seen = r->tail.load(std::memory_order_acquire);
        if (head - e->tail_seen >= depth) {
            return TESSERA_ERR_OUT_OF_RESOURCE;
        }
    }
    Slot *s = state->segment->slot(r, head);
    auto *payload = reinterpret_cast<char *>(s + 1);
    for (size_t i = 0; i < segment_count; ++i) {
        std::memcpy(payload, segments[i].seg_addr, segments[i].seg_len);
        payload += segments[i].seg_len;
    }
    s->length = static_cast<uint32_t>(total);
    s->tag = tag;
    s->seq.store(head + 1, std::memory_order_release);
    r->head.store(head + 1, std::memory_order_relaxed);
    return MCA_BTL_SEND_COMPLETE;
}

int progress(mca_btl_base_module_t *btl)
{
    int events = 0;
    for (size_t i = 0; i < state->incoming.size(); ++i) {
        Ring *r = state->incoming[i];
        uint64_t tail = r->tail.load(std::memory_order_relaxed);
        for (;;) {
            const Slot *s = state->segment->slot(r, tail);
            if (s->seq.load(std::memory_order_acquire) != tail + 1) {
                break;
            }
            const mca_btl_base_segment_t segment{s + 1, s->length};
            ShmEndpoint *from = state->incoming_from[i];
            const mca_btl_base_recv_desc_t desc{reinterpret_cast<mca_btl_base_endpoint_t *>(from), from->proc,
                                                &segment, 1, s->tag};
            mca_btl_base_deliver(btl, &desc);
            ++tail;
            /* The slot is the sender's again only after the callback is done with it. */
            r->tail.store(tail, std::memory_order_release);
            ++events;
        }
    }
    return events;
}

int finalize(mca_btl_base_module_t *)
{
    return TESSERA_SUCCESS;
}

/* Single copy (btl_shm_single_copy=cma). A kernel that refuses (ptrace scope, containers) turns the
 * mechanism off for the rest of the run: the pml then moves the data through the rings. */
int get(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, void *local, uint64_t remote_addr, size_t len)
{
    ShmEndpoint *e = as_shm(endpoint);
    size_t done = 0;
    while (done < len) {
        iovec to{static_cast<char *>(local) + done, len - done};
        iovec from{reinterpret_cast<void *>(remote_addr + done), len - done};
        const ssize_t n = process_vm_readv(e->pid, &to, 1, &from, 1, 0);
        if (n > 0) {
            done += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == ESRCH) {
            return TESSERA_ERR_UNREACH;
        }
        btl->btl_flags &= ~MCA_BTL_FLAG_GET;
        return TESSERA_ERR_NOT_SUPPORTED;
    }
    return TESSERA_SUCCESS;
}

int add_procs(mca_btl_base_module_t *, size_t nprocs, tessera_proc_t *const *procs, mca_btl_base_endpoint_t **endpoints)
{
    std::fill(endpoints, endpoints + nprocs, nullptr);
    if (!attach_segment()) {
        return TESSERA_SUCCESS;
    }
    for (size_t i = 0; i < nprocs; ++i) {
        tessera_proc_t *p = procs[i];
        if (p == nullptr || (p->proc_flags & TESSERA_PROC_IS_SELF) != 0 || (p->proc_flags & TESSERA_PROC_ON_NODE) == 0) {
            continue;
        }
        uint32_t peer = 0;
        int32_t pid = 0;
        if (!peer_card(p, &peer, &pid) || peer >= state->by_local_rank.size() || peer == state->me) {
            continue;
        }
        auto &slot = state->by_local_rank[peer];
        if (!slot) {
            slot = std::make_unique<ShmEndpoint>(ShmEndpoint{p, peer, state->segment->ring(state->me, peer), 0, pid});
            state->incoming.push_back(state->segment->ring(peer, state->me));
            state->incoming_from.push_back(slot.get());
        }
        endpoints[i] = reinterpret_cast<mca_btl_base_endpoint_t *>(slot.get());
    }
    return TESSERA_SUCCESS;
}

int del_procs(mca_btl_base_module_t *, size_t nprocs, tessera_proc_t *const *, mca_btl_base_endpoint_t **endpoints)
{
    if (state == nullptr) {
        return TESSERA_SUCCESS;
    }
    for (size_t i = 0; i < nprocs; ++i) {
        ShmEndpoint *e = as_shm(endpoints[i]);
        if (e == nullptr) {
            continue;
        }
        for (size_t k = 0; k < state->incoming_from.size(); ++k) {
            if (state->incoming_from[k] == e) {
                state->incoming.erase(state->incoming.begin() + static_cast<std::ptrdiff_t>(k));
                state->incoming_from.erase(state->incoming_from.begin() + static_cast<std::ptrdiff_t>(k));
                break;
            }
        }
        state->by_local_rank[e->local_rank].reset();
    }
    return TESSERA_SUCCESS;
}

} // namespace

mca_btl_base_module_t *module_create(uint32_t local_rank, uint32_t local_size, Segment *segment)
{
    delete state;
    state = new State();
    state->me = local_rank;
    state->segment = segment;
    state->by_local_rank.resize(local_size);
    module = mca_btl_base_module_t{
        .btl_component = &mca_btl_shm_component,
        .btl_name = "shm",
        .btl_eager_limit = params.eager_limit,
        .btl_max_send_size = params.max_send_size,
        .btl_exclusivity = MCA_BTL_EXCLUSIVITY_DEFAULT,
        .btl_latency = params.latency,
        .btl_bandwidth = params.bandwidth,
        .btl_flags = MCA_BTL_FLAG_SEND | (params.single_copy == kSingleCopyCma ? MCA_BTL_FLAG_GET : 0u),
        .btl_add_procs = add_procs,
        .btl_del_procs = del_procs,
        .btl_send = send,
        .btl_progress = progress,
        .btl_finalize = finalize,
        .btl_get = get,
        .btl_get_limit = params.get_limit,
        .module_state = state,
        .reserved = {},
    };
    return &module;
}

void module_destroy()
{
    delete state;
    state = nullptr;
}

} // namespace tessera::ompi::btl_shm
