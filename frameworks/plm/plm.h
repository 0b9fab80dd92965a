/*
 * plm: process launch. Layer: orte (libtessera-orte). Selection: one-of-many — the highest-priority
 * component whose query accepts becomes the job's launcher.
 *
 * A launcher starts the processes of a job (mpirun's ranks), reports how each one ended, signals them
 * and tears them down. `fork` starts local processes; `ssh` starts the same process specs on
 * other hosts by prefixing its agent command, and implements this same module. The caller (mpirun) owns
 * the event loop: it reads the children's output pipes and polls or waits for exits through the module.
 *
 * Component: the generic query (mca_base_component_t.mca_query_component) returns the module in
 * *module, a mca_plm_base_module_t*, valid until the component is closed. Closing the component
 * terminates and reaps every child it still has (no process outlives the launcher's close).
 */
#ifndef TESSERA_FRAMEWORKS_PLM_PLM_H
#define TESSERA_FRAMEWORKS_PLM_PLM_H

#include <stdint.h>

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_PLM_BASE_VERSION {1, 0, 0}

/* mca_plm_base_proc_spec_t.flags */
/* Give the child a pipe for stdout; the read end comes back in mca_plm_base_child_t.stdout_fd. */
#define MCA_PLM_SPAWN_PIPE_STDOUT 0x1u
/* Same for stderr. */
#define MCA_PLM_SPAWN_PIPE_STDERR 0x2u
/* Keep the launcher's stdin; without it the child reads /dev/null (ranks must not race for a tty). */
#define MCA_PLM_SPAWN_INHERIT_STDIN 0x4u
/* SIGKILL the child when the thread that started it ends (PR_SET_PDEATHSIG): mpirun killed outright
 * (kill -9) must not leave its ranks running. For ssh, the local ssh client gets it; the launch agent
 * stops the program when its channel closes. Only for a launcher whose starting thread lives as long
 * as the job. */
#define MCA_PLM_SPAWN_DIE_WITH_LAUNCHER 0x8u
/* The child's stdin is mca_plm_base_proc_spec_t.stdin_fd (mpirun's stdin forwarding pipe); the caller
 * keeps its descriptor. A launcher that starts the process elsewhere (ssh) reads the descriptor itself
 * and carries what arrives, end of input included, to the process's stdin there. */
#define MCA_PLM_SPAWN_STDIN_FD 0x10u

/* What to start: one process. Every pointer only needs to stay valid during spawn(). */
typedef struct mca_plm_base_proc_spec {
    /* Host to run on; NULL or "" means this host. A launcher that cannot reach it refuses with
     * TESSERA_ERR_UNREACH (fork reaches only this host). */
    const char *host;
    /* Program and arguments, NULL-terminated, at least argv[0]. argv[0] without a '/' is searched in
     * the PATH the child will see (the env additions' PATH if they set one). */
    const char *const *argv;
    /* "NAME=value" entries, NULL-terminated, or NULL: added to the launcher's own environment,
     * replacing variables of the same name. The job key and rank travel here, never in argv. */
    const char *const *env;
    /* Directory the child starts in; NULL means the launcher's current directory. */
    const char *working_dir;
    uint32_t flags; /* MCA_PLM_SPAWN_* */
    int32_t stdin_fd; /* with MCA_PLM_SPAWN_STDIN_FD; was reserved (zero) before */
    /* Called by a launcher that waits inside spawn() (ssh: for the other host's launch agent) at least
     * every 100 ms, or NULL. It lets the caller serve its own events meanwhile (its wire-up service,
     * its signals, its deadline); a non-zero return abandons the start: spawn() ends what it started
     * and returns TESSERA_ERR_TIMEOUT without a message. */
    int (*while_waiting)(void *arg);
    void *while_waiting_arg;
    void *reserved[2];
} mca_plm_base_proc_spec_t;

/* A started process, as spawn() reports it. */
typedef struct mca_plm_base_child {
    /* The launcher's handle for signal() and in exit reports: the pid of the process it started
     * (for ssh, the local agent process), which is also its process group id. */
    int64_t id;
    /* Read ends of the output pipes (MCA_PLM_SPAWN_PIPE_*), or -1. Non-blocking and close-on-exec;
     * the caller owns them, reads them to end-of-file and closes them. */
    int stdout_fd;
    int stderr_fd;
    /* Becomes readable when the child has exited (a Linux pidfd), for the caller's poll/epoll loop,
     * or -1 when the kernel has none. Owned by the module: valid until the exit is reported by wait(). */
    int exit_fd;
    int reserved_int;
    void *reserved[4];
} mca_plm_base_child_t;

/* How a child ended, as wait() reports it. */
typedef struct mca_plm_base_exit {
    int64_t id;      /* as in mca_plm_base_child_t.id */
    int exited;      /* 1: it called exit(); `code` holds the status */
    int code;        /* exit status 0..255 when exited */
    int signaled;    /* 1: it was killed by `signal` */
    int signal;
    int core_dumped; /* 1 when signaled and a core was written */
    int reserved_int;
    void *reserved[2];
} mca_plm_base_exit_t;

struct mca_plm_base_module;
typedef struct mca_plm_base_module mca_plm_base_module_t;

/*
 * Starts one process as `spec` says, in a process group of its own (so that a signal reaches the
 * processes it starts in turn). Returns TESSERA_SUCCESS once the program has been exec'd — a program
 * that cannot be run (not found, not executable, bad working directory) is an error here, reported
 * through tessera::mca::report with the program and the reason, not a child that exits 127:
 * TESSERA_ERR_NOT_FOUND (no such program or directory), TESSERA_ERR_BAD_PARAM (empty argv),
 * TESSERA_ERR_UNREACH (host not reachable by this launcher), TESSERA_ERR_OUT_OF_RESOURCE (fork, pipe
 * or fd limits), TESSERA_ERROR (anything else). Thread-safe.
 */
typedef int (*mca_plm_base_spawn_fn_t)(mca_plm_base_module_t *plm, const mca_plm_base_proc_spec_t *spec,
                                       mca_plm_base_child_t *child);

/*
 * Waits until any child of this module has exited, and reports it once: timeout < 0 waits forever,
 * 0 only polls, > 0 waits at most that many seconds. Only this module's children are reaped (never
 * waitpid(-1): the caller may have children of its own). Returns TESSERA_SUCCESS with *exit filled,
 * TESSERA_ERR_TIMEOUT when none exited in time, TESSERA_ERR_NOT_FOUND when no child is left to report.
 */
typedef int (*mca_plm_base_wait_fn_t)(mca_plm_base_module_t *plm, double timeout, mca_plm_base_exit_t *exit);

/*
 * Sends `signal` to the process group of child `id` (forwarding SIGINT/SIGTERM/SIGUSR* from mpirun).
 * TESSERA_ERR_NOT_FOUND when the module has no running child with that id.
 */
typedef int (*mca_plm_base_signal_fn_t)(mca_plm_base_module_t *plm, int64_t id, int signal);

/*
 * Tears the job down: SIGTERM to every running child's process group, then, after the launcher's grace
 * period, SIGKILL to the groups still alive. Returns once every child has exited; their exits are kept
 * and still reported by wait(). Safe to call twice and with no children.
 */
typedef int (*mca_plm_base_terminate_all_fn_t)(mca_plm_base_module_t *plm);

struct mca_plm_base_module {
    const struct mca_plm_base_component *plm_component;
    mca_plm_base_spawn_fn_t plm_spawn;
    mca_plm_base_wait_fn_t plm_wait;
    mca_plm_base_signal_fn_t plm_signal;
    mca_plm_base_terminate_all_fn_t plm_terminate_all;
    void *module_state; /* the component's own */
    void *reserved[8];
};

typedef struct mca_plm_base_component {
    mca_base_component_t base;
    /* No entry points beyond the generic query yet; launch-time ones (e.g. a resource manager's
     * allocation) will go here. */
    void *reserved[4];
} mca_plm_base_component_t;

#ifdef __cplusplus
}
#endif

#endif
