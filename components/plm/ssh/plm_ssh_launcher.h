/* plm ssh: the launcher behind the module — children on this host started directly, children on other
 * hosts through an ssh client and the launch agent. */
#ifndef TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_LAUNCHER_H
#define TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_LAUNCHER_H

#include <algorithm>
#include <cmath>

#include "components/plm/ssh/plm_ssh.h"
#include "components/plm/ssh/plm_ssh_input.h"
#include "components/plm/ssh/plm_ssh_relay.h"
#include "frameworks/plm/base/plm_base_children.h"
#include "frameworks/plm/base/plm_base_launcher.h"

namespace tessera::orte::plm_ssh {

class Launcher final : public plm::Launcher {
public:
    explicit Launcher(Settings settings)
        : settings_(std::move(settings)), children_(settings_.kill_grace),
          input_(children_, std::max(1, static_cast<int>(std::lround(settings_.input_retry * 1000.0))))
    {
    }

    int spawn(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child) override;
    plm::ChildTable &children() override { return children_; }

private:
    /* plm_ssh_remote_spawn.cpp */
    int spawn_remote(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child);

    const Settings settings_;
    /* Declared before the children: destroyed after them, so it passes on their last output. */
    OutputRelay relay_;
    plm::ChildTable children_;
    /* Declared after the children: it sends through their channels, so it stops before they go. */
    InputRelay input_;
};

} // namespace tessera::orte::plm_ssh

#endif
