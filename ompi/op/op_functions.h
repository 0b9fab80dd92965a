/* The reduction-op MPI functions of the native engine (MPI-4.1 6.9.5-6.9.7), registered in
 * ompi/runtime/native_dispatch.cpp. Errors go to MPI_COMM_SELF's handler (no communicator is named). */
#ifndef TESSERA_OMPI_OP_OP_FUNCTIONS_H
#define TESSERA_OMPI_OP_OP_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

int op_create(MPI_User_function *user_fn, int commute, MPI_Op *op);
int op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op);
int op_free(MPI_Op *op);
int op_commutative(MPI_Op op, int *commute);
int reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op);
int reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op);

} // namespace tessera::ompi::native

#endif
