/*
 * btl shm: the host's shared segment and its layout. One ring per ordered pair of distinct local
 * ranks (sender, receiver). The sender alone writes a ring's slots, the receiver alone its tail, so a
 * ring needs no lock and no read-modify-write: the sender publishes a slot with a store-release of its
 * sequence number, the receiver frees it with a store-release of the tail.
 *
 *   header (one cache line)
 *   ring (0 -> 1), ring (0 -> 2), ..., ring (1 -> 0), ring (1 -> 2), ...
 *   ring: tail line, then fifo_depth slots of slot_stride bytes
 *   slot: SlotHeader (16 bytes), then the fragment (up to max_fragment bytes)
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

/* A slot holds the n-th fragment of its ring when seq == n + 1. The signal shares its cache line with
 * the first 48 bytes of the fragment, so a short message crosses cores as one line. */
struct SlotHeader {
    std::atomic<uint64_t> seq;
    uint32_t length;
    uint8_t tag;
    uint8_t reserved[3];
};
static_assert(sizeof(SlotHeader) == 16);

/* Fragments the receiver has consumed; the sender reads it only when its cached copy says full. */
struct alignas(kCacheLine) RingTail {
    std::atomic<uint64_t> tail;
};
static_assert(sizeof(RingTail) == kCacheLine);

struct alignas(kCacheLine) SegmentHeader {
    uint64_t magic;
    uint32_t local_size;
    uint32_t fifo_depth;
    uint64_t max_fragment; /* btl_shm_max_send_size of the creator */
    uint64_t slot_stride;
    uint64_t ring_stride;
    uint64_t bytes;
    std::atomic<uint32_t> attached; /* local ranks that mapped it; the last one removes the name */
};

/* One side of a ring, as a process sees it through its own mapping. */
struct RingView {
    RingTail *tail;
    char *slots;
};

class Segment {
public:
    Segment() = default;
    Segment(const Segment &) = delete;
    Segment &operator=(const Segment &) = delete;
    ~Segment() { release(); }

    /* Local rank 0, before the fence: creates, sizes (the memory is reserved now, so that a full
     * /dev/shm is an error here and not a SIGBUS later) and maps the segment. */
    bool create(const std::string &name, uint32_t local_size, uint32_t fifo_depth, uint64_t max_fragment,
                std::string *error);
    /* The other local ranks, after the fence: map what rank 0 made and check it was made for the
     * same job size and the same ring parameters. */
    bool attach(const std::string &name, uint32_t local_size, uint32_t fifo_depth, uint64_t max_fragment,
                std::string *error);
    /* Counts this process in; the last of the host's ranks removes the name, so that nothing is left
     * in /dev/shm whatever happens to the ranks later. */
    void count_in();
    /* Unmaps; removes the name too when some local rank never came to map it. */
    void release();

    bool mapped() const { return header_ != nullptr; }
    const SegmentHeader &header() const { return *header_; }
    RingView ring(uint32_t from, uint32_t to) const;
    static SlotHeader *slot(const RingView &ring, uint64_t stride, uint32_t index)
    {
        return reinterpret_cast<SlotHeader *>(ring.slots + stride * index);
    }

private:
    opal::SharedFile file_;
    SegmentHeader *header_ = nullptr;
    std::string name_;
    bool counted_ = false;
};

} // namespace tessera::ompi::btl_shm

#endif
