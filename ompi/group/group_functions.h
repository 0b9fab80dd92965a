/* The group functions of the native engine (MPI-4.1 7.3), registered in
 * ompi/runtime/native_dispatch.cpp. */
#ifndef TESSERA_OMPI_GROUP_GROUP_FUNCTIONS_H
#define TESSERA_OMPI_GROUP_GROUP_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* group_queries.cpp */
int group_size(MPI_Group group, int *size);
int group_rank(MPI_Group group, int *rank);
int group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]);
int group_compare(MPI_Group group1, MPI_Group group2, int *result);
int group_free(MPI_Group *group);

/* group_constructors.cpp */
int group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);

} // namespace tessera::ompi::native

#endif
