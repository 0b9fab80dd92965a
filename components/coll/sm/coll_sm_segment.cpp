/* coll sm: the shared segment of a communicator (coll_sm.h). */
#include "components/coll/sm/coll_sm.h"

#include <sys/mman.h>

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

} // namespace

void Segment::layout(int procs, int depth, std::size_t slot_bytes)
{
    char *base = static_cast<char *>(file_.base());
    procs_ = static_cast<std::size_t>(procs);
    depth_ = static_cast<std::size_t>(depth);
    stride_ = stride_of(slot_bytes);
    flags_ = reinterpret_cast<Flag *>(base + kLine);
    slots_ = base + kLine + procs_ * sizeof(Flag);
}

bool Segment::create(Kind kind, const std::string &name, int procs, int depth, std::size_t slot_bytes,
                     std::string *error)
{
    const std::size_t bytes = size_of(procs, depth, slot_bytes);
    const char *why = "coll_sm_depth sets of a slot of coll_sm_max_bytes per rank";
    if (kind == Kind::Unnamed ? !file_.create_unnamed("tessera-coll-sm", bytes, why, error)
                              : !file_.create(name, bytes, why, error)) {
        return false;
    }
    if (kind == Kind::Named) {
        name_ = name;
    }
    /* The file starts zeroed: every flag is 0, no collective entered. */
    auto *h = static_cast<Header *>(file_.base());
    h->procs = static_cast<std::uint64_t>(procs);
    h->depth = static_cast<std::uint64_t>(depth);
    h->slot_bytes = slot_bytes;
    std::atomic_ref<std::uint64_t>(h->magic).store(kMagic, std::memory_order_release);
    layout(procs, depth, slot_bytes);
    return true;
}

std::string Segment::where() const
{
    return name_.empty() ? file_.path() : name_;
}

void Segment::forget()
{
    file_.close_descriptor();
    if (!name_.empty()) {
        shm_unlink(name_.c_str());
        name_.clear();
    }
}

Segment::Outcome Segment::attach(Kind kind, const std::string &where, int procs, int depth, std::size_t slot_bytes,
                                 std::string *error)
{
    const char *who = "rank 0 of the communicator creates it";
    if (kind == Kind::Unnamed ? !file_.open_path(where, who, error) : !file_.open(where, who, error)) {
        return kind == Kind::Unnamed ? kUnreachable : kRefused;
    }
    const std::string shown = kind == Kind::Unnamed ? where : "/dev/shm" + where;
    const std::size_t bytes = size_of(procs, depth, slot_bytes);
    if (file_.bytes() != bytes) {
        *error = shown + " is not " + std::to_string(bytes) +
                 " bytes: coll_sm_max_bytes and coll_sm_depth must be the same in every process";
        file_.unmap();
        return kRefused;
    }
    auto *h = static_cast<Header *>(file_.base());
    if (std::atomic_ref<std::uint64_t>(h->magic).load(std::memory_order_acquire) != kMagic ||
        h->procs != static_cast<std::uint64_t>(procs) || h->depth != static_cast<std::uint64_t>(depth) ||
        h->slot_bytes != slot_bytes) {
        *error = shown + " was not made for this communicator (or by another version of Tessera)";
        file_.unmap();
        return kRefused;
    }
    layout(procs, depth, slot_bytes);
    return kMapped;
}

} // namespace tessera::ompi::coll_sm
