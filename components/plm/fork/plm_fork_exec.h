/* plm fork: turning a process spec into a running child (everything that touches fork and exec). */
#ifndef TESSERA_COMPONENTS_PLM_FORK_PLM_FORK_EXEC_H
#define TESSERA_COMPONENTS_PLM_FORK_PLM_FORK_EXEC_H

#include <sys/types.h>

#include <string>
#include <vector>

#include "frameworks/plm/plm.h"

namespace tessera::orte::plm_fork {

/* Everything the child needs, built before fork: after fork a multithreaded parent's child may only
 * make async-signal-safe calls, so no allocation happens there. */
struct ExecPlan {
    std::string program; /* resolved path given to execve */
    std::vector<std::string> args;
    std::vector<std::string> env;
    std::vector<char *> argv; /* pointers into args, NULL-terminated */
    std::vector<char *> envp; /* pointers into env, NULL-terminated */
    std::string working_dir;  /* empty: stay */
    uint32_t flags = 0;
};

/* Validates the spec (host, argv, env entries), merges the environment and finds the program in
 * PATH. Errors are reported with the program and reason; returns a TESSERA_* code. */
int prepare_exec(const mca_plm_base_proc_spec_t &spec, ExecPlan *plan);

struct Started {
    pid_t pid = -1;
    int stdout_fd = -1;
    int stderr_fd = -1;
};

/* Forks and execs; returns once the exec succeeded (or reports why it did not, reaping the child). */
int fork_exec(const ExecPlan &plan, Started *started);

} // namespace tessera::orte::plm_fork

#endif
