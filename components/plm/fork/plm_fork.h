/* plm fork: internal declarations shared by the component's files. */
#ifndef TESSERA_COMPONENTS_PLM_FORK_PLM_FORK_H
#define TESSERA_COMPONENTS_PLM_FORK_PLM_FORK_H

#include <memory>

#include "frameworks/plm/base/plm_base_launcher.h"
#include "frameworks/plm/plm.h"

extern "C" mca_plm_base_component_t mca_plm_fork_component;

namespace tessera::orte::plm_fork {

/* plm_fork_kill_grace: seconds between SIGTERM and SIGKILL in terminate_all. */
extern double kill_grace;

/* The launcher behind the module while the component is open (query creates it, close destroys it). */
std::unique_ptr<plm::Launcher> make_launcher(double kill_grace);

} // namespace tessera::orte::plm_fork

#endif
