/*
 * Windows (MPI-4.1 chapter 12): memory a process exposes to the others of a communicator, its
 * attributes, name, hints and error handler, and the argument checks of the one-sided operations.
 *
 * How the operations move and how epochs synchronize is the business of the window's osc module
 * (frameworks/osc/osc.h, docs/osc.md), chosen when the window is created: this layer checks what it can
 * (ranks, datatypes, sizes, ranges, ops) and hands the call to the module.
 */
#ifndef TESSERA_OMPI_WIN_WINDOW_H
#define TESSERA_OMPI_WIN_WINDOW_H

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "frameworks/osc/osc.h"
#include "ompi/info/info.h"
#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

/* What every process exposes, known to every other (exchanged at creation): origins check the range
 * of an operation against it. */
struct WindowTarget {
    MPI_Aint size = 0;
    int disp_unit = 1;
};

struct Window {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x57494e44; /* "WIND" */
    static void *operator new(std::size_t size) { return handle_slot_new<Window>(size); }
    static void operator delete(void *object) { handle_slot_delete<Window>(object); }

    /* The handle is valid from win_register to win_unregister. */
    static constexpr bool kHandleOpensLater = true;

    MPI_Comm comm = MPI_COMM_NULL; /* private duplicate of the creating communicator: RMA traffic */
    int size = 0;
    void *base = nullptr;
    MPI_Aint bytes = 0;
    int disp_unit = 1;
    int flavor = MPI_WIN_FLAVOR_CREATE;
    bool owns_memory = false; /* MPI_Win_allocate's: freed with the window */
    std::vector<WindowTarget> targets;
    std::string name;
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL; /* retained while set (errhandler_retain) */
    InfoEntries info;     /* the hints in force (win_hints_apply) */
    bool no_locks = false; /* the hint no_locks is true: MPI_Win_lock and lock_all are refused */

    /* The window's one-sided communication (frameworks/osc/osc.h), chosen at creation: every
     * operation and synchronisation goes to it once its arguments are checked (win_rma.cpp). */
    mca_osc_base_module_t *osc = nullptr;
};

/* The window of a handle, or nullptr for MPI_WIN_NULL and handles that name no window. */
Window *win_lookup(MPI_Win handle);
MPI_Win win_handle(Window *w);
/* Registers a new window (its handle becomes valid) / unregisters one being freed. */
void win_register(Window *w);
void win_unregister(Window *w);

/* "window 'name'" or "a window", for messages. */
std::string win_label(const Window &w);

/* Raises `code` for `function` on the window's error handler (MPI_WIN_NULL: MPI_COMM_WORLD's). */
int raise_on_win(MPI_Win win, int code, const char *function, const std::string &detail);

/* Takes the hints an application gave (creation, MPI_Win_set_info) into w.info: the window keys with
 * valid values (and the defaults of those never given), and every other key as it is (win_hints.cpp). */
void win_hints_apply(Window &w, const InfoEntries &given);

/* The message for an error class a window's synchronisation returned: what MPI_ERR_RMA_RANGE from a
 * completing call means (a dynamic window's target refused an operation), or `otherwise`. */
std::string rma_failure(int rc, const std::string &otherwise);

/* The window of argument `win`, or nullptr after raising MPI_ERR_WIN (*rc says what to return). */
Window *win_argument(const char *function, MPI_Win win, int *rc);

/* The window of argument `win` with its module's `entry` present, or nullptr after raising (*rc):
 * MPI_ERR_UNSUPPORTED_OPERATION names the component that lacks it. */
template <typename Entry>
Window *window_with(const char *function, MPI_Win win, Entry mca_osc_base_module_t::*entry, int *rc)
{
    Window *w = win_argument(function, win, rc);
    if (w != nullptr && w->osc->*entry == nullptr) {
        *rc = raise_on_win(win, MPI_ERR_UNSUPPORTED_OPERATION, function,
                           std::string("the osc component ") + w->osc->osc_component->base.mca_component_name +
                               " serving " + win_label(*w) + " does not provide it");
        return nullptr;
    }
    return w;
}

} // namespace tessera::ompi

#endif
