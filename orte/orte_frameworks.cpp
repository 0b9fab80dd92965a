#include "orte/orte_frameworks.h"

#include "frameworks/ess/base/base.h"
#include "frameworks/plm/base/base.h"

namespace tessera::orte {

std::vector<mca_base_framework_t *> frameworks() { return {&mca_plm_base_framework, &mca_ess_base_framework}; }

} // namespace tessera::orte
