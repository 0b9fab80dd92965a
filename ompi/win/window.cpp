/* Windows' handles: a window's handle is valid from its registration to MPI_Win_free, and refused
 * afterwards even once a new window took its memory (runtime/user_handle.h). */
#include "ompi/win/window.h"

#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi {

Window *win_lookup(MPI_Win handle)
{
    return user_object<Window>(handle);
}

MPI_Win win_handle(Window *w)
{
    return user_handle<MPI_Win>(w);
}

void win_register(Window *w)
{
    handle_open(w);
}

void win_unregister(Window *w)
{
    handle_close(w);
}

std::string win_label(const Window &w)
{
    return w.name.empty() ? std::string("a window") : "window '" + w.name + "'";
}

int raise_on_win(MPI_Win win, int code, const char *function, const std::string &detail)
{
    return raise_error(ObjectKind::Win, win, code, function, detail);
}

std::string rma_failure(int rc, const std::string &otherwise)
{
    return rc == MPI_ERR_RMA_RANGE ? "an operation this call completed named target memory outside every region "
                                     "attached to the target's dynamic window: the target refused it"
                                   : otherwise;
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
