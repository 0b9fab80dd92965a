/* plm fork: the launcher behind the module — processes on this host only. Process creation, the
 * children's bookkeeping and the function table are the plm base's (plm_base_launcher.h), shared with
 * the other launchers. */
#include <string>

#include "components/plm/fork/plm_fork.h"
#include "frameworks/plm/base/plm_base_exec.h"
#include "mca/report.h"

namespace tessera::orte::plm_fork {
namespace {

class ForkLauncher final : public plm::Launcher {
public:
    explicit ForkLauncher(double kill_grace) : children_(kill_grace) {}

    int spawn(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child) override
    {
        if (!plm::host_is_local(spec.host)) {
            tessera::mca::report(tessera::mca::Severity::Error,
                                 std::string("plm fork: cannot start a process on host '") + spec.host +
                                     "': fork starts processes on this host only");
            return TESSERA_ERR_UNREACH;
        }
        return plm::spawn_local(spec, "plm fork", &children_, child);
    }
    plm::ChildTable &children() override { return children_; }

private:
    plm::ChildTable children_;
};

} // namespace

std::unique_ptr<plm::Launcher> make_launcher(double kill_grace) { return std::make_unique<ForkLauncher>(kill_grace); }

} // namespace tessera::orte::plm_fork
