/* The registry of windows: handles are the objects' addresses, checked against the live set so that a
 * stale or made-up handle is an error, not a crash. */
#include "ompi/win/window.h"

#include <mutex>
#include <unordered_set>

#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi {

namespace {

struct Registry {
    std::mutex mutex;
    std::unordered_set<const Window *> live;
};

Registry &registry()
{
    static Registry r;
    return r;
}

} // namespace

Window *win_lookup(MPI_Win handle)
{
    auto *w = reinterpret_cast<Window *>(handle);
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    return r.live.count(w) != 0 && w->mark == Window::kMark ? w : nullptr;
}

MPI_Win win_handle(Window *w)
{
    return reinterpret_cast<MPI_Win>(w);
}

void win_register(Window *w)
{
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    r.live.insert(w);
}

void win_unregister(Window *w)
{
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    r.live.erase(w);
    w->mark = 0;
}

std::string win_label(const Window &w)
{
    return w.name.empty() ? std::string("a window") : "window '" + w.name + "'";
}

int raise_on_win(MPI_Win win, int code, const char *function, const std::string &detail)
{
    return raise_error(ObjectKind::Win, win, code, function, detail);
}

Window *win_argument(const char *function, MPI_Win win, int *rc)
{
    Window *w = win_lookup(win);
    if (w == nullptr) {
        *rc = raise_on_win(win, MPI_ERR_WIN,
                           function, win == MPI_WIN_NULL ? "argument 'win' is MPI_WIN_NULL" : "invalid window in argument 'win'");
    }
    return w;
}

} // namespace tessera::ompi
