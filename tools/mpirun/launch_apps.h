/*
 * What each application context hands the launcher: its program (found in -path first), the directory
 * its ranks start in (-wdir, made absolute against mpirun's directory, since a remote launch agent starts
 * elsewhere) and its -env settings; and which ranks read mpirun's stdin (--stdin).
 */
#ifndef TESSERA_TOOLS_MPIRUN_LAUNCH_APPS_H
#define TESSERA_TOOLS_MPIRUN_LAUNCH_APPS_H

#include <optional>
#include <string>
#include <vector>

#include "mpirun_options.h"

namespace tessera::mpirun {

struct LaunchApp {
    std::vector<std::string> argv;
    std::string working_dir;      /* "": mpirun's directory */
    std::vector<std::string> env; /* "NAME=value" from -env */
};

/*
 * One LaunchApp per context. A program name without '/' is looked up in the context's -path
 * directories first (on this machine; the other hosts are taken to be alike) and, when none has it, left
 * to the launcher's search of PATH. Errors (-env naming a launch variable) name the context.
 */
std::optional<std::vector<LaunchApp>> launch_apps(const std::vector<AppContext> &apps, std::string *error);

/* Whether `rank` reads mpirun's stdin under --stdin (default: rank 0). */
bool reads_stdin(const StdinTarget &target, int rank);

} // namespace tessera::mpirun

#endif
