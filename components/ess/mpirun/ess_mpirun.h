/* ess mpirun: the module over mpirun's launch environment (orte/runtime/launch_env.h) and its
 * key-value service (orte/kv/kv_client.h). */
#ifndef TESSERA_COMPONENTS_ESS_MPIRUN_ESS_MPIRUN_H
#define TESSERA_COMPONENTS_ESS_MPIRUN_ESS_MPIRUN_H

#include "frameworks/ess/ess.h"

extern "C" mca_ess_base_component_t mca_ess_mpirun_component;

namespace tessera::orte::ess_mpirun {

/* The process's module (one per process). */
mca_ess_base_module_t *module();
/* Drops the connection and what it received (component close). */
void reset();

} // namespace tessera::orte::ess_mpirun

#endif
