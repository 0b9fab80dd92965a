/* The communicator calls of the native engine beyond MPI_Comm_rank/size (native_functions.h),
 * registered in ompi/runtime/native_dispatch.cpp. */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_FUNCTIONS_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* comm_group.cpp */
int comm_group(MPI_Comm comm, MPI_Group *group);
int comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);

/* comm_name.cpp */
int comm_set_name(MPI_Comm comm, const char *comm_name);
int comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);

/* comm_info.cpp */
int comm_set_info(MPI_Comm comm, MPI_Info info);
int comm_get_info(MPI_Comm comm, MPI_Info *info_used);

} // namespace tessera::ompi::native

#endif
