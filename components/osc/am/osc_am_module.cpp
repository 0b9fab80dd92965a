/* osc am: the module of a window, its function table. */
#include <memory>

#include "components/osc/am/osc_am.h"
#include "mca/constants.h"

namespace tessera::ompi::osc_am {

namespace {

void release(mca_osc_base_module_t *module, tessera_win *)
{
    delete &of(module);
}

} // namespace

mca_osc_base_module_t *module_create(Window *w)
{
    auto m = std::make_unique<Module>();
    m->w = w;
    m->requests_to.assign(static_cast<std::size_t>(w->size), 0);
    mca_osc_base_module_t &b = m->base;
    b.osc_component = &mca_osc_am_component;
    b.osc_enable = nullptr;
    b.osc_release = release;
    b.osc_free = free_window;
    b.osc_put = put;
    b.osc_get = get;
    b.osc_accumulate = accumulate;
    b.osc_fence = fence;
    b.module_state = m.get();
    return &m.release()->base;
}

} // namespace tessera::ompi::osc_am
