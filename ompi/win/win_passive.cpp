/*
 * Passive target synchronisation (MPI-4.1 12.5.3, 12.5.4): MPI_Win_lock, MPI_Win_unlock,
 * MPI_Win_lock_all, MPI_Win_unlock_all, MPI_Win_flush, MPI_Win_flush_all, MPI_Win_flush_local,
 * MPI_Win_flush_local_all and MPI_Win_sync. The arguments are checked here; the window's osc module
 * keeps the lock state and answers MPI_ERR_RMA_SYNC for a call out of order (a second lock on a target,
 * an unlock without a lock, a flush outside a passive epoch).
 */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "ompi/win/win_osc.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

namespace {

/* A target rank argument: in the window's group; MPI_PROC_NULL (nothing to do) when `proc_null_ok`. */
bool rank_ok(const char *function, MPI_Win win, const Window &w, int rank, int *rc)
{
    if (rank >= 0 && rank < w.size) {
        return true;
    }
    *rc = raise_on_win(win, MPI_ERR_RANK, function,
                       "rank " + std::to_string(rank) + " is not in 0.." + std::to_string(w.size - 1));
    return false;
}

int outcome(MPI_Win win, const char *function, const Window &w, int rc, const char *sync_why)
{
    if (rc == MPI_SUCCESS) {
        return rc;
    }
    return raise_on_win(win, rc, function,
                        rc == MPI_ERR_RMA_SYNC ? std::string(sync_why) + " on " + win_label(w)
                                               : rma_failure(rc, "the synchronisation with the target failed"));
}

} // namespace

int win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    const char *function = "MPI_Win_lock";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_lock, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (w->no_locks) {
        return raise_on_win(win, MPI_ERR_RMA_SYNC, function,
                            win_label(*w) + " has the info hint no_locks true: it promised no passive target locks");
    }
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE) {
        return raise_on_win(win, MPI_ERR_LOCKTYPE, function,
                            "lock type " + std::to_string(lock_type) + " is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE");
    }
    if ((assert & ~MPI_MODE_NOCHECK) != 0) {
        return raise_on_win(win, MPI_ERR_ASSERT, function,
                            "assert " + std::to_string(assert) + " has bits other than MPI_MODE_NOCHECK");
    }
    if (rank == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (!rank_ok(function, win, *w, rank, &rc)) {
        return rc;
    }
    return outcome(win, function, *w, w->osc->osc_lock(lock_type, rank, assert, osc::to_c(w), w->osc),
                   "this process already holds a lock on that target, or every target (MPI_Win_lock_all),");
}

int win_unlock(int rank, MPI_Win win)
{
    const char *function = "MPI_Win_unlock";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_unlock, &rc);
    if (w == nullptr || rank == MPI_PROC_NULL) {
        return rc;
    }
    if (!rank_ok(function, win, *w, rank, &rc)) {
        return rc;
    }
    return outcome(win, function, *w, w->osc->osc_unlock(rank, osc::to_c(w), w->osc),
                   "this process holds no MPI_Win_lock on that target");
}

int win_lock_all(int assert, MPI_Win win)
{
    const char *function = "MPI_Win_lock_all";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_lock_all, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (w->no_locks) {
        return raise_on_win(win, MPI_ERR_RMA_SYNC, function,
                            win_label(*w) + " has the info hint no_locks true: it promised no passive target locks");
    }
    if ((assert & ~MPI_MODE_NOCHECK) != 0) {
        return raise_on_win(win, MPI_ERR_ASSERT, function,
                            "assert " + std::to_string(assert) + " has bits other than MPI_MODE_NOCHECK");
    }
    return outcome(win, function, *w, w->osc->osc_lock_all(assert, osc::to_c(w), w->osc),
                   "this process already holds a lock");
}

int win_unlock_all(MPI_Win win)
{
    const char *function = "MPI_Win_unlock_all";
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, &mca_osc_base_module_t::osc_unlock_all, &rc);
    if (w == nullptr) {
        return rc;
    }
    return outcome(win, function, *w, w->osc->osc_unlock_all(osc::to_c(w), w->osc),
                   "this process did not call MPI_Win_lock_all");
}

namespace {

int flush_one(const char *function, int rank, MPI_Win win, mca_osc_base_rank_fn_t mca_osc_base_module_t::*entry)
{
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, entry, &rc);
    if (w == nullptr || rank == MPI_PROC_NULL) {
        return rc;
    }
    if (!rank_ok(function, win, *w, rank, &rc)) {
        return rc;
    }
    return outcome(win, function, *w, (w->osc->*entry)(rank, osc::to_c(w), w->osc),
                   "no passive target epoch (MPI_Win_lock, MPI_Win_lock_all) is open to that target");
}

int flush_every(const char *function, MPI_Win win, mca_osc_base_sync_fn_t mca_osc_base_module_t::*entry)
{
    int rc = MPI_SUCCESS;
    Window *w = window_with(function, win, entry, &rc);
    if (w == nullptr) {
        return rc;
    }
    return outcome(win, function, *w, (w->osc->*entry)(osc::to_c(w), w->osc),
                   "no passive target epoch (MPI_Win_lock, MPI_Win_lock_all) is open");
}

} // namespace

int win_flush(int rank, MPI_Win win)
{
    return flush_one("MPI_Win_flush", rank, win, &mca_osc_base_module_t::osc_flush);
}

int win_flush_local(int rank, MPI_Win win)
{
    return flush_one("MPI_Win_flush_local", rank, win, &mca_osc_base_module_t::osc_flush_local);
}

int win_flush_all(MPI_Win win)
{
    return flush_every("MPI_Win_flush_all", win, &mca_osc_base_module_t::osc_flush_all);
}

int win_flush_local_all(MPI_Win win)
{
    return flush_every("MPI_Win_flush_local_all", win, &mca_osc_base_module_t::osc_flush_local_all);
}

int win_sync(MPI_Win win)
{
    return flush_every("MPI_Win_sync", win, &mca_osc_base_module_t::osc_sync);
}

} // namespace tessera::ompi::native
