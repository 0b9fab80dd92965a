/* The attribute functions of the native engine (MPI-4.1 7.7, 12.2.7; the deprecated MPI-1 names of
 * 19.1), registered in ompi/runtime/native_dispatch.cpp. */
#ifndef TESSERA_OMPI_ATTRIBUTE_ATTR_FUNCTIONS_H
#define TESSERA_OMPI_ATTRIBUTE_ATTR_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* comm_attributes.cpp */
int comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                       int *comm_keyval, void *extra_state);
int comm_free_keyval(int *comm_keyval);
int comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
int comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
int comm_delete_attr(MPI_Comm comm, int comm_keyval);
int keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state);
int keyval_free(int *keyval);
int attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int attr_delete(MPI_Comm comm, int keyval);

/* type_attributes.cpp */
int type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn,
                       int *type_keyval, void *extra_state);
int type_free_keyval(int *type_keyval);
int type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val);
int type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag);
int type_delete_attr(MPI_Datatype datatype, int type_keyval);

/* win_keyvals.cpp: the keys; the attributes themselves come with windows */
int win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn,
                      int *win_keyval, void *extra_state);
int win_free_keyval(int *win_keyval);
int win_set_attr(MPI_Win win, int win_keyval, void *attribute_val);
int win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag);
int win_delete_attr(MPI_Win win, int win_keyval);

} // namespace tessera::ompi::native

#endif
