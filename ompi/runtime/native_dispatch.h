/*
 * The native engine's side of the dispatch table (generated from ompi/api/mpi_api.txt into
 * tessera_mpi_dispatch.h): which slots Tessera's own implementation fills.
 */
#ifndef TESSERA_OMPI_RUNTIME_NATIVE_DISPATCH_H
#define TESSERA_OMPI_RUNTIME_NATIVE_DISPATCH_H

#include "tessera_mpi_dispatch.h"

namespace tessera::ompi {

/* Sets every slot of the table to the bare implementation (no argument checks) of the native engine,
 * or to NULL where it has none. Generated (ompi/api/gen_native.py): the functions the engine defines,
 * found by their names in native_api.h, and the forms generated from them. */
void native_fill(tessera_mpi_dispatch_t *table);

/* The native translator installs the same slots behind their argument checks: native_translator.h. */

} // namespace tessera::ompi

#endif
