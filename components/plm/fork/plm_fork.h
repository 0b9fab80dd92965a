/* plm fork: internal declarations shared by the component's files. */
#ifndef TESSERA_COMPONENTS_PLM_FORK_PLM_FORK_H
#define TESSERA_COMPONENTS_PLM_FORK_PLM_FORK_H

#include "frameworks/plm/plm.h"

extern "C" mca_plm_base_component_t mca_plm_fork_component;

namespace tessera::orte::plm_fork {

/* plm_fork_kill_grace: seconds between SIGTERM and SIGKILL in terminate_all. */
extern double kill_grace;

/* The module handed out by query; its module_state is the plm base ChildTable while the component is open. */
extern mca_plm_base_module_t module;

/* Creates the launcher behind `module` (query) and destroys it, terminating its children (close). */
int module_start();
void module_stop();

} // namespace tessera::orte::plm_fork

#endif
