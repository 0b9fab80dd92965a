/* btl shm: the host's shared segment (btl_shm_segment.h). */
#include "components/btl/shm/btl_shm_segment.h"

#include <sys/mman.h>
#include <sys/statvfs.h>

#include <cstdio>
#include <new>

#include "components/btl/shm/btl_shm.h"

namespace tessera::ompi::btl_shm {

namespace {

constexpr uint64_t kMagic = 0x74657373736d3034ull; /* "tessshm04": layout version in the last digits */

/* What /proc/<pid>/maps and /proc/<pid>/fd show of an unnamed segment ("memfd:tessera-btl-shm"). */
constexpr const char *kUnnamedLabel = "tessera-btl-shm";

uint64_t round_up(uint64_t n)
{
    return (n + kCacheLine - 1) & ~uint64_t{kCacheLine - 1};
}

struct Geometry {
    uint64_t frag_stride;
    uint64_t region_stride;
    uint64_t bytes;
};

Geometry geometry(const Shape &s)
{
    Geometry g{};
    g.frag_stride = round_up(sizeof(FragHeader) + s.max_fragment);
    g.region_stride = sizeof(QueuePosition) + sizeof(Cell) * (uint64_t{s.fifo_depth} + uint64_t{s.fast_boxes} * s.box_depth) +
                      g.frag_stride * s.fragments;
    g.bytes = round_up(sizeof(SegmentHeader)) + g.region_stride * s.local_size;
    return g;
}

/* Bytes an unprivileged process may still take in /dev/shm; -1 when statvfs fails. */
int64_t shm_free_bytes()
{
    struct statvfs vfs {};
    if (statvfs("/dev/shm", &vfs) != 0) {
        return -1;
    }
    return static_cast<int64_t>(vfs.f_bavail) * static_cast<int64_t>(vfs.f_frsize);
}

/* Bytes the host could still give an unnamed segment (MemAvailable of /proc/meminfo); -1 unknown. */
int64_t memory_available()
{
    std::FILE *f = std::fopen("/proc/meminfo", "r");
    if (f == nullptr) {
        return -1;
    }
    char line[128];
    int64_t bytes = -1;
    while (std::fgets(line, sizeof line, f) != nullptr) {
        long long kib = 0;
        if (std::sscanf(line, "MemAvailable: %lld kB", &kib) == 1) {
            bytes = static_cast<int64_t>(kib) * 1024;
            break;
        }
    }
    std::fclose(f);
    return bytes;
}

std::string too_small(const std::string &name, bool unnamed, const Shape &s, uint64_t bytes, int64_t free_bytes)
{
    const std::string known = free_bytes < 0 ? std::string("an unknown number of") : std::to_string(free_bytes);
    return "the host segment " + (unnamed ? std::string("(unnamed)") : "/dev/shm" + name) + " needs " +
           std::to_string(bytes) + " bytes (" + std::to_string(s.local_size) + " local ranks x (btl_shm_fragments " +
           std::to_string(s.fragments) + " x btl_shm_max_send_size " + std::to_string(s.max_fragment) +
           " + (btl_shm_fifo_depth " + std::to_string(s.fifo_depth) + " + btl_shm_fast_boxes " +
           std::to_string(s.fast_boxes) + " x btl_shm_fast_box_depth " + std::to_string(s.box_depth) + ") x 64)) but " +
           (unnamed ? "the host has " + known + " bytes of memory available" : "/dev/shm has " + known + " bytes free") +
           ": lower btl_shm_fragments, btl_shm_max_send_size, btl_shm_fifo_depth or btl_shm_fast_boxes" +
           (unnamed ? std::string() : ", or give /dev/shm more room (docker run --shm-size)") +
           "; shm is not used on this host";
}

} // namespace

uint64_t segment_bytes(const Shape &shape)
{
    return geometry(shape).bytes;
}

std::string segment_name(uint32_t jobid, uint32_t node_id)
{
    return "/tessera-" + std::to_string(jobid) + "-shm-" + std::to_string(node_id);
}

bool Segment::create(const std::string &name, const Shape &shape, bool unnamed, std::string *error)
{
    const Geometry g = geometry(shape);
    /* Checked before posix_fallocate: on tmpfs a reservation larger than what is free but smaller than
     * the file system fills it page by page before it fails; and a memfd has no size limit of its own,
     * so a reservation beyond the host's memory would fill it until the OOM killer stepped in. */
    const int64_t free_bytes = unnamed ? memory_available() : shm_free_bytes();
    const char *why_this_size = "local ranks x (btl_shm_fragments x btl_shm_max_send_size + (btl_shm_fifo_depth + "
                                "btl_shm_fast_boxes x btl_shm_fast_box_depth) x 64)";
    std::string why;
    bool made = false;
    if (free_bytes >= 0 && g.bytes > static_cast<uint64_t>(free_bytes)) {
        why = too_small(name, unnamed, shape, g.bytes, free_bytes);
    } else if (unnamed ? !file_.create_unnamed(kUnnamedLabel, g.bytes, why_this_size, error)
                       : !file_.create(name, g.bytes, why_this_size, error)) {
        why = *error + "; " + too_small(name, unnamed, shape, g.bytes, unnamed ? memory_available() : shm_free_bytes());
    } else {
        made = true;
    }
    if (!made) {
        *error = why;
        /* A header alone tells the other ranks that this one reported it. */
        std::string ignored;
        const uint64_t header_bytes = round_up(sizeof(SegmentHeader));
        if (unnamed ? !file_.create_unnamed(kUnnamedLabel, header_bytes, "the header of an unusable segment", &ignored)
                    : !file_.create(name, header_bytes, "the header of an unusable segment", &ignored)) {
            return false;
        }
    }
    /* The file starts zeroed: every queue is empty and every fragment free. */
    header_ = new (file_.base()) SegmentHeader{};
    header_->local_size = shape.local_size;
    header_->fifo_depth = shape.fifo_depth;
    header_->fragments = shape.fragments;
    header_->fast_boxes = shape.fast_boxes;
    header_->box_depth = shape.box_depth;
    header_->unusable = made ? 0 : 1;
    header_->max_fragment = shape.max_fragment;
    header_->region_stride = g.region_stride;
    header_->bytes = made ? g.bytes : round_up(sizeof(SegmentHeader));
    header_->attached.store(0, std::memory_order_relaxed);
    /* Written last: a rank that maps the segment trusts the header once it sees the magic, and the
     * fence between creation and the others' attach orders the two. */
    std::atomic_ref<uint64_t>(header_->magic).store(kMagic, std::memory_order_release);
    if (!unnamed) {
        name_ = name;
    }
    way_in_open_ = unnamed;
    return made;
}

bool Segment::attach(const std::string &name, const std::string &path, const Shape &shape, std::string *error)
{
    const bool unnamed = !path.empty();
    if (unnamed ? !file_.open_path(path, "local rank 0 of the host made it; btl_shm_unnamed false makes a named one "
                                          "in /dev/shm instead, for hosts where ranks cannot open each other's files",
                                   error)
                : !file_.open(name, "local rank 0 of the host creates it", error)) {
        return false;
    }
    const std::string shown = unnamed ? path : "/dev/shm" + name;
    if (file_.bytes() < sizeof(SegmentHeader)) {
        *error = "the segment " + shown + " is too small to be this job's";
        file_.unmap();
        return false;
    }
    header_ = static_cast<SegmentHeader *>(file_.base());
    const Geometry g = geometry(shape);
    if (std::atomic_ref<uint64_t>(header_->magic).load(std::memory_order_acquire) != kMagic ||
        header_->bytes != file_.bytes() || header_->local_size != shape.local_size) {
        *error = "the segment " + shown + " was not made by this job's local rank 0 (or by another version of "
                 "Tessera)";
    } else if (header_->unusable != 0) {
        /* Rank 0 said why. Counting in removes the name once every rank has looked; rank 0, which keeps
         * it mapped until it closes, removes it then if some rank never came. */
        error->clear();
        name_ = unnamed ? std::string() : name;
        count_in();
        counted_ = false;
        file_.unmap();
        header_ = nullptr;
        return false;
    } else if (header_->max_fragment != shape.max_fragment || header_->fifo_depth != shape.fifo_depth ||
               header_->fragments != shape.fragments || header_->fast_boxes != shape.fast_boxes ||
               header_->box_depth != shape.box_depth || header_->bytes != g.bytes) {
        *error = "btl_shm_max_send_size, btl_shm_fifo_depth, btl_shm_fragments, btl_shm_fast_boxes and "
                 "btl_shm_fast_box_depth are " +
                 std::to_string(shape.max_fragment) + ", " + std::to_string(shape.fifo_depth) + ", " +
                 std::to_string(shape.fragments) + ", " + std::to_string(shape.fast_boxes) + " and " +
                 std::to_string(shape.box_depth) + " here but " + std::to_string(header_->max_fragment) + ", " +
                 std::to_string(header_->fifo_depth) + ", " + std::to_string(header_->fragments) + ", " +
                 std::to_string(header_->fast_boxes) + " and " + std::to_string(header_->box_depth) +
                 " in local rank 0: every rank of a host must use the same values";
    } else {
        name_ = unnamed ? std::string() : name;
        return true;
    }
    file_.unmap();
    header_ = nullptr;
    return false;
}

void Segment::count_in()
{
    counted_ = true;
    if (header_->attached.fetch_add(1, std::memory_order_acq_rel) + 1 == header_->local_size && !name_.empty()) {
        shm_unlink(name_.c_str());
        name_.clear();
    }
}

void Segment::settle()
{
    if (way_in_open_ && header_ != nullptr &&
        header_->attached.load(std::memory_order_acquire) == header_->local_size) {
        file_.close_descriptor();
        way_in_open_ = false;
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
    if (counted_ && !name_.empty() && header_->attached.load(std::memory_order_acquire) < header_->local_size) {
        shm_unlink(name_.c_str());
    }
    name_.clear();
    file_.unmap();
    file_.close_descriptor();
    way_in_open_ = false;
    header_ = nullptr;
    counted_ = false;
}

RegionView Segment::region(uint32_t local_rank) const
{
    char *base = reinterpret_cast<char *>(header_) + round_up(sizeof(SegmentHeader)) +
                 header_->region_stride * local_rank;
    auto *position = reinterpret_cast<QueuePosition *>(base);
    auto *cells = reinterpret_cast<Cell *>(base + sizeof(QueuePosition));
    Cell *boxes = cells + header_->fifo_depth;
    return RegionView{position, cells, boxes,
                      reinterpret_cast<char *>(boxes + uint64_t{header_->fast_boxes} * header_->box_depth)};
}

} // namespace tessera::ompi::btl_shm
