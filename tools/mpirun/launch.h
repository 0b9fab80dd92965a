/*
 * The job's launcher: the plm framework opened for the job and the module chosen from it.
 *
 * Which component: when every host is this machine, or when the user set the `plm` parameter (any
 * source but the default), the framework's own selection decides (select_module: the highest-priority
 * component whose query accepts; fork on a plain host). When some host is another machine and the user
 * left `plm` alone, mpirun needs a launcher that reaches other hosts: it takes the `ssh` component from
 * the open components and queries it directly, rather than setting `plm` itself, which would report
 * the value as coming from the command line when the user never gave it. Local ranks of such a job are
 * started by the same module with an empty host (plm.h: "" means this host).
 */
#ifndef TESSERA_TOOLS_MPIRUN_LAUNCH_H
#define TESSERA_TOOLS_MPIRUN_LAUNCH_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/plm/plm.h"

namespace tessera::mpirun {

class Launcher {
public:
    /* Opens the plm framework and picks the module as described above; nullptr and *error on failure. */
    static std::unique_ptr<Launcher> open(bool needs_remote, std::string *error);
    Launcher(const Launcher &) = delete;
    Launcher &operator=(const Launcher &) = delete;
    /* Closes the framework: the component terminates and reaps any child still running. */
    ~Launcher();

    const std::string &component_name() const { return component_name_; }

    /* host: "" for this machine. argv and env as plm.h describes (env: "NAME=value" additions);
     * working_dir "" for mpirun's; stdin_fd >= 0 becomes the child's stdin (this machine only), else
     * it reads /dev/null. while_waiting is called during a long start (plm.h); returning false abandons
     * it. */
    int spawn(const std::string &host, const std::vector<std::string> &argv, const std::string &working_dir,
              int stdin_fd, const std::vector<std::string> &env,
              const std::function<bool()> &while_waiting, mca_plm_base_child_t *child);
    int wait(double timeout, mca_plm_base_exit_t *exit);
    int signal(int64_t id, int sig);
    int terminate_all();

private:
    Launcher() = default;
    mca_plm_base_module_t *module_ = nullptr;
    std::string component_name_;
};

} // namespace tessera::mpirun

#endif
