/*
 * btl shm: the host's shared segment and its layout. Each local rank owns one region: a receive queue
 * that every other local rank may append to, and a pool of fragments that only the owner fills as a
 * sender. Memory is therefore linear in the local ranks (docs/btl-shm.md).
 *
 *   header (one cache line)
 *   region of local rank 0, region of local rank 1, ...
 *   region: queue position line, fifo_depth cells of 64 bytes, fast_boxes x fast_box_depth cells (the
 *           fast boxes this rank may grant, btl_shm_fast_box.h), fragments x frag_stride bytes
 *   fragment: FragHeader (16 bytes), then up to max_fragment bytes
 */
#ifndef TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_SEGMENT_H
#define TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_SEGMENT_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "opal/shared_file.h"

namespace tessera::ompi::btl_shm {

inline constexpr std::size_t kCacheLine = 64;

/* Bytes of a fragment carried in the queue cell itself. A short message (pml header of 40 bytes and 8
 * bytes of data) then crosses cores as one cache line, signal included. */
inline constexpr uint32_t kInlineBytes = 48;

/* One entry of a receive queue. For position p (lap p / fifo_depth) the cell is free when
 * seq == 2 * lap and published when seq == 2 * lap + 1; the zeroed file is an empty queue. */
struct alignas(kCacheLine) Cell {
    std::atomic<uint64_t> seq;
    uint32_t length;
    uint16_t sender; /* local rank */
    uint8_t tag;
    uint8_t kind; /* kCellData, or kCellBoxGrant in a queue (btl_shm_fast_box.h) */
    union {
        unsigned char data[kInlineBytes]; /* length <= kInlineBytes */
        uint32_t fragment;                /* otherwise: index in the sender's pool */
    };
};
static_assert(sizeof(Cell) == kCacheLine);

/* The next position a sender may claim; senders take it with a compare-exchange. */
struct alignas(kCacheLine) QueuePosition {
    std::atomic<uint64_t> next;
    /* Fast boxes granted to this rank: a sender takes one of the fast_boxes slots before it grants a
     * box, so that a rank polls at most fast_boxes boxes. Touched once per pair. */
    std::atomic<uint32_t> boxes_in;
};
static_assert(sizeof(QueuePosition) == kCacheLine);

/* busy: 0 while the owner may fill it, 1 from the send until the receiver has delivered it. */
struct FragHeader {
    std::atomic<uint32_t> busy;
    uint32_t receiver; /* local rank; lets the owner take back what a receiver that died never freed */
    uint64_t reserved;
};
static_assert(sizeof(FragHeader) == 16);

/* What shapes the segment; every local rank must use the same values. */
struct Shape {
    uint32_t local_size;
    uint32_t fifo_depth;
    uint32_t fragments;
    uint64_t max_fragment; /* btl_shm_max_send_size */
    uint32_t fast_boxes;
    uint32_t box_depth;
};

struct alignas(kCacheLine) SegmentHeader {
    uint64_t magic;
    uint32_t local_size;
    uint32_t fifo_depth;
    uint32_t fragments;
    uint32_t unusable; /* 1: local rank 0 could not reserve the memory and said so; the others stay quiet */
    uint64_t max_fragment;
    uint64_t region_stride;
    uint64_t bytes;
    uint32_t fast_boxes;
    uint32_t box_depth;
    /* Local ranks that mapped it. Named: the last one removes the name. Unnamed: local rank 0 closes
     * the descriptor the others opened it through once all have. */
    std::atomic<uint32_t> attached;
};
static_assert(sizeof(SegmentHeader) == kCacheLine);

/* One rank's region, as a process sees it through its own mapping. */
struct RegionView {
    QueuePosition *position;
    Cell *cells;
    Cell *boxes; /* fast_boxes x box_depth cells */
    char *fragments;
};

/* Bytes the segment takes for this shape. */
uint64_t segment_bytes(const Shape &shape);

class Segment {
public:
    Segment() = default;
    Segment(const Segment &) = delete;
    Segment &operator=(const Segment &) = delete;
    ~Segment() { release(); }

    /* Local rank 0, before the fence: creates, sizes (the memory is reserved now, so that a full
     * /dev/shm is an error here and not a SIGBUS later) and maps the segment. Unnamed (a memfd, the
     * default: nothing is ever in /dev/shm, whatever kills the job) or named /dev/shm<name>
     * (btl_shm_unnamed false). When the memory cannot be had, *error says how much is needed, how much
     * there is and what shrinks it, and a header-only segment marked unusable is left for the other
     * ranks, so that only this rank speaks. */
    bool create(const std::string &name, const Shape &shape, bool unnamed, std::string *error);
    /* Where the others find it: /proc/<pid>/fd/<n> of an unnamed one while it is open, else the name. */
    std::string path() const { return file_.path(); }
    /* The other local ranks, after the fence: map what rank 0 made (`path` /proc/<pid>/fd/<n> of an
     * unnamed one, else empty for the name) and check it was made for the same job size and the same
     * parameters. False with an empty *error: rank 0 already reported. */
    bool attach(const std::string &name, const std::string &path, const Shape &shape, std::string *error);
    /* Counts this process in; the last of the host's ranks removes the name of a named one, so that
     * nothing is left in /dev/shm whatever happens to the ranks later. */
    void count_in();
    /* Local rank 0 of an unnamed segment: closes the descriptor the others open it through once every
     * local rank has mapped it (called while idle; a no-op otherwise). */
    void settle();
    bool way_in_open() const { return way_in_open_; }
    /* Unmaps; removes the name too when some local rank never came to map it. */
    void release();

    bool mapped() const { return header_ != nullptr; }
    const SegmentHeader &header() const { return *header_; }
    RegionView region(uint32_t local_rank) const;
    static FragHeader *fragment(const RegionView &region, uint64_t stride, uint32_t index)
    {
        return reinterpret_cast<FragHeader *>(region.fragments + stride * index);
    }

private:
    opal::SharedFile file_;
    SegmentHeader *header_ = nullptr;
    std::string name_; /* of a named one, until it is removed */
    bool counted_ = false;
    bool way_in_open_ = false; /* local rank 0 of an unnamed one, until settle() closed the descriptor */
};

} // namespace tessera::ompi::btl_shm

#endif
