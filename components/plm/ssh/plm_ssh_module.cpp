/* plm ssh: the module's function table over the Launcher. */
#include <memory>
#include <mutex>

#include "components/plm/ssh/plm_ssh.h"
#include "components/plm/ssh/plm_ssh_launcher.h"

namespace tessera::orte::plm_ssh {
namespace {

std::mutex lifetime_mutex;
std::unique_ptr<Launcher> launcher;

Launcher *self(mca_plm_base_module_t *plm) { return static_cast<Launcher *>(plm->module_state); }

int spawn(mca_plm_base_module_t *plm, const mca_plm_base_proc_spec_t *spec, mca_plm_base_child_t *child)
{
    if (spec == nullptr || child == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    return self(plm)->spawn(*spec, child);
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
    .plm_component = &mca_plm_ssh_component,
    .plm_spawn = spawn,
    .plm_wait = wait_any,
    .plm_signal = signal_child,
    .plm_terminate_all = terminate_all,
    .module_state = nullptr,
    .reserved = {},
};

int module_start(const Settings &settings)
{
    std::lock_guard lock(lifetime_mutex);
    if (!launcher) {
        launcher = std::make_unique<Launcher>(settings);
        module.module_state = launcher.get();
    }
    return TESSERA_SUCCESS;
}

void module_stop()
{
    std::lock_guard lock(lifetime_mutex);
    module.module_state = nullptr;
    launcher.reset();
}

} // namespace tessera::orte::plm_ssh
