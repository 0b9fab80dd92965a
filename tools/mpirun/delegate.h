/*
 * Delegation: with `translator` set to ompi or mpich, the ranks are served
 * by that runtime, which must also start them — Open MPI's ranks need its mpirun as their PMIx server,
 * MPICH's need hydra's PMI. mpirun then does not launch the job itself: it replaces itself (exec) with
 * the runtime's launcher, giving it the program, -np, the hosts, the user's -x variables, its own
 * --mca/--tune settings (as the ranks would get them from us) and TESSERA_MCA_translator.
 */
#ifndef TESSERA_TOOLS_MPIRUN_DELEGATE_H
#define TESSERA_TOOLS_MPIRUN_DELEGATE_H

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mca/cmdline.h"
#include "mpirun_options.h"

namespace tessera::mpirun {

struct Delegation {
    std::string translator; /* "ompi" or "mpich" */
    std::vector<std::string> argv; /* the launcher's command line, argv[0] its path */
    std::vector<std::pair<std::string, std::string>> env; /* set in mpirun's environment before exec */
};

/* The runtime translator the parameter store names alone ("ompi", "mpich"), read after the settings
 * were checked; nullopt when the job is Tessera's own (unset, "native", a list, an exclusion). */
std::optional<std::string> delegated_translator();

/* The launchers tried, in order, for a translator (looked up in PATH). */
std::vector<std::string> launcher_candidates(const std::string &translator);

/* The first candidate found in PATH, or nullopt. */
std::optional<std::string> find_launcher(const std::string &translator);

/*
 * The launcher's command line and environment (no side effect: unit-testable). `launcher` is its path,
 * `as_root` whether mpirun runs as root (Open MPI then needs --allow-run-as-root). nullopt with *error
 * for an option the launcher cannot be given (bad -x, bad --host).
 */
std::optional<Delegation> plan_delegation(const std::string &translator, const std::string &launcher, const Options &opts,
                                          const tessera::mca::CmdlineResult &mca, bool as_root, std::string *error);

/* Sets the environment, restores the signal mask and dispositions a child expects, and execs. Returns
 * only on failure, with *error. */
void exec_delegation(const Delegation &d, std::string *error);

} // namespace tessera::mpirun

#endif
