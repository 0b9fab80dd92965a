/*
 * btl shm: the module — send copies a short fragment into a cell of the peer's queue (or of the fast
 * box granted to the peer), a longer one into a fragment of the own pool that a cell points to;
 * progress hands each published cell of the own queue and of the boxes granted to this process to the
 * receive callback in place and frees cell and fragment after.
 */
#include <cstring>
#include <mutex>

#include "components/btl/shm/btl_shm_endpoint.h"
#include "components/btl/shm/btl_shm_fast_box.h"
#include "components/btl/shm/btl_shm_queue.h"
#include "opal/tsan.h"

namespace tessera::ompi::btl_shm {
namespace {

/* Empty progress passes between two readings of the clock for the liveness check: reading it costs
 * more than a pass, and the check interval is in tenths of a second, so this only spreads the cost. */
constexpr uint32_t kIdlePassesPerClockRead = 1024;

/* A plain pointer: the framework may be closed by an exit handler after this DSO's static objects
 * were destroyed (a rank leaving without MPI_Finalize). */
ModuleState *state = nullptr;
mca_btl_base_module_t module;

/* A free fragment of the own pool, marked busy for `receiver`; null when every one is still held. Only
 * this process allocates from its pool, so finding one free needs no read-modify-write. */
FragHeader *take_fragment(ModuleState *s, uint32_t receiver, uint32_t *index)
{
    for (uint32_t n = 0; n < s->fragments; ++n) {
        const uint32_t i = s->cursor;
        if (++s->cursor == s->fragments) {
            s->cursor = 0;
        }
        FragHeader *f = Segment::fragment(s->own, s->stride, i);
        /* Acquire: the receiver's reads of the fragment are done before it is written again. */
        if (f->busy.load(std::memory_order_acquire) == 0) {
            opal::tsan_acquire(f); /* the receiver that freed it is another process */
            f->busy.store(1, std::memory_order_relaxed);
            f->receiver = receiver;
            *index = i;
            return f;
        }
    }
    return nullptr;
}

/* take_fragment for a sender that may share the pool with other threads (MPI_THREAD_MULTIPLE). */
FragHeader *take_fragment_for(ModuleState *s, uint32_t receiver, uint32_t *index)
{
    if (s->threaded) {
        std::lock_guard lock(s->send_lock);
        return take_fragment(s, receiver, index);
    }
    return take_fragment(s, receiver, index);
}

void gather(char *to, const mca_btl_base_segment_t *segments, size_t segment_count)
{
    for (size_t i = 0; i < segment_count; ++i) {
        std::memcpy(to, segments[i].seg_addr, segments[i].seg_len);
        to += segments[i].seg_len;
    }
}

/* A fragment filled for the peer: the next thread to take it (after the peer freed it) comes after. */
void gather_fragment(FragHeader *frag, const mca_btl_base_segment_t *segments, size_t segment_count)
{
    gather(reinterpret_cast<char *>(frag + 1), segments, segment_count);
    opal::tsan_release(frag);
}

inline void label(Cell *cell, uint32_t length, uint32_t sender, mca_btl_base_tag_t tag, uint8_t kind)
{
    cell->length = length;
    cell->sender = static_cast<uint16_t>(sender);
    cell->tag = tag;
    cell->kind = kind;
}

/* Through the peer's queue (many senders: a compare-exchange claims the cell). */
int queue_send(ModuleState *s, Endpoint *e, mca_btl_base_tag_t tag, const mca_btl_base_segment_t *segments,
               size_t segment_count, size_t total)
{
    uint64_t position = 0;
    if (total <= kInlineBytes) {
        Cell *cell = queue_claim(e->peer, s->depth, &position);
        if (cell == nullptr) {
            return TESSERA_ERR_OUT_OF_RESOURCE;
        }
        gather(reinterpret_cast<char *>(cell->data), segments, segment_count);
        label(cell, static_cast<uint32_t>(total), s->me, tag, kCellData);
        queue_publish(cell, position, s->depth);
        return MCA_BTL_SEND_COMPLETE;
    }
    if (!queue_has_room(e->peer, s->depth)) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    uint32_t index = 0;
    FragHeader *frag = take_fragment_for(s, e->local_rank, &index);
    if (frag == nullptr) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    /* Copied before the position is claimed: a sender descheduled between claim and publish holds up
     * every cell behind its own, so that window is kept to a few stores. */
    gather_fragment(frag, segments, segment_count);
    Cell *cell = queue_claim(e->peer, s->depth, &position);
    if (cell == nullptr) {
        frag->busy.store(0, std::memory_order_relaxed); /* another sender took the last cell; retried */
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    cell->fragment = index;
    label(cell, static_cast<uint32_t>(total), s->me, tag, kCellData);
    queue_publish(cell, position, s->depth);
    return MCA_BTL_SEND_COMPLETE;
}

/* Through the fast box granted to the peer (one sender: no claim, a store-release publishes). A full
 * box is back-pressure, as a full queue is. */
int box_send(ModuleState *s, Endpoint *e, mca_btl_base_tag_t tag, const mca_btl_base_segment_t *segments,
             size_t segment_count, size_t total)
{
    const uint64_t position = e->box_next;
    Cell *cell = box_claim(e->box, s->box_depth, position);
    if (cell == nullptr) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    if (total <= kInlineBytes) {
        gather(reinterpret_cast<char *>(cell->data), segments, segment_count);
    } else {
        uint32_t index = 0;
        FragHeader *frag = take_fragment_for(s, e->local_rank, &index);
        if (frag == nullptr) {
            return TESSERA_ERR_OUT_OF_RESOURCE;
        }
        gather_fragment(frag, segments, segment_count);
        cell->fragment = index;
    }
    label(cell, static_cast<uint32_t>(total), s->me, tag, kCellData);
    queue_publish(cell, position, s->box_depth);
    e->box_next = position + 1;
    return MCA_BTL_SEND_COMPLETE;
}

/* After btl_shm_fast_box_after fragments through the queue: takes a slot among the boxes the peer
 * polls and a box of the own region, and grants it with a cell in the peer's queue, behind every
 * fragment sent so far. Out of slots or boxes: the queue for good. Queue full: asked again after the
 * next fragment. */
[[gnu::noinline]] void open_box(ModuleState *s, Endpoint *e)
{
    e->until_box = kNoBox;
    if (s->box_after == 0 || s->fast_boxes == 0) {
        return;
    }
    if (e->box_index < 0) {
        std::atomic<uint32_t> &slots = e->peer.position->boxes_in;
        if (slots.fetch_add(1, std::memory_order_relaxed) >= s->fast_boxes) {
            slots.fetch_sub(1, std::memory_order_relaxed);
            return;
        }
        const uint32_t index = s->boxes_given.fetch_add(1, std::memory_order_relaxed);
        if (index >= s->fast_boxes) {
            slots.fetch_sub(1, std::memory_order_relaxed);
            return;
        }
        e->box_index = static_cast<int32_t>(index);
    }
    uint64_t position = 0;
    Cell *cell = queue_claim(e->peer, s->depth, &position);
    if (cell == nullptr) {
        e->until_box = 1;
        return;
    }
    cell->fragment = static_cast<uint32_t>(e->box_index);
    label(cell, 0, s->me, 0, kCellBoxGrant);
    queue_publish(cell, position, s->depth);
    e->box = box_cells(s->own, static_cast<uint32_t>(e->box_index), s->box_depth);
    e->box_next = 0;
}

int send_to(ModuleState *s, Endpoint *e, mca_btl_base_tag_t tag, const mca_btl_base_segment_t *segments,
            size_t segment_count, size_t total)
{
    if (e->box != nullptr) {
        return box_send(s, e, tag, segments, segment_count, total);
    }
    const int rc = queue_send(s, e, tag, segments, segment_count, total);
    if (rc == MCA_BTL_SEND_COMPLETE && --e->until_box == 0) [[unlikely]] {
        open_box(s, e);
    }
    return rc;
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
    /* Under MPI_THREAD_MULTIPLE a box has one producer, and a thread must not put a fragment into the
     * queue after another granted the box (it would be delivered after the box's later fragments):
     * the endpoint's lock covers the choice and the send. The own pool has its own lock. */
    if (state->threaded) {
        std::lock_guard lock(e->lock);
        return send_to(state, e, tag, segments, segment_count, total);
    }
    return send_to(state, e, tag, segments, segment_count, total);
}

/* Hands a published cell of peer e to the receive callback in place; its fragment is the sender's
 * again once the callback returned. */
inline void deliver(mca_btl_base_module_t *btl, ModuleState *s, Endpoint *e, Cell *cell)
{
    FragHeader *frag = nullptr;
    const void *data = cell->data;
    if (cell->length > kInlineBytes) {
        frag = Segment::fragment(e->peer, s->stride, cell->fragment);
        data = frag + 1;
    }
    const mca_btl_base_segment_t segment{const_cast<void *>(data), cell->length};
    const mca_btl_base_recv_desc_t desc{reinterpret_cast<mca_btl_base_endpoint_t *>(e), e->proc, &segment, 1,
                                        cell->tag};
    mca_btl_base_deliver(btl, &desc);
    if (frag != nullptr) {
        frag->busy.store(0, std::memory_order_release);
    }
}

/* A cell of a peer that del_procs let go: nobody takes it, but its fragment goes back. */
inline void drop(ModuleState *s, uint32_t sender, Cell *cell)
{
    if (cell->length > kInlineBytes) {
        Segment::fragment(s->segment->region(sender), s->stride, cell->fragment)->busy.store(0, std::memory_order_release);
    }
}

/* A grant in the own queue: the sender's box is polled from now on, after the queue. */
void accept_box(ModuleState *s, const Cell *cell)
{
    const uint32_t n = s->inbox_count.load(std::memory_order_relaxed);
    /* The sender took one of the fast_boxes slots first; a cell that says otherwise is ignored. */
    if (n >= s->fast_boxes || cell->sender >= s->local_size || cell->fragment >= s->fast_boxes) {
        return;
    }
    InBox &in = s->inboxes[n];
    in.cells = box_cells(s->segment->region(cell->sender), cell->fragment, s->box_depth);
    in.sender = cell->sender;
    in.head.store(0, std::memory_order_relaxed);
    s->inbox_count.store(n + 1, std::memory_order_release);
}

/* Delivers what arrived in the own queue, at most a queue's worth, so that senders that keep sending
 * cannot keep this call from returning. */
int drain(mca_btl_base_module_t *btl, ModuleState *s)
{
    int events = 0;
    uint64_t head = s->queue_head.load(std::memory_order_relaxed);
    for (uint32_t n = 0; n < s->depth; ++n) {
        Cell *cell = queue_peek(s->own, s->depth, head);
        if (cell == nullptr) {
            break;
        }
        if (cell->kind == kCellBoxGrant) [[unlikely]] {
            accept_box(s, cell);
        } else {
            Endpoint *e = cell->sender < s->local_size ? s->by_local_rank[cell->sender].get() : nullptr;
            if (e == nullptr) {
                if (cell->sender >= s->local_size || !s->removed[cell->sender]) {
                    break; /* a peer this process has not added yet: its cells wait, in order, until it has */
                }
                drop(s, cell->sender, cell);
            } else {
                deliver(btl, s, e, cell);
                ++events;
            }
        }
        queue_free(cell, head, s->depth);
        s->queue_head.store(++head, std::memory_order_relaxed);
    }
    return events;
}

/* Delivers what arrived in one box granted to this process, at most a box's worth. */
int drain_box(mca_btl_base_module_t *btl, ModuleState *s, InBox &in)
{
    int events = 0;
    uint64_t head = in.head.load(std::memory_order_relaxed);
    for (uint32_t n = 0; n < s->box_depth; ++n) {
        Cell *cell = ring_peek(in.cells, s->box_depth, head);
        if (cell == nullptr) {
            break;
        }
        Endpoint *e = s->by_local_rank[in.sender].get();
        if (e == nullptr) {
            if (!s->removed[in.sender]) {
                break;
            }
            drop(s, in.sender, cell);
        } else {
            deliver(btl, s, e, cell);
            ++events;
        }
        queue_free(cell, head, s->box_depth);
        in.head.store(++head, std::memory_order_relaxed);
    }
    return events;
}

int drain_boxes(mca_btl_base_module_t *btl, ModuleState *s)
{
    int events = 0;
    const uint32_t boxes = s->inbox_count.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i < boxes; ++i) {
        events += drain_box(btl, s, s->inboxes[i]);
    }
    return events;
}

/* Counts a pass that delivered nothing; true when it is this one's turn to check the peers. */
bool idle_turn(ModuleState *s)
{
    if (params.peer_check_interval <= 0) {
        return false;
    }
    const uint32_t idle = s->idle_passes.load(std::memory_order_relaxed) + 1;
    const bool turn = idle >= kIdlePassesPerClockRead;
    s->idle_passes.store(turn ? 0 : idle, std::memory_order_relaxed);
    return turn;
}

/* A pass that found a cell, or whose turn it is to check the peers: drains under progressing. */
[[gnu::noinline]] int progress_guarded(mca_btl_base_module_t *btl, ModuleState *s, bool check_turn)
{
    /* Also keeps a receive callback that progresses from delivering its own cell a second time. */
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
    int events = drain(btl, s);
    if (s->inbox_count.load(std::memory_order_relaxed) != 0) {
        events += drain_boxes(btl, s);
    }
    if (events == 0 && (check_turn || idle_turn(s))) {
        check_peers(btl, s);
    }
    s->progressing.store(false, std::memory_order_release);
    return events;
}

/* A pass whose first look found a cell in box `in` (and none in the queue): drains that box alone, the
 * queue and the other boxes being looked at again by the next pass. */
[[gnu::noinline]] int progress_box(mca_btl_base_module_t *btl, ModuleState *s, InBox &in)
{
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
    const int events = drain_box(btl, s, in);
    s->progressing.store(false, std::memory_order_release);
    return events;
}

int progress(mca_btl_base_module_t *btl)
{
    ModuleState *s = state;
    if (s->segment == nullptr) {
        return 0; /* no peer added yet: the own queue is not mapped */
    }
    /* Most passes find nothing: one look at the head cell, nothing taken. A head read while another
     * thread drains is at worst stale, and drain looks again. */
    if (queue_peek(s->own, s->depth, s->queue_head.load(std::memory_order_relaxed)) != nullptr) [[unlikely]] {
        return progress_guarded(btl, s, false);
    }
    /* Then each box granted to this process (none: one look at a count of this process's memory). */
    const uint32_t boxes = s->inbox_count.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < boxes; ++i) {
        InBox &in = s->inboxes[i];
        if (ring_peek(in.cells, s->box_depth, in.head.load(std::memory_order_relaxed)) != nullptr) {
            return progress_box(btl, s, in);
        }
    }
    if (idle_turn(s)) [[unlikely]] {
        return progress_guarded(btl, s, true);
    }
    return 0;
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
    state->fragments = params.fragments;
    state->max_fragment = params.common.max_send_size;
    state->stride = (sizeof(FragHeader) + params.common.max_send_size + kCacheLine - 1) & ~uint64_t{kCacheLine - 1};
    state->by_local_rank.resize(local_size);
    state->removed.assign(local_size, 0);
    state->threaded = threaded;
    state->box_after = params.fast_box_after;
    state->fast_boxes = params.fast_boxes;
    state->box_depth = params.fast_box_depth;
    state->inboxes = std::make_unique<InBox[]>(params.fast_boxes);
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
