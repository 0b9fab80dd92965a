/*
 * osc sm: synchronisation, through words of the segment and memory fences; nothing waits for the
 * target's progress.
 *   - Fence: a barrier on the window's communicator between two full memory fences.
 *   - Passive target: the target's lock word counts shared holders, or holds kExclusive; each locker
 *     changes it with a compare-exchange (acquire), unlock releases (release), so what one holder wrote is
 *     seen by the next. Flush, flush_local and MPI_Win_sync are full memory fences: every operation was
 *     done by the origin itself when its call returned. MPI_MODE_NOCHECK touches no word. A waiting
 *     shared locker may be overtaken by others; an exclusive one waits until no lock is held.
 *   - PSCW: MPI_Win_post adds one to posted(o)[t] of each origin o of its group; MPI_Win_start waits, for
 *     each target, until its count exceeds the posts this process took already; MPI_Win_complete adds one
 *     to each target's `completes`; MPI_Win_wait/test compare that with the origins of every post so far.
 */
#include <atomic>

#include "components/osc/sm/osc_sm.h"
#include "ompi/group/group.h"
#include "ompi/runtime/native_api.h"
#include "opal/tsan.h"

namespace tessera::ompi::osc_sm {

namespace {

/* The window ranks of the members of `group` (MPI-4.1 12.5.2); false when one is not a process of the
 * window. */
bool window_ranks(const Module &m, tessera_group *group, std::vector<int> *ranks)
{
    const auto *g = reinterpret_cast<const Group *>(group);
    const Communicator *c = comm_lookup(m.w->comm);
    for (const tessera_proc_t *p : g->procs) {
        int found = -1;
        for (int r = 0; r < c->size && found < 0; ++r) {
            found = c->procs[static_cast<std::size_t>(r)] == p ? r : -1;
        }
        if (found < 0) {
            return false;
        }
        ranks->push_back(found);
    }
    return true;
}

void acquire(std::atomic<std::uint64_t> &word, int lock_type)
{
    if (lock_type == MPI_LOCK_EXCLUSIVE) {
        spin_until([&word] {
            std::uint64_t v = 0;
            return word.load(std::memory_order_relaxed) == 0 &&
                   word.compare_exchange_weak(v, kExclusive, std::memory_order_acquire);
        });
        return;
    }
    spin_until([&word] {
        std::uint64_t v = word.load(std::memory_order_relaxed);
        return (v & kExclusive) == 0 && word.compare_exchange_weak(v, v + 1, std::memory_order_acquire);
    });
}

void release(std::atomic<std::uint64_t> &word, int lock_type)
{
    word.fetch_sub(lock_type == MPI_LOCK_EXCLUSIVE ? kExclusive : 1, std::memory_order_release);
}

} // namespace

int access(const Module &m, int target)
{
    if (m.lock_all) {
        return MPI_SUCCESS;
    }
    if (m.fence_open) {
        m.fence_used.store(true, std::memory_order_relaxed);
        return MPI_SUCCESS;
    }
    if (target == MPI_PROC_NULL) {
        return m.locks_held > 0 || m.access_open ? MPI_SUCCESS : MPI_ERR_RMA_SYNC;
    }
    if (m.lock_type[static_cast<std::size_t>(target)] != 0) {
        return MPI_SUCCESS;
    }
    if (m.access_open) {
        for (int t : m.access_group) {
            if (t == target) {
                return MPI_SUCCESS;
            }
        }
    }
    return MPI_ERR_RMA_SYNC;
}

void wait_word(const std::atomic<std::uint64_t> &word, std::uint64_t at_least)
{
    spin_until([&] { return word.load(std::memory_order_acquire) >= at_least; });
}

int fence(int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (m.locks_held > 0 || m.lock_all || m.access_open || m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    opal::full_fence();
    if (int rc = native::barrier(m.w->comm); rc != MPI_SUCCESS) {
        return rc;
    }
    opal::full_fence();
    m.fence_open = (assert & MPI_MODE_NOSUCCEED) == 0;
    m.fence_used.store(false, std::memory_order_relaxed);
    return MPI_SUCCESS;
}

int start(tessera_group *group, int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    /* A fence followed by no operation opened no epoch (12.5.1): start may follow it. */
    if (m.access_open || m.locks_held > 0 || m.lock_all || (m.fence_open && m.fence_used)) {
        return MPI_ERR_RMA_SYNC;
    }
    std::vector<int> ranks;
    if (!window_ranks(m, group, &ranks)) {
        return MPI_ERR_GROUP;
    }
    m.fence_open = false;
    m.access_group = std::move(ranks);
    if ((assert & MPI_MODE_NOCHECK) == 0) {
        for (int t : m.access_group) {
            wait_word(m.segment.posted(m.rank)[t], ++m.posts_seen[static_cast<std::size_t>(t)]);
        }
    }
    opal::full_fence();
    m.access_open = true;
    return MPI_SUCCESS;
}

int complete(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.access_open) {
        return MPI_ERR_RMA_SYNC;
    }
    opal::full_fence();
    for (int t : m.access_group) {
        m.segment.control(t).completes.fetch_add(1, std::memory_order_release);
    }
    m.access_open = false;
    m.access_group.clear();
    return MPI_SUCCESS;
}

int post(tessera_group *group, int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    std::vector<int> origins;
    if (!window_ranks(m, group, &origins)) {
        return MPI_ERR_GROUP;
    }
    opal::full_fence(); /* this process's own stores before the post are seen by the origins */
    if ((assert & MPI_MODE_NOCHECK) == 0) {
        for (int o : origins) {
            m.segment.posted(o)[m.rank].fetch_add(1, std::memory_order_release);
        }
    }
    m.completes_expected += origins.size();
    m.exposure_open = true;
    return MPI_SUCCESS;
}

int wait(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    wait_word(m.segment.control(m.rank).completes, m.completes_expected);
    opal::full_fence();
    m.exposure_open = false;
    return MPI_SUCCESS;
}

int test(int *flag, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    *flag = m.segment.control(m.rank).completes.load(std::memory_order_acquire) >= m.completes_expected;
    if (*flag != 0) {
        opal::full_fence();
        m.exposure_open = false;
    }
    return MPI_SUCCESS;
}

int lock(int lock_type, int target, int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    const auto t = static_cast<std::size_t>(target);
    if (m.lock_all || m.lock_type[t] != 0 || m.access_open) {
        return MPI_ERR_RMA_SYNC;
    }
    m.nocheck[t] = (assert & MPI_MODE_NOCHECK) != 0;
    if (!m.nocheck[t]) {
        acquire(m.segment.control(target).lock, lock_type);
    }
    m.lock_type[t] = lock_type;
    ++m.locks_held;
    return MPI_SUCCESS;
}

int unlock(int target, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    const auto t = static_cast<std::size_t>(target);
    if (m.lock_type[t] == 0) {
        return MPI_ERR_RMA_SYNC;
    }
    opal::full_fence();
    if (!m.nocheck[t]) {
        release(m.segment.control(target).lock, m.lock_type[t]);
    }
    m.lock_type[t] = 0;
    --m.locks_held;
    return MPI_SUCCESS;
}

int lock_all(int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (m.lock_all || m.locks_held > 0 || m.access_open) {
        return MPI_ERR_RMA_SYNC;
    }
    m.lock_all_nocheck = (assert & MPI_MODE_NOCHECK) != 0;
    if (!m.lock_all_nocheck) {
        for (int t = 0; t < m.size; ++t) {
            acquire(m.segment.control(t).lock, MPI_LOCK_SHARED);
        }
    }
    m.lock_all = true;
    return MPI_SUCCESS;
}

int unlock_all(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.lock_all) {
        return MPI_ERR_RMA_SYNC;
    }
    opal::full_fence();
    if (!m.lock_all_nocheck) {
        for (int t = 0; t < m.size; ++t) {
            release(m.segment.control(t).lock, MPI_LOCK_SHARED);
        }
    }
    m.lock_all = false;
    return MPI_SUCCESS;
}

int flush(int target, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.lock_all && (target < 0 || m.lock_type[static_cast<std::size_t>(target)] == 0)) {
        return MPI_ERR_RMA_SYNC;
    }
    opal::full_fence();
    return MPI_SUCCESS;
}

int flush_all(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.lock_all && m.locks_held == 0) {
        return MPI_ERR_RMA_SYNC;
    }
    opal::full_fence();
    return MPI_SUCCESS;
}

int win_sync(tessera_win *, mca_osc_base_module_t *)
{
    opal::full_fence();
    return MPI_SUCCESS;
}

int free_window(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (m.locks_held > 0 || m.lock_all || m.access_open || m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    opal::full_fence();
    /* After the barrier no process reads or writes this one's part any more. */
    if (int rc = native::barrier(m.w->comm); rc != MPI_SUCCESS) {
        return rc;
    }
    delete &m;
    return MPI_SUCCESS;
}

/* MPI_PROC_NULL: the first part of non-zero size, in rank order (MPI-4.1 12.2.3). */
int shared_query(int rank, size_t *size, int *disp_unit, void **baseptr, tessera_win *,
                 mca_osc_base_module_t *module)
{
    const Module &m = of(module);
    if (rank == MPI_PROC_NULL) {
        rank = -1;
        for (int r = 0; r < m.size && rank < 0; ++r) {
            rank = m.sizes[static_cast<std::size_t>(r)] > 0 ? r : -1;
        }
        if (rank < 0) {
            *size = 0;
            *disp_unit = m.disp_units[0];
            *baseptr = nullptr;
            return MPI_SUCCESS;
        }
    }
    const auto r = static_cast<std::size_t>(rank);
    *size = m.sizes[r];
    *disp_unit = m.disp_units[r];
    *baseptr = m.segment.part(rank);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::osc_sm
