/*
 * The native engine's side of the dispatch table (generated from ompi/api/mpi_api.txt into
 * tessera_mpi_dispatch.h): which slots Tessera's own implementation fills.
 */
#ifndef TESSERA_OMPI_RUNTIME_NATIVE_DISPATCH_H
#define TESSERA_OMPI_RUNTIME_NATIVE_DISPATCH_H

#include "tessera_mpi_dispatch.h"

namespace tessera::ompi {

/* Sets the slot of every function the native engine implements, to the bare implementation (no
 * argument checks); leaves the others as they are. */
void native_fill(tessera_mpi_dispatch_t *table);

/* The native translator installs the same slots behind their argument checks: native_translator.h. */

} // namespace tessera::ompi

#endif
