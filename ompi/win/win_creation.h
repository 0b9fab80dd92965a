/*
 * What every window constructor shares (win_create.cpp): MPI_Win_create, MPI_Win_allocate and
 * MPI_Win_allocate_shared (win_shared.cpp) check the same arguments and make the window the same way.
 */
#ifndef TESSERA_OMPI_WIN_WIN_CREATION_H
#define TESSERA_OMPI_WIN_WIN_CREATION_H

#include <mpi.h>

#include "ompi/communicator/communicator.h"
#include "ompi/info/info.h"

namespace tessera::ompi::native {

/* The collective part: the private communicator, every process's size and displacement unit, the
 * choice of the osc module, the registration. `parent` is valid and `info` checked; errors are raised
 * on `on`. A module may replace `base` (MPI_Win_allocate_shared's is NULL until then): the window's
 * base is then the module's memory, and what the caller allocated is freed here. */
int create(const char *function, void *base, MPI_Aint size, int disp_unit, const InfoEntries &info, MPI_Comm on,
           Communicator *parent, int flavor, bool owns_memory, MPI_Win *win);

/* The argument checks of every constructor; MPI_SUCCESS or the raised error. */
int check(const char *function, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, Communicator **parent,
          InfoEntries *hints);

} // namespace tessera::ompi::native

#endif
