/*
 * MPI_Win_attach and MPI_Win_detach (MPI-4.1 12.2.4): the regions of a dynamic window. Checked here (the
 * window's flavor, the size, the base); the window's osc module keeps the regions and answers
 * MPI_ERR_RMA_ATTACH for a region that overlaps one attached already, or a detach of a base that no
 * attach gave.
 */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "ompi/win/win_osc.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

namespace {

Window *dynamic_window(const char *function, MPI_Win win, int *rc)
{
    Window *w = win_argument(function, win, rc);
    if (w == nullptr) {
        return nullptr;
    }
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        *rc = raise_on_win(win, MPI_ERR_RMA_FLAVOR, function,
                           win_label(*w) + " was not made by MPI_Win_create_dynamic");
        return nullptr;
    }
    if (w->osc->osc_attach == nullptr || w->osc->osc_detach == nullptr) {
        *rc = raise_on_win(win, MPI_ERR_UNSUPPORTED_OPERATION, function,
                           std::string("the osc component ") + w->osc->osc_component->base.mca_component_name +
                               " serving " + win_label(*w) + " does not provide it");
        return nullptr;
    }
    return w;
}

} // namespace

int win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    const char *function = "MPI_Win_attach";
    int rc = MPI_SUCCESS;
    Window *w = dynamic_window(function, win, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (size < 0) {
        return raise_on_win(win, MPI_ERR_SIZE, function, "negative size " + std::to_string(size));
    }
    if (base == nullptr && size > 0) {
        return raise_on_win(win, MPI_ERR_ARG, function, "base is NULL for a region of " + std::to_string(size) + " bytes");
    }
    if (rc = w->osc->osc_attach(base, static_cast<std::size_t>(size), osc::to_c(w), w->osc); rc != MPI_SUCCESS) {
        return raise_on_win(win, rc, function,
                            rc == MPI_ERR_RMA_ATTACH ? "the region overlaps one attached to " + win_label(*w) + " already"
                                                     : std::string("the region could not be attached"));
    }
    return MPI_SUCCESS;
}

int win_detach(MPI_Win win, const void *base)
{
    const char *function = "MPI_Win_detach";
    int rc = MPI_SUCCESS;
    Window *w = dynamic_window(function, win, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (rc = w->osc->osc_detach(base, osc::to_c(w), w->osc); rc != MPI_SUCCESS) {
        return raise_on_win(win, rc, function,
                            rc == MPI_ERR_RMA_ATTACH ? "no region attached to " + win_label(*w) + " starts there"
                                                     : std::string("the region could not be detached"));
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
