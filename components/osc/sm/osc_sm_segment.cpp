/* osc sm: the window's shared segment (osc_sm.h): its layout, made by the window's rank 0. */
#include <bit>
#include <cstring>

#include "components/osc/sm/osc_sm.h"

namespace tessera::ompi::osc_sm {

namespace {

constexpr std::uint64_t kMagic = 0x746573736f736d31ull; /* "tessosm1": layout version in the last digit */

struct Header {
    std::uint64_t magic;
    std::uint64_t procs;
    std::uint64_t bytes;
};

std::size_t round_up(std::size_t n, std::size_t to)
{
    return (n + to - 1) / to * to;
}

/* Header, part offsets, control lines, the post counters: what comes before the parts. */
std::size_t offsets_at()
{
    return kLine;
}
std::size_t controls_at(std::size_t procs)
{
    return round_up(offsets_at() + procs * sizeof(std::uint64_t), kLine);
}
std::size_t posted_at(std::size_t procs)
{
    return controls_at(procs) + procs * sizeof(Control);
}
std::size_t parts_at(std::size_t procs)
{
    return round_up(posted_at(procs) + procs * procs * sizeof(std::uint64_t), kLine);
}

} // namespace

void Segment::layout(int procs)
{
    char *base = static_cast<char *>(file_.base());
    procs_ = static_cast<std::size_t>(procs);
    offsets_ = reinterpret_cast<const std::uint64_t *>(base + offsets_at());
    controls_ = reinterpret_cast<Control *>(base + controls_at(procs_));
    posted_ = reinterpret_cast<std::atomic<std::uint64_t> *>(base + posted_at(procs_));
    base_ = base;
}

bool Segment::create(const std::vector<std::size_t> &sizes, bool contiguous, std::string *error)
{
    const std::size_t procs = sizes.size();
    /* Contiguous parts (MPI-4.1 12.2.3: the default of a shared window) follow each other byte for byte
     * from an aligned start; others each start at a multiple of the alignment. */
    const std::size_t align = std::bit_ceil(params.noncontig_alignment);
    std::vector<std::uint64_t> offsets(procs);
    std::size_t at = round_up(parts_at(procs), align);
    for (std::size_t i = 0; i < procs; ++i) {
        if (!contiguous) {
            at = round_up(at, align);
        }
        offsets[i] = at;
        at += sizes[i];
    }
    const std::size_t bytes = round_up(at, kLine);
    if (!file_.create_unnamed("tessera-osc-sm", bytes, "the window's parts, a header and control lines", error)) {
        return false;
    }
    /* The file starts zeroed: every lock free, no post, no completion. */
    char *base = static_cast<char *>(file_.base());
    std::memcpy(base + offsets_at(), offsets.data(), procs * sizeof(std::uint64_t));
    auto *h = reinterpret_cast<Header *>(base);
    h->procs = procs;
    h->bytes = bytes;
    std::atomic_ref<std::uint64_t>(h->magic).store(kMagic, std::memory_order_release);
    layout(static_cast<int>(procs));
    return true;
}

bool Segment::attach(const std::string &path, int procs, std::string *error)
{
    if (!file_.open_path(path, "the window's rank 0 creates it", error)) {
        return false;
    }
    auto *h = static_cast<Header *>(file_.base());
    if (file_.bytes() < parts_at(static_cast<std::size_t>(procs)) ||
        std::atomic_ref<std::uint64_t>(h->magic).load(std::memory_order_acquire) != kMagic ||
        h->procs != static_cast<std::uint64_t>(procs) || h->bytes != file_.bytes()) {
        *error = path + " was not made for this window (or by another version of Tessera)";
        file_.unmap();
        return false;
    }
    layout(procs);
    return true;
}

} // namespace tessera::ompi::osc_sm
