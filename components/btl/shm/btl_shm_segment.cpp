/* btl shm: the host's shared segment (btl_shm.h). */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "components/btl/shm/btl_shm.h"

namespace tessera::ompi::btl_shm {

namespace {

constexpr uint64_t kMagic = 0x7465737365726131ull; /* "tessera1" */

uint64_t round64(uint64_t n)
{
    return (n + 63) & ~uint64_t{63};
}

std::string errno_text(const char *what, const std::string &name)
{
    return std::string(what) + " /dev/shm" + name + ": " + std::strerror(errno);
}

} // namespace

std::string segment_name(uint32_t jobid, uint32_t node_id)
{
    return "/tessera-" + std::to_string(jobid) + "-shm-" + std::to_string(node_id);
}

bool Segment::create(const std::string &name, uint32_t local_size, std::string *error)
{
    const uint64_t slot_size = round64(sizeof(Slot) + params.max_send_size);
    const uint64_t ring_size = round64(sizeof(Ring) + params.fifo_depth * slot_size);
    const uint64_t rings_at = round64(sizeof(SegmentHeader));
    bytes_ = rings_at + ring_size * local_size * local_size;
    const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        *error = errno_text("cannot create", name);
        return false;
    }
    if (ftruncate(fd, static_cast<off_t>(bytes_)) != 0) {
        *error = errno_text("cannot size", name);
        close(fd);
        shm_unlink(name.c_str());
        return false;
    }
    void *p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        *error = errno_text("cannot map", name);
        shm_unlink(name.c_str());
        return false;
    }
    header_ = static_cast<SegmentHeader *>(p);
    header_->magic = kMagic;
    header_->local_size = local_size;
    header_->fifo_depth = params.fifo_depth;
    header_->slot_size = slot_size;
    header_->ring_size = ring_size;
    new (&header_->attached) std::atomic<uint32_t>(0);
    for (uint32_t from = 0; from < local_size; ++from) {
        for (uint32_t to = 0; to < local_size; ++to) {
            Ring *r = ring(from, to);
            new (&r->head) std::atomic<uint64_t>(0);
            new (&r->tail) std::atomic<uint64_t>(0);
            for (uint64_t i = 0; i < params.fifo_depth; ++i) {
                new (&slot(r, i)->seq) std::atomic<uint64_t>(0);
            }
        }
    }
    return true;
}

bool Segment::attach(const std::string &name, std::string *error)
{
    const int fd = shm_open(name.c_str(), O_RDWR, 0600);
    if (fd < 0) {
        *error = errno_text("cannot open", name);
        return false;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(SegmentHeader))) {
        *error = "the segment /dev/shm" + name + " is not one of this job's";
        close(fd);
        return false;
    }
    bytes_ = static_cast<std::size_t>(st.st_size);
    void *p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        *error = errno_text("cannot map", name);
        return false;
    }
    header_ = static_cast<SegmentHeader *>(p);
    if (header_->magic != kMagic) {
        *error = "the segment /dev/shm" + name + " is not one of this job's";
        unmap();
        return false;
    }
    return true;
}

void Segment::joined(const std::string &name)
{
    if (header_->attached.fetch_add(1, std::memory_order_acq_rel) + 1 == header_->local_size) {
        shm_unlink(name.c_str());
    }
}

void Segment::unmap()
{
    if (header_ != nullptr) {
        munmap(header_, bytes_);
        header_ = nullptr;
    }
}

Ring *Segment::ring(uint32_t from, uint32_t to) const
{
    auto *base = reinterpret_cast<char *>(header_) + round64(sizeof(SegmentHeader));
    return reinterpret_cast<Ring *>(base + header_->ring_size * (static_cast<uint64_t>(from) * header_->local_size + to));
}

Slot *Segment::slot(Ring *r, uint64_t index) const
{
    return reinterpret_cast<Slot *>(reinterpret_cast<char *>(r) + sizeof(Ring) +
                                    (index % header_->fifo_depth) * header_->slot_size);
}

} // namespace tessera::ompi::btl_shm
