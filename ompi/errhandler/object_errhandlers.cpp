/* Error handlers of windows, files and sessions (MPI-4.1 9.3.2-9.3.4) as far as those objects exist:
 * every kind of handler can be made; of the objects, windows exist, and of files only MPI_FILE_NULL,
 * whose handler is the one every file starts with (MPI-4.1 14.7). The session ones come with sessions. */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/error_classes.h"
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

/* MPI_FILE_NULL is the only file handle there can be until MPI_File_open exists. */
int check_file(const char *function, MPI_File file)
{
    if (file != MPI_FILE_NULL) {
        return file_error(function, file, MPI_ERR_FILE, "invalid file handle (no file is open)");
    }
    return MPI_SUCCESS;
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
    if (int rc = check_file("MPI_File_set_errhandler", file); rc != MPI_SUCCESS) {
        return rc;
    }
    if (std::string why = errhandler_misfit(errhandler, ObjectKind::File); !why.empty()) {
        return file_error("MPI_File_set_errhandler", file, MPI_ERR_ERRHANDLER, why);
    }
    errhandler_assign(&file_null_errhandler(), errhandler);
    return MPI_SUCCESS;
}

int file_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    if (int rc = check_file("MPI_File_get_errhandler", file); rc != MPI_SUCCESS) {
        return rc;
    }
    *errhandler = errhandler_get(&file_null_errhandler());
    return MPI_SUCCESS;
}

int file_call_errhandler(MPI_File fh, int errorcode)
{
    if (int rc = check_file("MPI_File_call_errhandler", fh); rc != MPI_SUCCESS) {
        return rc;
    }
    file_error("MPI_File_call_errhandler", fh, errorcode, "raised by the application on MPI_FILE_NULL");
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
