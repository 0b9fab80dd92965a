/* btl base: what its files share and nothing outside the base uses. */
#ifndef TESSERA_FRAMEWORKS_BTL_BASE_BTL_BASE_INTERNAL_H
#define TESSERA_FRAMEWORKS_BTL_BASE_BTL_BASE_INTERNAL_H

#include <vector>

#include "frameworks/btl/base/base.h"

namespace tessera::ompi::btl_base {

/* The selected modules, highest exclusivity first. */
std::vector<mca_btl_base_module_t *> &modules();

/* Deletes the endpoint sets of every proc still added (framework close). */
void release_all_peers();

/* Finalizes the modules and forgets the selection (framework close). */
void release_modules();

} // namespace tessera::ompi::btl_base

#endif
