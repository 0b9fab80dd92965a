/*
 * osc sm, the request-based operations (MPI-4.1 12.3.5): MPI_Rput, MPI_Rget, MPI_Raccumulate and
 * MPI_Rget_accumulate, in passive target epochs only (the standard allows them nowhere else). The origin
 * does the operation itself before the call returns, so the request is complete when it is returned:
 * a request of the engine's kind Coll (completed by its owner, not by matching) that MPI_Wait and
 * MPI_Test take like any other.
 */
#include "components/osc/sm/osc_sm.h"
#include "ompi/pml/pml_internal.h"

namespace tessera::ompi::osc_sm {

namespace {

int passive(const Module &m, int target)
{
    if (m.lock_all) {
        return MPI_SUCCESS;
    }
    if (target == MPI_PROC_NULL) {
        return m.locks_held > 0 ? MPI_SUCCESS : MPI_ERR_RMA_SYNC;
    }
    return m.lock_type[static_cast<std::size_t>(target)] != 0 ? MPI_SUCCESS : MPI_ERR_RMA_SYNC;
}

/* The operation's outcome; on success *request is a completed request of the window's communicator. */
int completed(const Module &m, int rc, tessera_request **request)
{
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Coll;
    pml::request_set_comm(r, comm_lookup(m.w->comm));
    pml::status_empty(&r->status);
    r->active = true;
    r->complete = true;
    *request = reinterpret_cast<tessera_request *>(r);
    return MPI_SUCCESS;
}

} // namespace

int rput(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
         size_t target_count, mca_osc_dt_t target_dt, tessera_request **request, tessera_win *win,
         mca_osc_base_module_t *module)
{
    const Module &m = of(module);
    if (int rc = passive(m, target); rc != MPI_SUCCESS) {
        return rc;
    }
    return completed(
        m, put(origin, origin_count, origin_dt, target, target_disp, target_count, target_dt, win, module), request);
}

int rget(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
         size_t target_count, mca_osc_dt_t target_dt, tessera_request **request, tessera_win *win,
         mca_osc_base_module_t *module)
{
    const Module &m = of(module);
    if (int rc = passive(m, target); rc != MPI_SUCCESS) {
        return rc;
    }
    return completed(
        m, get(origin, origin_count, origin_dt, target, target_disp, target_count, target_dt, win, module), request);
}

int raccumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
                size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_request **request,
                tessera_win *win, mca_osc_base_module_t *module)
{
    const Module &m = of(module);
    if (int rc = passive(m, target); rc != MPI_SUCCESS) {
        return rc;
    }
    return completed(m,
                     accumulate(origin, origin_count, origin_dt, target, target_disp, target_count, target_dt, op,
                                win, module),
                     request);
}

int rget_accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, void *result,
                    size_t result_count, mca_osc_dt_t result_dt, int target, ptrdiff_t target_disp,
                    size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_request **request,
                    tessera_win *win, mca_osc_base_module_t *module)
{
    const Module &m = of(module);
    if (int rc = passive(m, target); rc != MPI_SUCCESS) {
        return rc;
    }
    return completed(m,
                     get_accumulate(origin, origin_count, origin_dt, result, result_count, result_dt, target,
                                    target_disp, target_count, target_dt, op, win, module),
                     request);
}

} // namespace tessera::ompi::osc_sm
