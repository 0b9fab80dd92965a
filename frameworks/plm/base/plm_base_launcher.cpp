/* plm base: a child started on this host, and the module's function table over a Launcher (see
 * plm_base_launcher.h). */
#include "frameworks/plm/base/plm_base_launcher.h"

#include "frameworks/plm/base/plm_base_exec.h"

namespace tessera::orte::plm {
namespace {

Launcher *self(mca_plm_base_module_t *plm) { return static_cast<Launcher *>(plm->module_state); }

} // namespace

int spawn_local(const mca_plm_base_proc_spec_t &spec, const std::string &who, ChildTable *children,
                mca_plm_base_child_t *child)
{
    ExecPlan plan;
    int rc = prepare_exec(spec, who, &plan);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    Started started;
    rc = fork_exec(plan, &started);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    *child = mca_plm_base_child_t{};
    child->id = started.pid;
    child->stdout_fd = started.stdout_fd;
    child->stderr_fd = started.stderr_fd;
    child->exit_fd = children->add(started.pid);
    return TESSERA_SUCCESS;
}

int LauncherModule::query(const Factory &make, int priority, void **out_module, int *out_priority)
{
    {
        std::lock_guard lock(mutex_);
        if (!launcher_) {
            launcher_ = make();
            module_.module_state = launcher_.get();
        }
    }
    *out_module = &module_;
    *out_priority = priority;
    return TESSERA_SUCCESS;
}

void LauncherModule::close()
{
    std::lock_guard lock(mutex_);
    module_.module_state = nullptr;
    launcher_.reset();
}

int LauncherModule::plm_spawn(mca_plm_base_module_t *plm, const mca_plm_base_proc_spec_t *spec,
                              mca_plm_base_child_t *child)
{
    if (spec == nullptr || child == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    return self(plm)->spawn(*spec, child);
}

int LauncherModule::plm_wait(mca_plm_base_module_t *plm, double timeout, mca_plm_base_exit_t *exit)
{
    if (exit == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    return self(plm)->children().wait(timeout, exit);
}

int LauncherModule::plm_signal(mca_plm_base_module_t *plm, int64_t id, int sig)
{
    return self(plm)->children().signal(id, sig);
}

int LauncherModule::plm_terminate_all(mca_plm_base_module_t *plm) { return self(plm)->children().terminate_all(); }

} // namespace tessera::orte::plm
