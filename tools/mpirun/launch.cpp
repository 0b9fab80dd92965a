#include "launch.h"

#include <cstring>

#include "frameworks/plm/base/base.h"
#include "mca/constants.h"
#include "mca/var_store.h"

namespace tessera::mpirun {
namespace {

/* The component that starts processes on other hosts. */
constexpr const char *kRemoteComponent = "ssh";

bool user_chose_plm()
{
    auto var = tessera::mca::find_var("plm");
    return var && var->source.kind != tessera::mca::SourceKind::Default;
}

} // namespace

std::unique_ptr<Launcher> Launcher::open(bool needs_remote, std::string *error)
{
    if (tessera::mca::framework_open(&mca_plm_base_framework) != TESSERA_SUCCESS) {
        *error = "the plm framework could not be opened (see the messages above)";
        return nullptr;
    }
    std::unique_ptr<Launcher> launcher(new Launcher());

    if (!needs_remote || user_chose_plm()) {
        const mca_plm_base_component_t *component = nullptr;
        if (tessera::orte::plm::select_module(&launcher->module_, &component) != TESSERA_SUCCESS) {
            *error = "no process launcher (plm component) is available";
            return nullptr; /* the destructor closes the framework */
        }
        launcher->component_name_ = component->base.mca_component_name;
        return launcher;
    }

    for (const tessera::mca::ComponentEntry &entry : tessera::mca::framework_components(&mca_plm_base_framework)) {
        const mca_base_component_t *c = entry.component;
        if (std::strcmp(c->mca_component_name, kRemoteComponent) != 0) {
            continue;
        }
        void *module = nullptr;
        int priority = 0;
        const int rc = c->mca_query_component != nullptr ? c->mca_query_component(&module, &priority)
                                                          : TESSERA_ERR_NOT_AVAILABLE;
        if (rc != TESSERA_SUCCESS || module == nullptr) {
            *error = std::string("the plm component ") + kRemoteComponent +
                     ", needed to start ranks on other hosts, is not available: " + tessera_strerror(rc);
            return nullptr;
        }
        launcher->module_ = static_cast<mca_plm_base_module_t *>(module);
        launcher->component_name_ = kRemoteComponent;
        return launcher;
    }
    *error = std::string("some hosts are not this machine, and no plm component that reaches other hosts (") +
             kRemoteComponent + ") is available (see tessera_info --param plm all)";
    return nullptr;
}

Launcher::~Launcher()
{
    tessera::mca::framework_close(&mca_plm_base_framework);
}

int Launcher::spawn(const std::string &host, const std::vector<std::string> &argv, const std::string &working_dir,
                    int stdin_fd, const std::vector<std::string> &env, const std::function<bool()> &while_waiting,
                    mca_plm_base_child_t *child)
{
    std::vector<const char *> c_argv;
    for (const std::string &a : argv) {
        c_argv.push_back(a.c_str());
    }
    c_argv.push_back(nullptr);
    std::vector<const char *> c_env;
    for (const std::string &e : env) {
        c_env.push_back(e.c_str());
    }
    c_env.push_back(nullptr);

    mca_plm_base_proc_spec_t spec{};
    spec.host = host.c_str();
    spec.argv = c_argv.data();
    spec.env = c_env.data();
    spec.working_dir = working_dir.empty() ? nullptr : working_dir.c_str();
    spec.flags = MCA_PLM_SPAWN_PIPE_STDOUT | MCA_PLM_SPAWN_PIPE_STDERR | MCA_PLM_SPAWN_DIE_WITH_LAUNCHER;
    spec.stdin_fd = -1;
    if (stdin_fd >= 0) {
        spec.flags |= MCA_PLM_SPAWN_STDIN_FD;
        spec.stdin_fd = stdin_fd;
    }
    if (while_waiting) {
        spec.while_waiting = [](void *arg) { return (*static_cast<const std::function<bool()> *>(arg))() ? 0 : 1; };
        spec.while_waiting_arg = const_cast<std::function<bool()> *>(&while_waiting);
    }
    return module_->plm_spawn(module_, &spec, child);
}

int Launcher::wait(double timeout, mca_plm_base_exit_t *exit) { return module_->plm_wait(module_, timeout, exit); }

int Launcher::signal(int64_t id, int sig) { return module_->plm_signal(module_, id, sig); }

int Launcher::terminate_all() { return module_->plm_terminate_all(module_); }

} // namespace tessera::mpirun
