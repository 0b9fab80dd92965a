/* MPI_Win_allocate_shared and MPI_Win_shared_query (MPI-4.1 12.2.3): a window whose memory every
 * process of the group can load from and store to directly. The memory is the osc module's (osc sm:
 * one segment per window); this layer checks the arguments and gives the pointers. */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/native_api.h"
#include "ompi/win/win_creation.h"
#include "ompi/win/win_osc.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

int win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                          MPI_Win *win)
{
    static const char *const kFunction = "MPI_Win_allocate_shared";
    if (win == nullptr) {
        return raise_on_comm(comm, MPI_ERR_ARG, kFunction, "argument 'win' is NULL");
    }
    *win = MPI_WIN_NULL;
    Communicator *parent = nullptr;
    InfoEntries hints;
    if (int rc = check(kFunction, size, disp_unit, info, comm, &parent, &hints); rc != MPI_SUCCESS) {
        return rc;
    }
    if (baseptr == nullptr) {
        return raise_on_comm(comm, MPI_ERR_ARG, kFunction, "argument 'baseptr' is NULL");
    }
    /* Every process sees the same group: all refuse alike, before anything collective. */
    for (const tessera_proc_t *p : parent->procs) {
        if ((p->proc_flags & (TESSERA_PROC_ON_NODE | TESSERA_PROC_IS_SELF)) == 0) {
            return raise_on_comm(comm, MPI_ERR_RMA_SHARED, kFunction,
                                 "the processes of " + comm_label(*parent) +
                                     " are not all on one host, so they cannot share memory (split the "
                                     "communicator with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) first)");
        }
    }
    if (int rc = create(kFunction, nullptr, size, static_cast<int>(disp_unit), hints, comm, parent,
                        MPI_WIN_FLAVOR_SHARED, false, win);
        rc != MPI_SUCCESS) {
        return rc;
    }
    *static_cast<void **>(baseptr) = win_lookup(*win)->base;
    return MPI_SUCCESS;
}

/* A window whose module shares no memory (MPI_Win_create, or a window served by osc am) answers size 0
 * and NULL for every rank: its memory cannot be reached by load and store. */
int win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    static const char *const kFunction = "MPI_Win_shared_query";
    int rc = MPI_SUCCESS;
    Window *w = win_argument(kFunction, win, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (size == nullptr || disp_unit == nullptr || baseptr == nullptr) {
        const char *which = size == nullptr ? "size" : disp_unit == nullptr ? "disp_unit" : "baseptr";
        return raise_on_win(win, MPI_ERR_ARG, kFunction, std::string("argument '") + which + "' is NULL");
    }
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size)) {
        return raise_on_win(win, MPI_ERR_RANK, kFunction,
                            "rank " + std::to_string(rank) + " is not in the window's group of " +
                                std::to_string(w->size));
    }
    if (w->osc->osc_shared_query == nullptr) {
        *size = 0;
        *disp_unit = rank == MPI_PROC_NULL ? 1 : w->targets[static_cast<std::size_t>(rank)].disp_unit;
        *static_cast<void **>(baseptr) = nullptr;
        return MPI_SUCCESS;
    }
    std::size_t bytes = 0;
    int unit = 1;
    void *base = nullptr;
    if (int q = w->osc->osc_shared_query(rank, &bytes, &unit, &base, osc::to_c(w), w->osc); q != MPI_SUCCESS) {
        return raise_on_win(win, q, kFunction, "the window's module could not answer");
    }
    *size = static_cast<MPI_Aint>(bytes);
    *disp_unit = unit;
    *static_cast<void **>(baseptr) = base;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
