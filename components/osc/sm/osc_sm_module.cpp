/* osc sm: the module of a window, its segment's making, its function table. */
#include <memory>

#include "components/osc/sm/osc_sm.h"
#include "mca/constants.h"
#include "mca/report.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::osc_sm {

namespace {

/* Whether the window's parts must follow each other: a shared window's unless alloc_shared_noncontig
 * (MPI-4.1 12.2.3); an MPI_Win_allocate window's are never asked to. The window's rank 0 decides. */
bool contiguous(const Window &w)
{
    if (w.flavor != MPI_WIN_FLAVOR_SHARED) {
        return false;
    }
    const std::string *v = w.info.find("alloc_shared_noncontig");
    return v == nullptr || *v != "true";
}

/* Collective over the window: rank 0 makes the segment and sends where it is, the others map it, all
 * agree that all could (an allreduce), then rank 0 closes the way in. */
int enable(mca_osc_base_module_t *module, tessera_win *, void **base)
{
    Module &m = of(module);
    std::string error;
    char where[96] = {};
    int mine = 1;
    if (m.rank == 0) {
        if (m.segment.create(m.sizes, contiguous(*m.w), &error)) {
            std::snprintf(where, sizeof where, "%s", m.segment.path().c_str());
        } else {
            mine = 0;
        }
    }
    if (int rc = native::bcast_c(where, sizeof where, MPI_CHAR, 0, m.w->comm); rc != MPI_SUCCESS) {
        return TESSERA_ERROR;
    }
    if (m.rank != 0) {
        mine = where[0] != '\0' && m.segment.attach(where, m.size, &error) ? 1 : 0;
    }
    int all = 0;
    const int rc = native::allreduce_c(&mine, &all, 1, MPI_INT, MPI_MIN, m.w->comm);
    m.segment.forget();
    if (!error.empty()) {
        tessera::mca::report(tessera::mca::Severity::Error, "osc sm: " + error);
    }
    if (rc != MPI_SUCCESS || all != 1) {
        return TESSERA_ERROR;
    }
    /* MPI_Win_allocate's memory becomes this part: the MPI layer frees what it had allocated. */
    *base = m.segment.part(m.rank);
    return TESSERA_SUCCESS;
}

void release(mca_osc_base_module_t *module, tessera_win *)
{
    delete &of(module);
}

} // namespace

mca_osc_base_module_t *module_create(Window *w)
{
    auto m = std::make_unique<Module>();
    const Communicator *c = comm_lookup(w->comm);
    m->w = w;
    m->rank = c->rank;
    m->size = w->size;
    const auto n = static_cast<std::size_t>(w->size);
    for (const WindowTarget &t : w->targets) {
        m->sizes.push_back(static_cast<std::size_t>(t.size));
        m->disp_units.push_back(t.disp_unit);
    }
    m->lock_type.assign(n, 0);
    m->nocheck.assign(n, false);
    m->posts_seen.assign(n, 0);
    mca_osc_base_module_t &b = m->base;
    b.osc_component = &mca_osc_sm_component;
    b.osc_enable = enable;
    b.osc_release = release;
    b.osc_free = free_window;
    b.osc_put = put;
    b.osc_get = get;
    b.osc_accumulate = accumulate;
    b.osc_get_accumulate = get_accumulate;
    b.osc_fetch_and_op = fetch_and_op;
    b.osc_compare_and_swap = compare_and_swap;
    b.osc_rput = rput;
    b.osc_rget = rget;
    b.osc_raccumulate = raccumulate;
    b.osc_rget_accumulate = rget_accumulate;
    b.osc_fence = fence;
    b.osc_start = start;
    b.osc_complete = complete;
    b.osc_post = post;
    b.osc_wait = wait;
    b.osc_test = test;
    b.osc_lock = lock;
    b.osc_unlock = unlock;
    b.osc_lock_all = lock_all;
    b.osc_unlock_all = unlock_all;
    b.osc_flush = flush;
    b.osc_flush_all = flush_all;
    b.osc_flush_local = flush;
    b.osc_flush_local_all = flush_all;
    b.osc_sync = win_sync;
    b.osc_shared_query = shared_query;
    b.module_state = m.get();
    return &m.release()->base;
}

} // namespace tessera::ompi::osc_sm
