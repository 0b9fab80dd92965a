/* osc am: the module of a window, its function table. */
#include <memory>
#include <mutex>
#include <tuple>

#include "components/osc/am/osc_am.h"
#include "mca/constants.h"

namespace tessera::ompi::osc_am {

namespace {

/* An origin-side entry taken by one thread at a time: MPI lets several threads make one-sided calls on
 * one window at once (puts to different targets in one lock_all epoch, locks of different targets), and
 * the per-target lists of what is in flight and the order of the posted reply receives are the module's
 * own. opal::Mutex: a lock only under MPI_THREAD_MULTIPLE. The module is every entry's last argument. */
template <auto Entry>
struct Serialized;

template <typename... Args, int (*Entry)(Args...)>
struct Serialized<Entry> {
    static int call(Args... args)
    {
        mca_osc_base_module_t *module = std::get<sizeof...(Args) - 1>(std::forward_as_tuple(args...));
        const opal::LockGuard guard(of(module).origin_lock);
        return Entry(args...);
    }
};

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
    m->in_access.assign(n, 0);
    m->post_seen.assign(n, 0);
    m->posts_from = std::make_unique<std::atomic<int>[]>(n);
    m->dynamic = w->flavor == MPI_WIN_FLAVOR_DYNAMIC;
    mca_osc_base_module_t &b = m->base;
    b.osc_component = &mca_osc_am_component;
    b.osc_enable = enable;
    b.osc_release = release;
    b.osc_free = free_window;
    b.osc_put = Serialized<put>::call;
    b.osc_get = Serialized<get>::call;
    b.osc_accumulate = Serialized<accumulate>::call;
    b.osc_get_accumulate = Serialized<get_accumulate>::call;
    b.osc_fetch_and_op = Serialized<fetch_and_op>::call;
    b.osc_compare_and_swap = Serialized<compare_and_swap>::call;
    b.osc_rput = Serialized<rput>::call;
    b.osc_rget = Serialized<rget>::call;
    b.osc_raccumulate = Serialized<raccumulate>::call;
    b.osc_rget_accumulate = Serialized<rget_accumulate>::call;
    b.osc_fence = Serialized<fence>::call;
    b.osc_start = Serialized<start>::call;
    b.osc_complete = Serialized<complete>::call;
    b.osc_post = Serialized<post>::call;
    b.osc_wait = Serialized<wait>::call;
    b.osc_test = Serialized<test>::call;
    b.osc_lock = Serialized<lock>::call;
    b.osc_unlock = Serialized<unlock>::call;
    b.osc_lock_all = Serialized<lock_all>::call;
    b.osc_unlock_all = Serialized<unlock_all>::call;
    b.osc_flush = Serialized<flush>::call;
    b.osc_flush_all = Serialized<flush_all>::call;
    b.osc_flush_local = Serialized<flush_local>::call;
    b.osc_flush_local_all = Serialized<flush_local_all>::call;
    b.osc_sync = win_sync;
    if (m->dynamic) {
        b.osc_attach = Serialized<attach>::call;
        b.osc_detach = Serialized<detach>::call;
    }
    b.module_state = m.get();
    return &m.release()->base;
}

} // namespace tessera::ompi::osc_am
