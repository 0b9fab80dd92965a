/* plm ssh: the launcher behind the module — children on this host started directly, children on other
 * hosts through an ssh client and the launch agent. */
#ifndef TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_LAUNCHER_H
#define TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_LAUNCHER_H

#include "components/plm/ssh/plm_ssh.h"
#include "components/plm/ssh/plm_ssh_relay.h"
#include "frameworks/plm/base/plm_base_children.h"

namespace tessera::orte::plm_ssh {

class Launcher {
public:
    explicit Launcher(Settings settings) : settings_(std::move(settings)), children_(settings_.kill_grace) {}
    Launcher(const Launcher &) = delete;
    Launcher &operator=(const Launcher &) = delete;

    int spawn(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child);
    int wait(double timeout, mca_plm_base_exit_t *exit) { return children_.wait(timeout, exit); }
    int signal(int64_t id, int sig) { return children_.signal(id, sig); }
    int terminate_all() { return children_.terminate_all(); }

private:
    int spawn_local(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child);
    /* plm_ssh_remote_spawn.cpp */
    int spawn_remote(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child);

    const Settings settings_;
    /* Declared before the children: destroyed after them, so it passes on their last output. */
    OutputRelay relay_;
    plm::ChildTable children_;
};

} // namespace tessera::orte::plm_ssh

#endif
