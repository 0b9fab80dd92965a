/*
 * btl shm: the receive queue of a local rank — bounded, many senders, one receiver, no lock. A sender
 * claims the next position with a compare-exchange, fills the cell and publishes it with a
 * store-release of its sequence number; the receiver delivers cells in position order and frees each
 * with a store-release. A sender's cells enter in the order it claimed them, so order per
 * (sender, receiver) holds. A full queue is back-pressure: the claim fails and the caller retries.
 */
#ifndef TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_QUEUE_H
#define TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_QUEUE_H

#include <atomic>
#include <bit>
#include <cstdint>

#include "components/btl/shm/btl_shm_segment.h"

namespace tessera::ompi::btl_shm {

/* Lap of a position: a cell is free for position p when its seq is 2 * (p / depth), and holds p once
 * its seq is 2 * (p / depth) + 1. depth is a power of two (btl_shm_fifo_depth): a shift, not a division,
 * in every poll and every send. */
inline uint64_t free_mark(uint64_t position, uint32_t depth)
{
    return 2 * (position >> std::countr_zero(depth));
}

/* The cell of a position. */
inline Cell &cell_at(Cell *cells, uint64_t position, uint32_t depth)
{
    return cells[position & (depth - 1)];
}
inline Cell &cell_at(const RegionView &q, uint64_t position, uint32_t depth)
{
    return cell_at(q.cells, position, depth);
}

/* Whether the next position looks free, without claiming it: a sender checks this before copying a
 * large fragment, so that a full queue does not cost a copy. */
inline bool queue_has_room(const RegionView &q, uint32_t depth)
{
    const uint64_t p = q.position->next.load(std::memory_order_relaxed);
    return cell_at(q, p, depth).seq.load(std::memory_order_acquire) >= free_mark(p, depth);
}

/* Claims the next position; null when the queue is full. *position receives it, for publish. */
inline Cell *queue_claim(const RegionView &q, uint32_t depth, uint64_t *position)
{
    uint64_t p = q.position->next.load(std::memory_order_relaxed);
    for (;;) {
        Cell *cell = &cell_at(q, p, depth);
        const uint64_t seq = cell->seq.load(std::memory_order_acquire);
        const uint64_t mark = free_mark(p, depth);
        if (seq == mark) {
            /* Acquire above ordered the receiver's last reads of the cell before our writes. */
            if (q.position->next.compare_exchange_weak(p, p + 1, std::memory_order_relaxed)) {
                *position = p;
                return cell;
            }
        } else if (seq < mark) {
            return nullptr; /* the cell still holds position p - depth: full */
        } else {
            p = q.position->next.load(std::memory_order_relaxed); /* another sender took p */
        }
    }
}

inline void queue_publish(Cell *cell, uint64_t position, uint32_t depth)
{
    cell->seq.store(free_mark(position, depth) + 1, std::memory_order_release);
}

/* The receiver's side: the cell at its head when it is published, else null. The same for a queue
 * and a fast box (btl_shm_fast_box.h), whose cells follow the same sequence scheme. */
inline Cell *ring_peek(Cell *cells, uint32_t depth, uint64_t head)
{
    Cell *cell = &cell_at(cells, head, depth);
    return cell->seq.load(std::memory_order_acquire) == free_mark(head, depth) + 1 ? cell : nullptr;
}
inline Cell *queue_peek(const RegionView &q, uint32_t depth, uint64_t head)
{
    return ring_peek(q.cells, depth, head);
}

inline void queue_free(Cell *cell, uint64_t head, uint32_t depth)
{
    cell->seq.store(free_mark(head, depth) + 2, std::memory_order_release);
}

} // namespace tessera::ompi::btl_shm

#endif
