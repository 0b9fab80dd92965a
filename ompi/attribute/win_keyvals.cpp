/* MPI_Win_create_keyval and MPI_Win_free_keyval (MPI-4.1 12.2.7): the keys exist now, so that the
 * window calls only add the attributes of their objects. */
#include "ompi/attribute/attr_functions.h"
#include "ompi/attribute/keyval_calls.h"

namespace tessera::ompi::native {

int win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn,
                      int *win_keyval, void *extra_state)
{
    return create_keyval_call(AttrKind::Win, win_copy_attr_fn, win_delete_attr_fn, win_keyval, extra_state);
}

int win_free_keyval(int *win_keyval)
{
    return free_keyval_call("MPI_Win_free_keyval", AttrKind::Win, win_keyval);
}

} // namespace tessera::ompi::native
