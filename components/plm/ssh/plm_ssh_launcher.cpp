/* plm ssh: where each process goes. */
#include "components/plm/ssh/plm_ssh_launcher.h"

#include "frameworks/plm/base/plm_base_exec.h"

namespace tessera::orte::plm_ssh {

int Launcher::spawn(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child)
{
    return plm::host_is_local(spec.host) ? spawn_local(spec, child) : spawn_remote(spec, child);
}

int Launcher::spawn_local(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child)
{
    plm::ExecPlan plan;
    int rc = plm::prepare_exec(spec, "plm ssh", &plan);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    plm::Started started;
    rc = plm::fork_exec(plan, &started);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    *child = mca_plm_base_child_t{};
    child->id = started.pid;
    child->stdout_fd = started.stdout_fd;
    child->stderr_fd = started.stderr_fd;
    child->exit_fd = children_.add(started.pid);
    return TESSERA_SUCCESS;
}

} // namespace tessera::orte::plm_ssh
