/*
 * btl shm: fast boxes. A sender that has sent btl_shm_fast_box_after fragments to a peer takes a box
 * of its own region's box area (btl_shm_fast_boxes per rank, btl_shm_fast_box_depth cells each) and
 * grants it to that peer with a control cell through the peer's queue. From then on every fragment
 * from this sender to that peer goes into the box: a ring with one producer and one consumer, of the
 * same cells and sequence scheme as the queue (btl_shm_queue.h) but with no shared position to claim,
 * so a send is a check of the cell's sequence and a store-release of it, no locked instruction.
 *
 * Order per (sender, receiver): the fragments sent before the grant are ahead of it in the queue, which
 * the receiver delivers in order, and it starts polling the box only when it delivers the grant; every
 * fragment after the grant is in the box, in the order sent (docs/btl-shm.md). A full box is
 * back-pressure (the caller retries), never a way back into the queue, which would break that order.
 */
#ifndef TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_FAST_BOX_H
#define TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_FAST_BOX_H

#include <atomic>
#include <cstdint>

#include "components/btl/shm/btl_shm_queue.h"

namespace tessera::ompi::btl_shm {

/* Cell::kind of a queue cell that grants a box; Cell::fragment is then the box's index in the sender's
 * box area. */
inline constexpr uint8_t kCellData = 0;
inline constexpr uint8_t kCellBoxGrant = 1;

/* The cells of box `index` of a region. */
inline Cell *box_cells(const RegionView &region, uint32_t index, uint32_t depth)
{
    return region.boxes + uint64_t{index} * depth;
}

/* The producer's side: the cell for `position` when the receiver has freed it, else null (full). */
inline Cell *box_claim(Cell *box, uint32_t depth, uint64_t position)
{
    Cell *cell = &cell_at(box, position, depth);
    /* Acquire: the receiver's reads of the cell are done before it is written again. */
    return cell->seq.load(std::memory_order_acquire) == free_mark(position, depth) ? cell : nullptr;
}

/* A box this process polls: granted by the peer `sender`, in that peer's region. */
struct InBox {
    Cell *cells = nullptr;
    std::atomic<uint64_t> head{0}; /* moved by drain (under progressing); read by progress's first look */
    uint32_t sender = 0;
};

} // namespace tessera::ompi::btl_shm

#endif
