/* The info functions of the native engine (MPI-4.1 10, 11.2.3), registered in ompi/runtime/native_dispatch.cpp. */
#ifndef TESSERA_OMPI_INFO_INFO_FUNCTIONS_H
#define TESSERA_OMPI_INFO_INFO_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* info_functions.cpp */
int info_create(MPI_Info *info);
int info_create_env(int argc, char *argv[], MPI_Info *info);
int info_set(MPI_Info info, const char *key, const char *value);
int info_delete(MPI_Info info, const char *key);
int info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
int info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
int info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag);
int info_get_nkeys(MPI_Info info, int *nkeys);
int info_get_nthkey(MPI_Info info, int n, char *key);
int info_dup(MPI_Info info, MPI_Info *newinfo);
int info_free(MPI_Info *info);

} // namespace tessera::ompi::native

#endif
