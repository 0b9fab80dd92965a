/* osc am: the module of a window, its function table. */
#include <memory>

#include "components/osc/am/osc_am.h"
#include "mca/constants.h"

namespace tessera::ompi::osc_am {

namespace {

int enable(mca_osc_base_module_t *module, tessera_win *, void **)
{
    return listen_start(of(module)) == MPI_SUCCESS ? TESSERA_SUCCESS : TESSERA_ERROR;
}

/* A module that was not chosen: it never listened. */
void release(mca_osc_base_module_t *module, tessera_win *)
{
    delete &of(module);
}

} // namespace

mca_osc_base_module_t *module_create(Window *w)
{
    auto m = std::make_unique<Module>();
    const auto n = static_cast<std::size_t>(w->size);
    m->w = w;
    m->comm = comm_lookup(w->comm);
    m->requests_to.assign(n, 0);
    m->lock_type.assign(n, 0);
    m->nocheck.assign(n, false);
    m->out.resize(n);
    m->unanswered.assign(n, false);
    mca_osc_base_module_t &b = m->base;
    b.osc_component = &mca_osc_am_component;
    b.osc_enable = enable;
    b.osc_release = release;
    b.osc_free = free_window;
    b.osc_put = put;
    b.osc_get = get;
    b.osc_accumulate = accumulate;
    b.osc_get_accumulate = get_accumulate;
    b.osc_fetch_and_op = fetch_and_op;
    b.osc_compare_and_swap = compare_and_swap;
    b.osc_fence = fence;
    b.osc_lock = lock;
    b.osc_unlock = unlock;
    b.osc_lock_all = lock_all;
    b.osc_unlock_all = unlock_all;
    b.osc_flush = flush;
    b.osc_flush_all = flush_all;
    b.osc_flush_local = flush;
    b.osc_flush_local_all = flush_all;
    b.osc_sync = win_sync;
    b.module_state = m.get();
    return &m.release()->base;
}

} // namespace tessera::ompi::osc_am
