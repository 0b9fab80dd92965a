/* The error handling functions of the native engine (MPI-4.1 9.3-9.5), registered in
 * ompi/runtime/native_dispatch.cpp. */
#ifndef TESSERA_OMPI_ERRHANDLER_ERRHANDLER_FUNCTIONS_H
#define TESSERA_OMPI_ERRHANDLER_ERRHANDLER_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* comm_errhandler.cpp */
int comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler);
int comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int comm_call_errhandler(MPI_Comm comm, int errorcode);
int errhandler_free(MPI_Errhandler *errhandler);

/* object_errhandlers.cpp: windows, files and sessions, as far as those objects exist */
int win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler);
int win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int win_call_errhandler(MPI_Win win, int errorcode);
int file_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn, MPI_Errhandler *errhandler);
int file_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
int file_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
int file_call_errhandler(MPI_File fh, int errorcode);
int session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler);

/* error_string.cpp */
int error_string(int errorcode, char *string, int *resultlen);
int error_class(int errorcode, int *errorclass);

/* user_error_functions.cpp */
int add_error_class(int *errorclass);
int add_error_code(int errorclass, int *errorcode);
int add_error_string(int errorcode, const char *string);
int remove_error_class(int errorclass);
int remove_error_code(int errorcode);
int remove_error_string(int errorcode);

} // namespace tessera::ompi::native

#endif
