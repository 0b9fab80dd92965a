/* Error handlers of windows, files and sessions (MPI-4.1 9.3.2-9.3.4) as far as those objects exist:
 * every kind of handler can be made. MPI_FILE_NULL has a handler too: the one every file starts with
 * (MPI-4.1 14.7). The session ones come with sessions. */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/error_classes.h"
#include "ompi/file/file.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

namespace {

int create(const char *function, ObjectKind kind, void (*fn)(), MPI_Errhandler *errhandler)
{
    if (fn == nullptr) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, function, "the function is NULL");
    }
    *errhandler = errhandler_create(kind, fn);
    return MPI_SUCCESS;
}

int file_error(const char *function, MPI_File file, int code, const std::string &detail)
{
    return raise_error(ObjectKind::File, file, code, function, detail);
}

/* The handler slot of `file` (MPI_FILE_NULL's own included), or nullptr after raising MPI_ERR_FILE. */
MPI_Errhandler *file_slot(const char *function, MPI_File file, int *rc)
{
    if (file == MPI_FILE_NULL) {
        return &file_null_errhandler();
    }
    File *f = file_argument(function, file, rc);
    return f == nullptr ? nullptr : &f->errhandler;
}

} // namespace

int win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
{
    return create("MPI_Win_create_errhandler", ObjectKind::Win, reinterpret_cast<void (*)()>(win_errhandler_fn),
                  errhandler);
}

int file_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn, MPI_Errhandler *errhandler)
{
    return create("MPI_File_create_errhandler", ObjectKind::File, reinterpret_cast<void (*)()>(file_errhandler_fn),
                  errhandler);
}

int session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler)
{
    return create("MPI_Session_create_errhandler", ObjectKind::Session,
                  reinterpret_cast<void (*)()>(session_errhandler_fn), errhandler);
}

/* A window starts with MPI_ERRORS_ARE_FATAL (MPI-4.1 9.3). */
int win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_set_errhandler", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (std::string why = errhandler_misfit(errhandler, ObjectKind::Win); !why.empty()) {
        return raise_on_win(win, MPI_ERR_ERRHANDLER, "MPI_Win_set_errhandler", why);
    }
    errhandler_assign(&w->errhandler, errhandler);
    return MPI_SUCCESS;
}

int win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    int rc = MPI_SUCCESS;
    const Window *w = win_argument("MPI_Win_get_errhandler", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    *errhandler = errhandler_get(&w->errhandler);
    return MPI_SUCCESS;
}

int win_call_errhandler(MPI_Win win, int errorcode)
{
    int rc = MPI_SUCCESS;
    if (win_argument("MPI_Win_call_errhandler", win, &rc) == nullptr) {
        return rc;
    }
    raise_on_win(win, errorcode, "MPI_Win_call_errhandler", "raised by the application");
    return MPI_SUCCESS;
}

int file_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    int rc = MPI_SUCCESS;
    MPI_Errhandler *slot = file_slot("MPI_File_set_errhandler", file, &rc);
    if (slot == nullptr) {
        return rc;
    }
    if (std::string why = errhandler_misfit(errhandler, ObjectKind::File); !why.empty()) {
        return file_error("MPI_File_set_errhandler", file, MPI_ERR_ERRHANDLER, why);
    }
    errhandler_assign(slot, errhandler);
    return MPI_SUCCESS;
}

int file_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    int rc = MPI_SUCCESS;
    const MPI_Errhandler *slot = file_slot("MPI_File_get_errhandler", file, &rc);
    if (slot == nullptr) {
        return rc;
    }
    *errhandler = errhandler_get(slot);
    return MPI_SUCCESS;
}

int file_call_errhandler(MPI_File fh, int errorcode)
{
    int rc = MPI_SUCCESS;
    if (file_slot("MPI_File_call_errhandler", fh, &rc) == nullptr) {
        return rc;
    }
    file_error("MPI_File_call_errhandler", fh, errorcode, "raised by the application");
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
