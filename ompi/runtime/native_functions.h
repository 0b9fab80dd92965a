/*
 * The MPI functions Tessera's native engine implements, with the prototypes of the MPI 5.0 ABI
 * (mpi.h). native_dispatch.cpp puts them into the dispatch table; the generated bindings have already
 * bootstrapped the table and checked the arguments their kinds allow (ompi/api/gen_bindings.py), so a
 * function here checks only what needs the library's state.
 */
#ifndef TESSERA_OMPI_RUNTIME_NATIVE_FUNCTIONS_H
#define TESSERA_OMPI_RUNTIME_NATIVE_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* ompi/runtime/mpi_init.cpp */
int init(int *argc, char ***argv);
int init_thread(int *argc, char ***argv, int required, int *provided);
int initialized(int *flag);
int finalized(int *flag);
int query_thread(int *provided);
int is_thread_main(int *flag);
/* ompi/runtime/mpi_finalize.cpp */
int finalize();
/* ompi/runtime/mpi_abort.cpp */
int abort(MPI_Comm comm, int errorcode);
/* ompi/runtime/environment.cpp */
int get_processor_name(char *name, int *resultlen);
int get_version(int *version, int *subversion);
int get_library_version(char *version, int *resultlen);
double wtime();
double wtick();
int pcontrol(int level, ...);
/* ompi/runtime/alloc_mem.cpp */
int alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int free_mem(void *base);
/* ompi/communicator/comm_query.cpp */
int comm_rank(MPI_Comm comm, int *rank);
int comm_size(MPI_Comm comm, int *size);
int comm_get_parent(MPI_Comm *parent);
/* ompi/runtime/handle_ints.cpp */
int comm_toint(MPI_Comm handle);
MPI_Comm comm_fromint(int handle);
int group_toint(MPI_Group handle);
MPI_Group group_fromint(int handle);
int win_toint(MPI_Win handle);
MPI_Win win_fromint(int handle);
int file_toint(MPI_File handle);
MPI_File file_fromint(int handle);
int session_toint(MPI_Session handle);
MPI_Session session_fromint(int handle);
int message_toint(MPI_Message handle);
MPI_Message message_fromint(int handle);
int info_toint(MPI_Info handle);
MPI_Info info_fromint(int handle);
int errhandler_toint(MPI_Errhandler handle);
MPI_Errhandler errhandler_fromint(int handle);
int request_toint(MPI_Request handle);
MPI_Request request_fromint(int handle);
int type_toint(MPI_Datatype handle);
MPI_Datatype type_fromint(int handle);
int op_toint(MPI_Op handle);
MPI_Op op_fromint(int handle);
/* error handling: ompi/errhandler/errhandler_functions.h */

} // namespace tessera::ompi::native

#endif
