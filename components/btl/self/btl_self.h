/* btl self: internal declarations shared by the component's files. */
#ifndef TESSERA_COMPONENTS_BTL_SELF_BTL_SELF_H
#define TESSERA_COMPONENTS_BTL_SELF_BTL_SELF_H

#include "frameworks/btl/btl.h"

extern "C" mca_btl_base_component_t mca_btl_self_component;

namespace tessera::ompi::btl_self {

/* Creates the one self module (btl_init) and destroys it with its endpoints (finalize, close). threaded:
 * enable_mpi_threads (fragments are handed over by progress). */
mca_btl_base_module_t *module_create(bool threaded);
void module_destroy();

} // namespace tessera::ompi::btl_self

#endif
