/*
 * General active target synchronisation (MPI-4.1 12.5.2): MPI_Win_post, MPI_Win_start, MPI_Win_complete,
 * MPI_Win_wait and MPI_Win_test. The group and the assertions are checked here; the window's osc module
 * keeps the epochs and answers MPI_ERR_RMA_SYNC for a call out of order (a second start or post before
 * the first ended, complete without start, wait or test without post, start inside a lock).
 */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/group/group.h"
#include "ompi/runtime/native_api.h"
#include "ompi/win/win_osc.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

namespace {

/* A group of processes of the window, and assertion bits among `allowed`. */
const Group *epoch_group(const char *function, MPI_Win win, const Window &w, MPI_Group group, int assert,
                         int allowed, const char *allowed_names, int *rc)
{
    const Group *g = group_lookup(group);
    if (g == nullptr) {
        *rc = raise_on_win(win, MPI_ERR_GROUP, function,
                           group == MPI_GROUP_NULL ? "argument 'group' is MPI_GROUP_NULL" : "invalid group in argument 'group'");
        return nullptr;
    }
    if ((assert & ~allowed) != 0) {
        *rc = raise_on_win(win, MPI_ERR_ASSERT, function,
                           "assert " + std::to_string(assert) + " has bits other than " + allowed_names);
        return nullptr;
    }
    std::vector<int> ranks;
    if (!osc::window_ranks(g, w, &ranks)) {
        *rc = raise_on_win(win, MPI_ERR_GROUP, function,
                           "a member of the group is not a process of " + win_label(w));
        return nullptr;
    }
    return g;
}

int outcome(MPI_Win win, const char *function, const Window &w, int rc, const char *sync_why)
{
    if (rc == MPI_SUCCESS) {
        return rc;
    }
    return raise_on_win(win, rc, function,
                        rc == MPI_ERR_RMA_SYNC ? std::string(sync_why) + " on " + win_label(w)
                                               : rma_failure(rc, "the synchronisation with the group failed"));
}

} // namespace

int win_start(MPI_Group group, int assert, MPI_Win win)
{
    const char *function = "MPI_Win_start";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_start, &rc);
    if (w == nullptr) {
        return rc;
    }
    const Group *g = epoch_group(function, win, *w, group, assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK", &rc);
    if (g == nullptr) {
        return rc;
    }
    return outcome(win, function, *w, w->osc->osc_start(osc::to_c(g), assert, osc::to_c(w), w->osc),
                   "an access epoch (MPI_Win_start, a lock, or a fence epoch with operations) is already open");
}

int win_complete(MPI_Win win)
{
    const char *function = "MPI_Win_complete";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_complete, &rc);
    if (w == nullptr) {
        return rc;
    }
    return outcome(win, function, *w, w->osc->osc_complete(osc::to_c(w), w->osc),
                   "no access epoch of MPI_Win_start is open");
}

int win_post(MPI_Group group, int assert, MPI_Win win)
{
    const char *function = "MPI_Win_post";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_post, &rc);
    if (w == nullptr) {
        return rc;
    }
    const Group *g = epoch_group(function, win, *w, group, assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT,
                                 "MPI_MODE_NOCHECK, MPI_MODE_NOSTORE and MPI_MODE_NOPUT", &rc);
    if (g == nullptr) {
        return rc;
    }
    return outcome(win, function, *w, w->osc->osc_post(osc::to_c(g), assert, osc::to_c(w), w->osc),
                   "an exposure epoch (MPI_Win_post) is already open");
}

int win_wait(MPI_Win win)
{
    const char *function = "MPI_Win_wait";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_wait, &rc);
    if (w == nullptr) {
        return rc;
    }
    return outcome(win, function, *w, w->osc->osc_wait(osc::to_c(w), w->osc), "no exposure epoch of MPI_Win_post is open");
}

int win_test(MPI_Win win, int *flag)
{
    const char *function = "MPI_Win_test";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_test, &rc);
    if (w == nullptr) {
        return rc;
    }
    return outcome(win, function, *w, w->osc->osc_test(flag, osc::to_c(w), w->osc),
                   "no exposure epoch of MPI_Win_post is open");
}

} // namespace tessera::ompi::native
