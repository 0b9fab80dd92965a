/*
 * The MPI 5.0 ABI's questions about itself (MPI_Abi_get_version, MPI_Abi_get_info and the Fortran
 * facts a Fortran binding layer records): their answers are facts of Tessera's mpi.h and of the
 * process, whatever runtime serves the other calls, so one implementation serves every translator.
 */
#ifndef TESSERA_OMPI_RUNTIME_ABI_FUNCTIONS_H
#define TESSERA_OMPI_RUNTIME_ABI_FUNCTIONS_H

#include "tessera_mpi_dispatch.h"

namespace tessera::ompi {

/* Puts the ABI functions into a table a translator has filled (they work before MPI_Init and build
 * their info objects through the table, so with the runtime's own objects). */
void install_abi_functions(tessera_mpi_dispatch_t *table);

} // namespace tessera::ompi

#endif
