/* plm ssh: where each process goes. */
#include "components/plm/ssh/plm_ssh_launcher.h"

#include "frameworks/plm/base/plm_base_exec.h"

namespace tessera::orte::plm_ssh {

int Launcher::spawn(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child)
{
    return plm::host_is_local(spec.host) ? plm::spawn_local(spec, "plm ssh", &children_, child)
                                         : spawn_remote(spec, child);
}

} // namespace tessera::orte::plm_ssh
