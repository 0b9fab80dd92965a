/* The first MPI call of the process: which translator serves it (docs/translator.md). */
#ifndef TESSERA_OMPI_RUNTIME_TRANSLATOR_BOOTSTRAP_H
#define TESSERA_OMPI_RUNTIME_TRANSLATOR_BOOTSTRAP_H

#include "tessera_mpi_dispatch.h"

namespace tessera::ompi {

/*
 * Applies mpirun's settings and the parameter sources, selects the translator through its framework
 * (the `translator` parameter, else the launcher seen in the environment, else native) and lets the
 * chosen module fill `table`, which the caller preset with the fallbacks. On failure, reported on stderr,
 * the table keeps the fallbacks (every call answers MPI_ERR_UNSUPPORTED_OPERATION, MPI_Init first) and
 * the TESSERA_ERR_* code is returned. *filled (may be NULL) receives the module's count.
 */
int bootstrap_translator(tessera_mpi_dispatch_t *table, size_t *filled);

} // namespace tessera::ompi

#endif
