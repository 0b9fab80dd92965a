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

/* comm_dup.cpp */
int comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request);

/* comm_split.cpp, comm_split_type.cpp */
int comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm);

/* comm_create.cpp */
int comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);

/* comm_free.cpp */
int comm_free(MPI_Comm *comm);

/* comm_inter.cpp */
int comm_test_inter(MPI_Comm comm, int *flag);
int comm_remote_size(MPI_Comm comm, int *size);
int comm_remote_group(MPI_Comm comm, MPI_Group *group);
int intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                     MPI_Comm *newintercomm);
int intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);

} // namespace tessera::ompi::native

#endif
