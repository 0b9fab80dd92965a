/*
 * osc am, the request-based operations (MPI-4.1 12.3.5): MPI_Rput, MPI_Rget, MPI_Raccumulate and
 * MPI_Rget_accumulate, inside passive target epochs only (the standard allows them nowhere else). Each
 * is its blocking operation plus a request the application waits for:
 * - Rput and Raccumulate pack the origin data into the request's payload when they are called, so the
 *   origin buffer may be reused at once: their request is complete when it is returned (local completion
 *   is all MPI_Wait promises; the target's is a flush's or unlock's business);
 * - Rget and Rget_accumulate complete when the reply (the data) has arrived in the origin buffer: the
 *   module tracks the reply's receive, and the progress hook, or the flush or unlock that completes the
 *   target first, finishes the request.
 * The requests are of the engine's kind Coll (completed by their owner, not by matching), so MPI_Wait,
 * MPI_Test, MPI_Waitall and the others take them like any request, from any thread.
 */
#include "components/osc/am/osc_am.h"
#include "ompi/pml/pml_internal.h"

namespace tessera::ompi::osc_am {

namespace {

/* MPI_PROC_NULL needs no epoch: the operation does nothing, whatever the synchronisation (MPICH's rmanull
 * calls them inside MPI_Win_lock(MPI_PROC_NULL), which opens none). */
bool passive(const Module &m, int target)
{
    return target == MPI_PROC_NULL || m.lock_all || m.lock_type[static_cast<std::size_t>(target)] != 0;
}

pml::Request *new_request(Module &m, bool done)
{
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Coll;
    pml::request_set_comm(r, m.comm);
    pml::status_empty(&r->status);
    r->active = true;
    r->complete = done;
    return r;
}

tessera_request *to_c(pml::Request *r)
{
    return reinterpret_cast<tessera_request *>(r);
}

/* The request of an operation that returns data: tracked until its reply receive completes. The reply's
 * receive is the first entry send_ctl added to the target's list (it is posted before the request). */
tessera_request *track(Module &m, int target, std::size_t first_new)
{
    if (target == MPI_PROC_NULL || m.out[static_cast<std::size_t>(target)].size() <= first_new) {
        return to_c(new_request(m, true)); /* nothing moved */
    }
    std::vector<Pending> &out = m.out[static_cast<std::size_t>(target)];
    pml::Request *user = new_request(m, false);
    const opal::LockGuard guard(m.tracked_lock);
    m.tracked.push_back({user, out[first_new].r, target, out[first_new].expect});
    m.tracked_count.store(m.tracked.size(), std::memory_order_release);
    return to_c(user);
}

std::size_t out_size(const Module &m, int target)
{
    return target == MPI_PROC_NULL ? 0 : m.out[static_cast<std::size_t>(target)].size();
}

} // namespace

/* Under tracked_lock. */
void finish_tracked(Module &m, int target)
{
    std::erase_if(m.tracked, [&](const Tracked &t) {
        if (target >= 0 ? t.target != target : !t.reply->complete) {
            return false;
        }
        t.user->status.MPI_ERROR = t.reply->status.MPI_ERROR;
        if (t.user->status.MPI_ERROR == MPI_SUCCESS && pml::status_count(&t.reply->status) < t.expect) {
            t.user->status.MPI_ERROR = MPI_ERR_RMA_RANGE;
        }
        pml::complete_request(t.user);
        return true;
    });
    m.tracked_count.store(m.tracked.size(), std::memory_order_release);
}

int rput(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
         size_t target_count, mca_osc_dt_t target_dt, tessera_request **request, tessera_win *win,
         mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!passive(m, target)) {
        return MPI_ERR_RMA_SYNC;
    }
    if (target == MPI_PROC_NULL) {
        *request = to_c(new_request(m, true));
        return MPI_SUCCESS;
    }
    if (int rc = put(origin, origin_count, origin_dt, target, target_disp, target_count, target_dt, win, module);
        rc != MPI_SUCCESS) {
        return rc;
    }
    *request = to_c(new_request(m, true));
    return MPI_SUCCESS;
}

int raccumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
                size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_request **request,
                tessera_win *win, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!passive(m, target)) {
        return MPI_ERR_RMA_SYNC;
    }
    if (target == MPI_PROC_NULL) {
        *request = to_c(new_request(m, true));
        return MPI_SUCCESS;
    }
    if (int rc = accumulate(origin, origin_count, origin_dt, target, target_disp, target_count, target_dt, op, win,
                            module);
        rc != MPI_SUCCESS) {
        return rc;
    }
    *request = to_c(new_request(m, true));
    return MPI_SUCCESS;
}

int rget(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
         size_t target_count, mca_osc_dt_t target_dt, tessera_request **request, tessera_win *win,
         mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!passive(m, target)) {
        return MPI_ERR_RMA_SYNC;
    }
    if (target == MPI_PROC_NULL) {
        *request = to_c(new_request(m, true));
        return MPI_SUCCESS;
    }
    const std::size_t first_new = out_size(m, target);
    if (int rc = get(origin, origin_count, origin_dt, target, target_disp, target_count, target_dt, win, module);
        rc != MPI_SUCCESS) {
        return rc;
    }
    *request = track(m, target, first_new);
    return MPI_SUCCESS;
}

int rget_accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, void *result,
                    size_t result_count, mca_osc_dt_t result_dt, int target, ptrdiff_t target_disp,
                    size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_request **request,
                    tessera_win *win, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!passive(m, target)) {
        return MPI_ERR_RMA_SYNC;
    }
    if (target == MPI_PROC_NULL) {
        *request = to_c(new_request(m, true));
        return MPI_SUCCESS;
    }
    const std::size_t first_new = out_size(m, target);
    if (int rc = get_accumulate(origin, origin_count, origin_dt, result, result_count, result_dt, target,
                                target_disp, target_count, target_dt, op, win, module);
        rc != MPI_SUCCESS) {
        return rc;
    }
    *request = track(m, target, first_new);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::osc_am
