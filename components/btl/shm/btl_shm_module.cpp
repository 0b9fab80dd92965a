/*
 * btl shm: the module — send copies a fragment into the next slot of the ring to the peer, progress
 * hands each published slot of the incoming rings to the receive callback in place and frees it after.
 */
#include <cstring>
#include <mutex>

#include "components/btl/shm/btl_shm_endpoint.h"

namespace tessera::ompi::btl_shm {
namespace {

/* Empty progress passes between two readings of the clock for the liveness check: reading it costs
 * more than a pass, and the check interval is in tenths of a second, so this only spreads the cost. */
constexpr uint32_t kIdlePassesPerClockRead = 1024;

/* A plain pointer: the framework may be closed by an exit handler after this DSO's static objects
 * were destroyed (a rank leaving without MPI_Finalize). */
ModuleState *state = nullptr;
mca_btl_base_module_t module;

int copy_in(ModuleState *s, Endpoint *e, mca_btl_base_tag_t tag, const mca_btl_base_segment_t *segments,
            size_t segment_count, size_t total)
{
    if (e->head - e->tail_seen >= s->depth) {
        e->tail_seen = e->out.tail->tail.load(std::memory_order_acquire);
        if (e->head - e->tail_seen >= s->depth) {
            return TESSERA_ERR_OUT_OF_RESOURCE;
        }
    }
    SlotHeader *slot = Segment::slot(e->out, s->stride, e->out_index);
    auto *payload = reinterpret_cast<char *>(slot + 1);
    for (size_t i = 0; i < segment_count; ++i) {
        std::memcpy(payload, segments[i].seg_addr, segments[i].seg_len);
        payload += segments[i].seg_len;
    }
    slot->length = static_cast<uint32_t>(total);
    slot->tag = tag;
    slot->seq.store(++e->head, std::memory_order_release);
    if (++e->out_index == s->depth) {
        e->out_index = 0;
    }
    return MCA_BTL_SEND_COMPLETE;
}

int send(mca_btl_base_module_t *, mca_btl_base_endpoint_t *endpoint, mca_btl_base_tag_t tag,
         const mca_btl_base_segment_t *segments, size_t segment_count, mca_btl_base_send_done_fn_t, void *)
{
    Endpoint *e = as_shm(endpoint);
    if (e == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (e->gone) {
        return TESSERA_ERR_UNREACH;
    }
    size_t total = 0;
    for (size_t i = 0; i < segment_count; ++i) {
        total += segments[i].seg_len;
    }
    if (total > state->max_fragment) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (state->threaded) {
        std::lock_guard lock(state->send_lock);
        return copy_in(state, e, tag, segments, segment_count, total);
    }
    return copy_in(state, e, tag, segments, segment_count, total);
}

/* Delivers what arrived from one peer, at most a ring's worth, so that a peer that keeps sending
 * cannot keep this call from returning. */
int drain(mca_btl_base_module_t *btl, ModuleState *s, Endpoint *e)
{
    int events = 0;
    for (uint32_t n = 0; n < s->depth; ++n) {
        const SlotHeader *slot = Segment::slot(e->in, s->stride, e->in_index);
        if (slot->seq.load(std::memory_order_acquire) != e->in_tail + 1) {
            break;
        }
        const mca_btl_base_segment_t segment{slot + 1, slot->length};
        const mca_btl_base_recv_desc_t desc{reinterpret_cast<mca_btl_base_endpoint_t *>(e), e->proc, &segment, 1,
                                            slot->tag};
        mca_btl_base_deliver(btl, &desc);
        if (++e->in_index == s->depth) {
            e->in_index = 0;
        }
        /* The slot is the sender's again only now that the callback is done with it. */
        e->in.tail->tail.store(++e->in_tail, std::memory_order_release);
        ++events;
    }
    return events;
}

int progress(mca_btl_base_module_t *btl)
{
    ModuleState *s = state;
    /* Also keeps a receive callback that progresses from delivering its own slot a second time. */
    if (s->threaded) {
        if (s->progressing.exchange(true, std::memory_order_acquire)) {
            return 0;
        }
    } else {
        if (s->progressing.load(std::memory_order_relaxed)) {
            return 0;
        }
        s->progressing.store(true, std::memory_order_relaxed);
    }
    int events = 0;
    for (Endpoint *e : s->polled) {
        events += drain(btl, s, e);
    }
    if (events == 0 && params.peer_check_interval > 0 && ++s->idle_passes >= kIdlePassesPerClockRead) {
        s->idle_passes = 0;
        check_peers(btl, s);
    }
    s->progressing.store(false, std::memory_order_release);
    return events;
}

int finalize(mca_btl_base_module_t *)
{
    if (state != nullptr) {
        release_endpoints(state);
    }
    return TESSERA_SUCCESS;
}

} // namespace

ModuleState *module_state()
{
    return state;
}

mca_btl_base_module_t *module_create(uint32_t local_rank, uint32_t local_size, bool threaded)
{
    delete state;
    state = new ModuleState();
    state->me = local_rank;
    state->local_size = local_size;
    state->depth = params.fifo_depth;
    state->max_fragment = params.common.max_send_size;
    state->stride = (sizeof(SlotHeader) + params.common.max_send_size + kCacheLine - 1) & ~uint64_t{kCacheLine - 1};
    state->by_local_rank.resize(local_size);
    state->threaded = threaded;
    const bool single_copy = params.single_copy != kSingleCopyNone;
    module = mca_btl_base_module_t{
        .btl_component = &mca_btl_shm_component,
        .btl_name = "shm",
        .btl_eager_limit = params.common.eager_limit,
        .btl_max_send_size = params.common.max_send_size,
        .btl_exclusivity = MCA_BTL_EXCLUSIVITY_DEFAULT,
        .btl_latency = params.common.latency,
        .btl_bandwidth = params.common.bandwidth,
        .btl_flags = MCA_BTL_FLAG_SEND | (single_copy ? MCA_BTL_FLAG_GET : 0u),
        .btl_add_procs = add_procs,
        .btl_del_procs = del_procs,
        .btl_send = send,
        .btl_progress = progress,
        .btl_finalize = finalize,
        .btl_get = single_copy ? get : nullptr,
        .btl_get_limit = params.get_limit,
        .module_state = state,
        .reserved = {},
    };
    return &module;
}

void module_destroy()
{
    if (state != nullptr) {
        release_endpoints(state);
    }
    delete state;
    state = nullptr;
}

} // namespace tessera::ompi::btl_shm
