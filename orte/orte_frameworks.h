/* The frameworks of the runtime layer, in the order they are registered and opened. */
#ifndef TESSERA_ORTE_ORTE_FRAMEWORKS_H
#define TESSERA_ORTE_ORTE_FRAMEWORKS_H

#include <vector>

#include "mca/framework.h"

namespace tessera::orte {

std::vector<mca_base_framework_t *> frameworks();

} // namespace tessera::orte

#endif
