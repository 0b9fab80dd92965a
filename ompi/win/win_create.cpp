/* MPI_Win_create, MPI_Win_allocate, MPI_Win_create_dynamic and MPI_Win_free (MPI-4.1 12.2), and the window's group, name and
 * hints (12.2.6, 12.2.7). */
#include <climits>
#include <cstring>
#include <memory>

#include "ompi/attribute/attribute.h"
#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/string_out.h"
#include "frameworks/osc/base/base.h"
#include "mca/constants.h"
#include "ompi/win/win_creation.h"
#include "ompi/win/win_osc.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

/* The collective part of both constructors: the private communicator, every process's size and
 * displacement unit, the registration. `parent` is valid and `info` checked; errors are raised on `on`. */
int create(const char *function, void *base, MPI_Aint size, int disp_unit, const InfoEntries &info, MPI_Comm on,
           Communicator *parent, int flavor, bool owns_memory, MPI_Win *win)
{
    auto w = std::make_unique<Window>();
    Communicator *dup = nullptr;
    std::string error;
    if (int rc = comm::split(parent, {0, 0, parent->rank}, {}, nullptr, &dup, &error); rc != MPI_SUCCESS) {
        return raise_on_comm(on, rc, function, error);
    }
    /* Errors of the window's own traffic are raised on the window, not on the duplicate. */
    errhandler_assign(&dup->errhandler, MPI_ERRORS_RETURN);
    w->comm = comm_handle(dup);
    w->size = parent->size;
    w->base = base;
    w->bytes = size;
    w->disp_unit = disp_unit;
    w->flavor = flavor;
    w->owns_memory = owns_memory;
    win_hints_apply(*w, info);
    w->targets.resize(static_cast<std::size_t>(w->size));
    const WindowTarget mine{size, disp_unit};
    static_assert(sizeof(WindowTarget) == 16);
    if (int rc = allgather_c(&mine, sizeof mine, MPI_BYTE, w->targets.data(), sizeof mine, MPI_BYTE, w->comm);
        rc != MPI_SUCCESS) {
        MPI_Comm c = w->comm;
        comm_free(&c);
        return raise_on_comm(on, rc, function, "exchanging the window's sizes failed");
    }
    /* Every process asks the same components with the same facts, so all choose the same module. */
    const mca_osc_base_window_args_t args{flavor,        base, static_cast<std::size_t>(size), disp_unit,
                                          osc::to_c(dup), dup->size, dup->rank,             {}};
    const std::string label = "the window of " + comm_label(*parent);
    if (int rc = tessera_osc_base_win_select(osc::to_c(w.get()), &args, label.c_str(), &w->base, &w->osc);
        rc != TESSERA_SUCCESS) {
        MPI_Comm c = w->comm;
        comm_free(&c);
        return rc == TESSERA_ERR_NOT_FOUND
                   ? raise_on_comm(on, MPI_ERR_UNSUPPORTED_OPERATION, function,
                                   "no osc component offers a module for this window (see the osc parameter; "
                                   "osc_base_verbose 1 says more)")
                   : raise_on_comm(on, MPI_ERR_OTHER, function,
                                   std::string("the window's one-sided communication could not be set up: ") +
                                       tessera_strerror(rc));
    }
    /* A module sharing memory (osc sm) gave MPI_Win_allocate's window memory of its own. */
    if (owns_memory && w->base != base) {
        free_mem(base);
        w->owns_memory = false;
    }
    *win = win_handle(w.get());
    win_register(w.release());
    return MPI_SUCCESS;
}

/* Checks common to both constructors; MPI_SUCCESS or the raised error. */
int check(const char *function, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, Communicator **parent,
          InfoEntries *hints)
{
    int rc = MPI_SUCCESS;
    *parent = comm_argument(function, comm, &rc);
    if (*parent == nullptr) {
        return rc;
    }
    if ((*parent)->is_inter()) {
        return raise_on_comm(comm, MPI_ERR_COMM, function, "a window is made over an intracommunicator only");
    }
    if (size < 0) {
        return raise_on_comm(comm, MPI_ERR_SIZE, function, "negative window size " + std::to_string(size));
    }
    if (disp_unit <= 0) {
        return raise_on_comm(comm, MPI_ERR_DISP, function,
                             "displacement unit " + std::to_string(disp_unit) + " is not positive");
    }
    if (disp_unit > INT_MAX) { /* MPI_WIN_DISP_UNIT gives it as an int */
        return raise_on_comm(comm, MPI_ERR_DISP, function,
                             "displacement unit " + std::to_string(disp_unit) + " is larger than an int holds");
    }
    return hints_argument(function, comm, info, hints);
}

int win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    *win = MPI_WIN_NULL;
    Communicator *parent = nullptr;
    InfoEntries hints;
    if (int rc = check("MPI_Win_create", size, disp_unit, info, comm, &parent, &hints); rc != MPI_SUCCESS) {
        return rc;
    }
    if (base == nullptr && size > 0) {
        return raise_on_comm(comm, MPI_ERR_ARG, "MPI_Win_create", "base is NULL for a window of " +
                                                                      std::to_string(size) + " bytes");
    }
    return create("MPI_Win_create", base, size, static_cast<int>(disp_unit), hints, comm, parent, MPI_WIN_FLAVOR_CREATE, false, win);
}

int win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    *win = MPI_WIN_NULL;
    Communicator *parent = nullptr;
    InfoEntries hints;
    if (int rc = check("MPI_Win_allocate", size, disp_unit, info, comm, &parent, &hints); rc != MPI_SUCCESS) {
        return rc;
    }
    if (baseptr == nullptr) {
        return raise_on_comm(comm, MPI_ERR_ARG, "MPI_Win_allocate", "argument 'baseptr' is NULL");
    }
    void *base = nullptr;
    if (size > 0 && alloc_mem(size, MPI_INFO_NULL, &base) != MPI_SUCCESS) {
        return raise_on_comm(comm, MPI_ERR_NO_MEM, "MPI_Win_allocate",
                             "cannot allocate " + std::to_string(size) + " bytes");
    }
    const int rc = create("MPI_Win_allocate", base, size, static_cast<int>(disp_unit), hints, comm, parent, MPI_WIN_FLAVOR_ALLOCATE,
                          true, win);
    if (rc != MPI_SUCCESS) {
        free_mem(base);
        return rc;
    }
    *static_cast<void **>(baseptr) = win_lookup(*win)->base;
    return MPI_SUCCESS;
}

/* MPI-4.1 12.2.4: no memory yet; each process attaches regions later, and target displacements are
 * addresses (displacement unit 1). */
int win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    *win = MPI_WIN_NULL;
    Communicator *parent = nullptr;
    InfoEntries hints;
    if (int rc = check("MPI_Win_create_dynamic", 0, 1, info, comm, &parent, &hints); rc != MPI_SUCCESS) {
        return rc;
    }
    return create("MPI_Win_create_dynamic", nullptr, 0, 1, hints, comm, parent, MPI_WIN_FLAVOR_DYNAMIC, false, win);
}

/* Collective: once every process is here, no operation targets this one's memory any more. */
int win_free(MPI_Win *win)
{
    if (win == nullptr) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Win_free", "argument 'win' is NULL");
    }
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_free", *win, &rc);
    if (w == nullptr) {
        return rc;
    }
    std::string error;
    if (int cb = attr_delete_all(AttrKind::Win, *win, &error); cb != MPI_SUCCESS) {
        return raise_on_win(*win, cb, "MPI_Win_free", error);
    }
    if (int rc = w->osc->osc_free(osc::to_c(w), w->osc); rc != MPI_SUCCESS) {
        return raise_on_win(*win, rc, "MPI_Win_free",
                            rc == MPI_ERR_RMA_SYNC
                                ? "operations of this process are not completed: close their epoch first"
                                : "the processes of the window could not synchronize");
    }
    w->osc = nullptr;
    win_unregister(w);
    comm_free(&w->comm);
    if (w->owns_memory && w->base != nullptr) {
        free_mem(w->base);
    }
    errhandler_assign(&w->errhandler, MPI_ERRORS_ARE_FATAL);
    delete w;
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

int win_get_group(MPI_Win win, MPI_Group *group)
{
    int rc = MPI_SUCCESS;
    const Window *w = win_argument("MPI_Win_get_group", win, &rc);
    return w == nullptr ? rc : comm_group(w->comm, group);
}

int win_set_name(MPI_Win win, const char *win_name)
{
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_set_name", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (win_name == nullptr) {
        return raise_on_win(win, MPI_ERR_ARG, "MPI_Win_set_name", "the name is NULL");
    }
    w->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
    return MPI_SUCCESS;
}

int win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    if (win == MPI_WIN_NULL) { /* MPI-4.1: the null handle has a name too */
        copy_string_out("MPI_WIN_NULL", win_name, MPI_MAX_OBJECT_NAME, resultlen);
        return MPI_SUCCESS;
    }
    int rc = MPI_SUCCESS;
    const Window *w = win_argument("MPI_Win_get_name", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    copy_string_out(w->name, win_name, MPI_MAX_OBJECT_NAME, resultlen);
    return MPI_SUCCESS;
}

/* The window keys take valid values only; every other hint is kept and given back (win_hints.cpp). */
int win_set_info(MPI_Win win, MPI_Info info)
{
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_set_info", win, &rc);
    if (w == nullptr || info == MPI_INFO_NULL) {
        return rc;
    }
    const Info *i = info_lookup(info);
    if (i == nullptr) {
        return raise_on_win(win, MPI_ERR_INFO, "MPI_Win_set_info", "invalid info object in argument 'info'");
    }
    win_hints_apply(*w, i->entries);
    return MPI_SUCCESS;
}

int win_get_info(MPI_Win win, MPI_Info *info_used)
{
    int rc = MPI_SUCCESS;
    const Window *w = win_argument("MPI_Win_get_info", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    *info_used = info_create(w->info);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
