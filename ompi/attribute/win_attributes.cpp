/* Attributes on windows (MPI-4.1 7.7.4) and the predefined ones every window has (12.2.6):
 * MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL. MPI_Win_free
 * deletes a window's attributes (ompi/win/win_create.cpp). */
#include "ompi/runtime/native_api.h"
#include "ompi/attribute/keyval_calls.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

namespace {

/* Whether `keyval` is a predefined window attribute; if so *value is what MPI_Win_get_attr gives: the
 * address of the value (of MPI_WIN_BASE, the base itself). */
bool predefined_value(Window &w, int keyval, void **value)
{
    static int model = MPI_WIN_UNIFIED; /* operations land in the memory the process itself reads */
    switch (keyval) {
    case MPI_WIN_BASE: *value = w.base; return true;
    case MPI_WIN_SIZE: *value = &w.bytes; return true;
    case MPI_WIN_DISP_UNIT: *value = &w.disp_unit; return true;
    case MPI_WIN_CREATE_FLAVOR: *value = &w.flavor; return true;
    case MPI_WIN_MODEL: *value = &model; return true;
    default: return false;
    }
}

int refuse_predefined(const char *function, MPI_Win win, int keyval)
{
    return raise_on_win(win, MPI_ERR_KEYVAL, function,
                        "keyval " + std::to_string(keyval) + " is a predefined window attribute, which cannot be "
                                                            "set or deleted");
}

} // namespace

int win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn,
                      int *win_keyval, void *extra_state)
{
    return create_keyval_call(AttrKind::Win, win_copy_attr_fn, win_delete_attr_fn, win_keyval, extra_state);
}

int win_free_keyval(int *win_keyval)
{
    return free_keyval_call("MPI_Win_free_keyval", AttrKind::Win, win_keyval);
}

int win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_set_attr", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (void *unused = nullptr; predefined_value(*w, win_keyval, &unused)) {
        return refuse_predefined("MPI_Win_set_attr", win, win_keyval);
    }
    std::string error;
    rc = tessera::ompi::attr_set(AttrKind::Win, win, win_keyval, attribute_val, &error);
    return rc == MPI_SUCCESS ? rc : raise_on_win(win, rc, "MPI_Win_set_attr", error);
}

/* attribute_val is really a void **: the value is stored there. */
int win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_get_attr", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    void *value = nullptr;
    if (predefined_value(*w, win_keyval, &value)) {
        *flag = 1;
    } else {
        std::string error;
        if (rc = tessera::ompi::attr_get(AttrKind::Win, win, win_keyval, &value, flag, &error); rc != MPI_SUCCESS) {
            return raise_on_win(win, rc, "MPI_Win_get_attr", error);
        }
    }
    if (*flag != 0) {
        *static_cast<void **>(attribute_val) = value;
    }
    return MPI_SUCCESS;
}

int win_delete_attr(MPI_Win win, int win_keyval)
{
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_delete_attr", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (void *unused = nullptr; predefined_value(*w, win_keyval, &unused)) {
        return refuse_predefined("MPI_Win_delete_attr", win, win_keyval);
    }
    std::string error;
    rc = tessera::ompi::attr_delete(AttrKind::Win, win, win_keyval, &error);
    return rc == MPI_SUCCESS ? rc : raise_on_win(win, rc, "MPI_Win_delete_attr", error);
}

} // namespace tessera::ompi::native
