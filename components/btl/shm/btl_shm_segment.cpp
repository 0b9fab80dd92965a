/* btl shm: the host's shared segment (btl_shm_segment.h). */
#include "components/btl/shm/btl_shm_segment.h"

#include <sys/mman.h>

#include <new>

#include "components/btl/shm/btl_shm.h"

namespace tessera::ompi::btl_shm {

namespace {

constexpr uint64_t kMagic = 0x74657373736d3032ull; /* "tessshm02": layout version in the last digits */

uint64_t round_up(uint64_t n)
{
    return (n + kCacheLine - 1) & ~uint64_t{kCacheLine - 1};
}

struct Geometry {
    uint64_t slot_stride;
    uint64_t ring_stride;
    uint64_t bytes;
};

Geometry geometry(uint32_t local_size, uint32_t fifo_depth, uint64_t max_fragment)
{
    Geometry g{};
    g.slot_stride = round_up(sizeof(SlotHeader) + max_fragment);
    g.ring_stride = sizeof(RingTail) + g.slot_stride * fifo_depth;
    const uint64_t rings = uint64_t{local_size} * (local_size - 1);
    g.bytes = round_up(sizeof(SegmentHeader)) + g.ring_stride * rings;
    return g;
}

} // namespace

std::string segment_name(uint32_t jobid, uint32_t node_id)
{
    return "/tessera-" + std::to_string(jobid) + "-shm-" + std::to_string(node_id);
}

bool Segment::create(const std::string &name, uint32_t local_size, uint32_t fifo_depth, uint64_t max_fragment,
                     std::string *error)
{
    const Geometry g = geometry(local_size, fifo_depth, max_fragment);
    if (!file_.create(name, g.bytes, "local ranks squared times btl_shm_fifo_depth times btl_shm_max_send_size",
                      error)) {
        return false;
    }
    /* The file starts zeroed: every tail and sequence number is already 0. */
    header_ = new (file_.base()) SegmentHeader{};
    header_->local_size = local_size;
    header_->fifo_depth = fifo_depth;
    header_->max_fragment = max_fragment;
    header_->slot_stride = g.slot_stride;
    header_->ring_stride = g.ring_stride;
    header_->bytes = g.bytes;
    header_->attached.store(0, std::memory_order_relaxed);
    /* Written last: a rank that maps the segment trusts the header once it sees the magic, and the
     * fence between creation and the others' attach orders the two. */
    std::atomic_ref<uint64_t>(header_->magic).store(kMagic, std::memory_order_release);
    name_ = name;
    return true;
}

bool Segment::attach(const std::string &name, uint32_t local_size, uint32_t fifo_depth, uint64_t max_fragment,
                     std::string *error)
{
    if (!file_.open(name, "local rank 0 of the host creates it", error)) {
        return false;
    }
    if (file_.bytes() < sizeof(SegmentHeader)) {
        *error = "the segment /dev/shm" + name + " is too small to be this job's";
        file_.unmap();
        return false;
    }
    header_ = static_cast<SegmentHeader *>(file_.base());
    const Geometry g = geometry(local_size, fifo_depth, max_fragment);
    if (std::atomic_ref<uint64_t>(header_->magic).load(std::memory_order_acquire) != kMagic ||
        header_->bytes != file_.bytes() || header_->local_size != local_size) {
        *error = "the segment /dev/shm" + name + " was not made by this job's local rank 0 (or by another "
                 "version of Tessera)";
    } else if (header_->max_fragment != max_fragment || header_->fifo_depth != fifo_depth ||
               header_->bytes != g.bytes) {
        *error = "btl_shm_max_send_size and btl_shm_fifo_depth are " + std::to_string(max_fragment) + " and " +
                 std::to_string(fifo_depth) + " here but " + std::to_string(header_->max_fragment) + " and " +
                 std::to_string(header_->fifo_depth) + " in local rank 0: every rank of a host must use the same values";
    } else {
        name_ = name;
        return true;
    }
    file_.unmap();
    header_ = nullptr;
    return false;
}

void Segment::count_in()
{
    counted_ = true;
    if (header_->attached.fetch_add(1, std::memory_order_acq_rel) + 1 == header_->local_size) {
        shm_unlink(name_.c_str());
    }
}

void Segment::release()
{
    if (header_ == nullptr) {
        return;
    }
    /* Some local rank never mapped it (it declined shm, or failed before its add_procs): nobody will
     * be the last to count in, so the name goes now. A rank that still wants to map it gets ENOENT and
     * says so, which is better than leaving the segment behind. */
    if (counted_ && header_->attached.load(std::memory_order_acquire) < header_->local_size) {
        shm_unlink(name_.c_str());
    }
    file_.unmap();
    header_ = nullptr;
    counted_ = false;
}

RingView Segment::ring(uint32_t from, uint32_t to) const
{
    /* Rings to oneself are not stored: (from, to) is number from * (n - 1) + to, less one past the
     * diagonal. */
    const uint64_t n = header_->local_size;
    const uint64_t index = from * (n - 1) + (to < from ? to : to - 1);
    char *ring = reinterpret_cast<char *>(header_) + round_up(sizeof(SegmentHeader)) + header_->ring_stride * index;
    return RingView{reinterpret_cast<RingTail *>(ring), ring + sizeof(RingTail)};
}

} // namespace tessera::ompi::btl_shm
