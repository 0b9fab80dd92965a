/* The frameworks of a Tessera process: the runtime's and the MPI layer's, lowest layer first. */
#ifndef TESSERA_OMPI_OMPI_FRAMEWORKS_H
#define TESSERA_OMPI_OMPI_FRAMEWORKS_H

#include <vector>

#include "mca/framework.h"

namespace tessera::ompi {

/* orte's frameworks, then btl, dte, coll, osc, translator, trace. */
std::vector<mca_base_framework_t *> frameworks();

/*
 * Registers every framework (its parameters, its components and theirs), so that tools see all
 * parameters and components and warn about unknown names afterwards. Idempotent. Returns the first
 * error; the remaining frameworks are registered anyway.
 */
int register_frameworks();

} // namespace tessera::ompi

#endif
