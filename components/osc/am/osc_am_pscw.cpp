/*
 * osc am, post-start-complete-wait (MPI-4.1 12.5.2). A target's MPI_Win_post sends each origin of its
 * group a Post notice on the request channel (the origin's hook counts it); an origin's first operation
 * to a target of its access epoch waits for that target's notice, so MPI_Win_start itself never blocks
 * (a process may be origin to some processes and target of others, in either call order).
 * MPI_Win_complete sends each target of the group a Complete request behind the operations (one
 * origin's requests are applied in order) and completes them locally; MPI_Win_wait returns once a
 * Complete came from every origin of the post's group, so every operation of the epoch was applied.
 * MPI_MODE_NOCHECK (given on both sides, as the standard requires) sends and waits for no notice.
 */
#include <cstring>

#include "components/osc/am/osc_am.h"
#include "ompi/datatype/datatype.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"

namespace tessera::ompi::osc_am {

namespace {

const Datatype *byte_type()
{
    static const Datatype *const type = datatype_lookup(MPI_BYTE);
    return type;
}

bool locked(const Module &m)
{
    if (m.lock_all) {
        return true;
    }
    for (int t : m.lock_type) {
        if (t != 0) {
            return true;
        }
    }
    return false;
}

bool fence_pending(const Module &m)
{
    for (int n : m.requests_to) {
        if (n != 0) {
            return true;
        }
    }
    return false;
}

void finish_exposure(Module &m)
{
    m.completes.fetch_sub(m.exposure_origins, std::memory_order_relaxed);
    for (Pending &p : m.notices) {
        pml::wait_for(p.r); /* every origin completed: it received its notice long ago */
        pml::request_release(p.r);
    }
    m.notices.clear();
    m.exposure_open = false;
}

} // namespace

void await_post(Module &m, int target)
{
    const auto t = static_cast<std::size_t>(target);
    if (m.post_seen[t] != 0) {
        return;
    }
    std::atomic<int> &posts = m.posts_from[t];
    pml::wait_until([&] { return posts.load(std::memory_order_acquire) > 0; });
    posts.fetch_sub(1, std::memory_order_relaxed);
    m.post_seen[t] = 1;
}

/* An access epoch: not inside another access epoch, a lock, or a fence epoch with operations issued (a
 * fence followed by MPI_Win_start without operations between them opened no epoch, 12.5.1). */
int start(tessera_group *group, int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (m.access_open || locked(m) || (m.epoch_open && fence_pending(m))) {
        return MPI_ERR_RMA_SYNC;
    }
    std::vector<int> ranks;
    if (!osc::window_ranks(osc::of(group), *m.w, &ranks)) {
        return MPI_ERR_GROUP;
    }
    m.epoch_open = false;
    const bool nocheck = (assert & MPI_MODE_NOCHECK) != 0;
    for (int r : ranks) {
        m.in_access[static_cast<std::size_t>(r)] = 1;
        m.post_seen[static_cast<std::size_t>(r)] = nocheck ? 1 : 0;
    }
    m.access_group = std::move(ranks);
    m.access_open = true;
    return MPI_SUCCESS;
}

int complete(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.access_open) {
        return MPI_ERR_RMA_SYNC;
    }
    for (int t : m.access_group) {
        await_post(m, t); /* a target without operations still counts this origin's Complete */
        if (m.dynamic && m.unanswered[static_cast<std::size_t>(t)]) {
            send_control(m, t, Kind::Complete, 1); /* acknowledged: it tells of refused operations */
            continue;
        }
        Ctl c{};
        c.kind = Kind::Complete;
        c.basic = reinterpret_cast<std::uint64_t>(MPI_DATATYPE_NULL);
        c.op = reinterpret_cast<std::uint64_t>(MPI_OP_NULL);
        send_ctl(m, t, c, {}, nullptr, 0, nullptr);
    }
    int rc = MPI_SUCCESS;
    for (int t : m.access_group) {
        if (int e = complete_target(m, t); e != MPI_SUCCESS && rc == MPI_SUCCESS) {
            rc = e;
        }
        m.in_access[static_cast<std::size_t>(t)] = 0;
        m.post_seen[static_cast<std::size_t>(t)] = 0;
    }
    m.access_group.clear();
    m.access_open = false;
    return rc;
}

/* MPI_MODE_NOSTORE and MPI_MODE_NOPUT only allow optimisations: the window's memory is the process's
 * own and the hook writes it in place, so there is nothing to skip. */
int post(tessera_group *group, int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    std::vector<int> ranks;
    if (!osc::window_ranks(osc::of(group), *m.w, &ranks)) {
        return MPI_ERR_GROUP;
    }
    m.exposure_origins = static_cast<int>(ranks.size());
    m.exposure_open = true;
    if ((assert & MPI_MODE_NOCHECK) != 0) {
        return MPI_SUCCESS;
    }
    for (int origin : ranks) {
        Pending p;
        Ctl c{};
        c.kind = Kind::Post;
        c.basic = reinterpret_cast<std::uint64_t>(MPI_DATATYPE_NULL);
        c.op = reinterpret_cast<std::uint64_t>(MPI_OP_NULL);
        p.bytes.resize(sizeof c);
        std::memcpy(p.bytes.data(), &c, sizeof c);
        p.r = pml::isend(p.bytes.data(), p.bytes.size(), byte_type(), origin, kTagCtl, m.comm);
        m.notices.push_back(std::move(p));
    }
    return MPI_SUCCESS;
}

int wait(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    const int n = m.exposure_origins;
    pml::wait_until([&] { return m.completes.load(std::memory_order_acquire) >= n; });
    finish_exposure(m);
    return MPI_SUCCESS;
}

int test(int *flag, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    pml::progress();
    *flag = m.completes.load(std::memory_order_acquire) >= m.exposure_origins ? 1 : 0;
    if (*flag != 0) {
        finish_exposure(m);
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::osc_am
