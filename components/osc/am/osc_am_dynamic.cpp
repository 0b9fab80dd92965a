/*
 * osc am, dynamic windows (MPI-4.1 12.2.4): MPI_Win_attach and MPI_Win_detach keep this process's
 * attached regions, sorted by address; a request's target displacement is an absolute address (the
 * origin had it from MPI_Get_address), and the target applies it only when every byte it names lies in
 * attached memory (one region, or regions that touch end to start). Otherwise the target refuses it, writes and reads nothing, and tells the origin: the next
 * acknowledgement it sends that origin counts the refusals, and a refused Get or fetching accumulate
 * replies with no data. The origin raises MPI_ERR_RMA_RANGE from the call that completes the operation
 * (flush, unlock, fence, complete), on its window's handler. Regions change under the hook's lock, so a
 * region is never detached while a request is applied to it.
 */
#include <algorithm>

#include "components/osc/am/osc_am.h"

namespace tessera::ompi::osc_am {

namespace {

struct Change {
    Region region;
    int rc = MPI_SUCCESS;
};

void add(Module &m, void *arg)
{
    auto &c = *static_cast<Change *>(arg);
    const std::uintptr_t end = c.region.start + c.region.bytes;
    auto at = std::lower_bound(m.regions.begin(), m.regions.end(), c.region.start,
                               [](const Region &r, std::uintptr_t s) { return r.start < s; });
    /* Overlapping regions are refused: a byte belongs to one region, which a detach then removes whole. */
    if ((at != m.regions.end() && at->start < end) ||
        (at != m.regions.begin() && std::prev(at)->start + std::prev(at)->bytes > c.region.start)) {
        c.rc = MPI_ERR_RMA_ATTACH;
        return;
    }
    m.regions.insert(at, c.region);
}

void remove(Module &m, void *arg)
{
    auto &c = *static_cast<Change *>(arg);
    auto at = std::find_if(m.regions.begin(), m.regions.end(),
                           [&](const Region &r) { return r.start == c.region.start; });
    if (at == m.regions.end()) {
        c.rc = MPI_ERR_RMA_ATTACH;
        return;
    }
    m.regions.erase(at);
}

} // namespace

int attach(void *base, size_t size, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (size == 0) { /* nothing any operation could reach */
        return MPI_SUCCESS;
    }
    Change c{{reinterpret_cast<std::uintptr_t>(base), size}};
    with_hook_lock(add, m, &c);
    return c.rc;
}

int detach(const void *base, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    Change c{{reinterpret_cast<std::uintptr_t>(base), 0}};
    with_hook_lock(remove, m, &c);
    return c.rc;
}

bool in_region(const Module &m, const Ctl &c, const mca_dte_elem_t *desc)
{
    std::ptrdiff_t lo = 0, hi = 0;
    target_span(c, desc, &lo, &hi);
    const auto first = static_cast<std::uintptr_t>(c.disp_bytes + lo);
    const auto last = static_cast<std::uintptr_t>(c.disp_bytes + hi); /* one past */
    auto at = std::upper_bound(m.regions.begin(), m.regions.end(), first,
                               [](std::uintptr_t s, const Region &r) { return s < r.start; });
    if (at == m.regions.begin()) {
        return false;
    }
    --at;
    if (first > last) {
        return false;
    }
    /* Regions that touch make one range: an access may run from one into the next (MPICH's
     * win_dynamic_rma_flush_get does), never across a gap. */
    std::uintptr_t end = at->start + at->bytes;
    for (auto next = std::next(at); last > end && next != m.regions.end() && next->start == end; ++next) {
        end = next->start + next->bytes;
    }
    return last <= end;
}

} // namespace tessera::ompi::osc_am
