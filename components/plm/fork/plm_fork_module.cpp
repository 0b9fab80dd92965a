/* plm fork: the module's function table. Process creation and the children's bookkeeping are the plm
 * base's (plm_base_exec.h, plm_base_children.h), shared with the other launchers. */
#include <memory>
#include <mutex>
#include <string>

#include "components/plm/fork/plm_fork.h"
#include "frameworks/plm/base/plm_base_children.h"
#include "frameworks/plm/base/plm_base_exec.h"
#include "mca/report.h"

namespace tessera::orte::plm_fork {
namespace {

std::mutex lifetime_mutex;
std::unique_ptr<plm::ChildTable> children;

plm::ChildTable *self(mca_plm_base_module_t *plm) { return static_cast<plm::ChildTable *>(plm->module_state); }

int spawn(mca_plm_base_module_t *module, const mca_plm_base_proc_spec_t *spec, mca_plm_base_child_t *child)
{
    if (spec == nullptr || child == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (!plm::host_is_local(spec->host)) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             std::string("plm fork: cannot start a process on host '") + spec->host +
                                 "': fork starts processes on this host only");
        return TESSERA_ERR_UNREACH;
    }
    plm::ExecPlan plan;
    int rc = plm::prepare_exec(*spec, "plm fork", &plan);
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
    child->exit_fd = self(module)->add(started.pid);
    return TESSERA_SUCCESS;
}

int wait_any(mca_plm_base_module_t *plm, double timeout, mca_plm_base_exit_t *exit)
{
    if (exit == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    return self(plm)->wait(timeout, exit);
}

int signal_child(mca_plm_base_module_t *plm, int64_t id, int sig) { return self(plm)->signal(id, sig); }

int terminate_all(mca_plm_base_module_t *plm) { return self(plm)->terminate_all(); }

} // namespace

mca_plm_base_module_t module = {
    .plm_component = &mca_plm_fork_component,
    .plm_spawn = spawn,
    .plm_wait = wait_any,
    .plm_signal = signal_child,
    .plm_terminate_all = terminate_all,
    .module_state = nullptr,
    .reserved = {},
};

int module_start()
{
    std::lock_guard lock(lifetime_mutex);
    if (!children) {
        children = std::make_unique<plm::ChildTable>(kill_grace);
        module.module_state = children.get();
    }
    return TESSERA_SUCCESS;
}

void module_stop()
{
    std::lock_guard lock(lifetime_mutex);
    module.module_state = nullptr;
    children.reset();
}

} // namespace tessera::orte::plm_fork
