/* The window functions of the native engine (ompi/win), for the dispatch table. */
#ifndef TESSERA_OMPI_WIN_WIN_FUNCTIONS_H
#define TESSERA_OMPI_WIN_WIN_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* win_create.cpp */
int win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win);
int win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
int win_free(MPI_Win *win);
int win_get_group(MPI_Win win, MPI_Group *group);
int win_set_name(MPI_Win win, const char *win_name);
int win_get_name(MPI_Win win, char *win_name, int *resultlen);
int win_set_info(MPI_Win win, MPI_Info info);
int win_get_info(MPI_Win win, MPI_Info *info_used);

/* win_rma.cpp */
int win_fence(int assert, MPI_Win win);
int put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
        int target_count, MPI_Datatype target_datatype, MPI_Win win);
int get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
        int target_count, MPI_Datatype target_datatype, MPI_Win win);
int accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);

} // namespace tessera::ompi::native

#endif
