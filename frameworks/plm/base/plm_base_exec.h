/*
 * plm base: turning a process spec into a running local child (everything that touches fork and exec).
 * Shared by the launchers that start processes on this host (fork, ssh for local hosts and for the ssh
 * client itself) and by tessera_launch_agent, which starts the program on the remote host.
 */
#ifndef TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_EXEC_H
#define TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_EXEC_H

#include <sys/types.h>

#include <string>
#include <vector>

#include "frameworks/plm/plm.h"

namespace tessera::orte::plm {

/* Whether `host` names this host: NULL, "", "localhost", "127.0.0.1", "::1", or the host's own name
 * (a short name matches the fully qualified one). Other loopback addresses (127.0.0.2) count as remote,
 * which is how the tests stand up several "hosts" on one machine. */
bool host_is_local(const char *host);

/* Everything the child needs, built before fork: after fork a multithreaded parent's child may only
 * make async-signal-safe calls, so no allocation happens there. */
struct ExecPlan {
    std::string who;     /* who starts it, for messages: "plm fork", "tessera_launch_agent on n1" */
    std::string program; /* resolved path given to execve */
    std::vector<std::string> args;
    std::vector<std::string> env;
    std::vector<char *> argv; /* pointers into args, NULL-terminated */
    std::vector<char *> envp; /* pointers into env, NULL-terminated */
    std::string working_dir;  /* empty: stay */
    uint32_t flags = 0;       /* MCA_PLM_SPAWN_* */
    /* >= 0: becomes the child's stdin (overrides MCA_PLM_SPAWN_INHERIT_STDIN); the caller keeps it. */
    int stdin_fd = -1;
    /* setsid() instead of setpgid(): the child loses the controlling terminal (an ssh client must not
     * stop on a password prompt in a background process group; it fails instead). */
    bool new_session = false;
    /* Non-zero: the child gets this signal when the process that started it dies (PR_SET_PDEATHSIG),
     * so that a launch agent killed outright does not leave its program running. */
    int parent_death_signal = 0;
};

/* Validates the spec's argv and env entries (not its host: the caller decides where it runs), merges
 * the environment additions into this process's environment and finds the program in the PATH the
 * child will see. Errors are reported (tessera::mca::report) with `who`, the program and the reason;
 * returns a TESSERA_* code. */
int prepare_exec(const mca_plm_base_proc_spec_t &spec, const std::string &who, ExecPlan *plan);

struct Started {
    pid_t pid = -1;
    int stdout_fd = -1; /* read ends, non-blocking and close-on-exec, when the flags asked for them */
    int stderr_fd = -1;
};

/* Forks and execs; returns once the exec succeeded (or reports why it did not, reaping the child). */
int fork_exec(const ExecPlan &plan, Started *started);

/* TESSERA_* code for an errno from starting a process (ENOENT -> TESSERA_ERR_NOT_FOUND, ...). */
int error_code_for_errno(int err);

} // namespace tessera::orte::plm

#endif
