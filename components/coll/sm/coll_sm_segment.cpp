/* coll sm: the shared segment of a communicator (coll_sm.h). */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "components/coll/sm/coll_sm.h"

namespace tessera::ompi::coll_sm {

namespace {

constexpr std::uint64_t kMagic = 0x74657373636f6c33ull; /* "tesscol3": layout version in the last digit */

struct Header {
    std::uint64_t magic;
    std::uint64_t procs;
    std::uint64_t depth;
    std::uint64_t slot_bytes;
};

std::size_t round_up(std::size_t n)
{
    return (n + kLine - 1) & ~(kLine - 1);
}

std::size_t stride_of(std::size_t slot_bytes)
{
    return round_up(sizeof(SlotHead) + slot_bytes);
}

std::size_t size_of(int procs, int depth, std::size_t slot_bytes)
{
    const auto n = static_cast<std::size_t>(procs);
    return kLine + n * sizeof(Flag) + static_cast<std::size_t>(depth) * n * stride_of(slot_bytes);
}

std::string errno_text(const char *what, const std::string &name, int err)
{
    return std::string(what) + " /dev/shm" + name + ": " + std::strerror(err);
}

} // namespace

Segment::~Segment()
{
    unmap();
}

void Segment::layout(int procs, int depth, std::size_t slot_bytes)
{
    procs_ = static_cast<std::size_t>(procs);
    depth_ = static_cast<std::size_t>(depth);
    stride_ = stride_of(slot_bytes);
    flags_ = reinterpret_cast<Flag *>(base_ + kLine);
    slots_ = base_ + kLine + procs_ * sizeof(Flag);
}

bool Segment::map(int fd, std::size_t bytes, std::string *error)
{
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        *error = std::string("mmap: ") + std::strerror(errno);
        return false;
    }
    base_ = static_cast<char *>(p);
    bytes_ = bytes;
    return true;
}

bool Segment::create(const std::string &name, int procs, int depth, std::size_t slot_bytes, std::string *error)
{
    const std::size_t bytes = size_of(procs, depth, slot_bytes);
    const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        *error = errno_text("cannot create", name, errno);
        return false;
    }
    /* posix_fallocate, not ftruncate: a full /dev/shm fails here instead of with SIGBUS later. */
    if (const int err = posix_fallocate(fd, 0, static_cast<off_t>(bytes)); err != 0) {
        *error = errno_text("cannot reserve", name, err) + " (" + std::to_string(bytes) + " bytes)";
        close(fd);
        shm_unlink(name.c_str());
        return false;
    }
    const bool mapped = map(fd, bytes, error);
    close(fd);
    if (!mapped) {
        shm_unlink(name.c_str());
        return false;
    }
    /* The file starts zeroed: every flag is 0, no collective entered. */
    auto *h = reinterpret_cast<Header *>(base_);
    h->procs = static_cast<std::uint64_t>(procs);
    h->depth = static_cast<std::uint64_t>(depth);
    h->slot_bytes = slot_bytes;
    std::atomic_ref<std::uint64_t>(h->magic).store(kMagic, std::memory_order_release);
    layout(procs, depth, slot_bytes);
    return true;
}

bool Segment::attach(const std::string &name, int procs, int depth, std::size_t slot_bytes, std::string *error)
{
    const int fd = shm_open(name.c_str(), O_RDWR, 0600);
    if (fd < 0) {
        *error = errno_text("cannot open", name, errno);
        return false;
    }
    struct stat st {};
    const std::size_t bytes = size_of(procs, depth, slot_bytes);
    if (fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) != bytes) {
        *error = "/dev/shm" + name + " is not " + std::to_string(bytes) +
                 " bytes: coll_sm_max_bytes and coll_sm_depth must be the same in every process";
        close(fd);
        return false;
    }
    const bool mapped = map(fd, bytes, error);
    close(fd);
    if (!mapped) {
        return false;
    }
    const auto *h = reinterpret_cast<Header *>(base_);
    if (std::atomic_ref<std::uint64_t>(const_cast<Header *>(h)->magic).load(std::memory_order_acquire) != kMagic ||
        h->procs != static_cast<std::uint64_t>(procs) || h->depth != static_cast<std::uint64_t>(depth) ||
        h->slot_bytes != slot_bytes) {
        *error = "/dev/shm" + name + " was not made for this communicator (or by another version of Tessera)";
        unmap();
        return false;
    }
    layout(procs, depth, slot_bytes);
    return true;
}

void Segment::unmap()
{
    if (base_ != nullptr) {
        munmap(base_, bytes_);
        base_ = nullptr;
        bytes_ = 0;
    }
}

} // namespace tessera::ompi::coll_sm
