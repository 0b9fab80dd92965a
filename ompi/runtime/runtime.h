/*
 * The MPI process's life-cycle state (MPI-4.1 chapter 11.2): whether MPI is initialized or finalized,
 * how the process was launched (as the ess framework tells it: frameworks/ess/base/base.h, which also
 * holds the connection to the launcher), and the thread level it provides.
 */
#ifndef TESSERA_OMPI_RUNTIME_RUNTIME_H
#define TESSERA_OMPI_RUNTIME_RUNTIME_H

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "ompi/proc/proc_table.h"
#include "orte/runtime/launch_env.h"

namespace tessera::ompi {

enum class Phase { NotInitialized, Initializing, Initialized, Finalized };

/*
 * The highest thread level the engine supports: MPI_THREAD_MULTIPLE. When it is provided,
 * opal::using_threads() turns the engine's locks on (docs/threads.md); below it they are one predictable
 * branch each.
 */
int max_thread_level();

/* Where the process is in its life cycle. Outside Runtime and constant-initialised, so that the check
 * every MPI call makes is one load: no guard of a function-local static, no call. */
extern constinit std::atomic<Phase> mpi_phase;

struct Runtime {
    orte::LaunchInfo launch; /* a singleton until MPI_Init asks the ess framework */
    int thread_provided = 0; /* MPI_THREAD_SINGLE */
    int thread_requested = 0; /* what MPI_Init_thread asked for (MPI_INFO_ENV's thread_level) */
    std::thread::id main_thread;
    std::vector<std::string> peer_hosts; /* by rank, from the business cards exchanged in MPI_Init */
    ProcTable procs;                     /* every proc this process knows */
    std::vector<tessera_proc_t *> world_procs; /* by rank in MPI_COMM_WORLD (owned by procs) */
};

Runtime &runtime();

/* MPI_Init done and MPI_Finalize not yet */
inline bool mpi_initialized()
{
    return mpi_phase.load(std::memory_order_acquire) == Phase::Initialized;
}

/* require_initialized() outside MPI_Init and MPI_Finalize: raises the error. */
int refuse_uninitialized(MPI_Comm comm, const char *function);

/* MPI_SUCCESS between MPI_Init and MPI_Finalize; otherwise raises MPI_ERR_OTHER on comm, saying that
 * `function` was called before MPI_Init or after MPI_Finalize (MPI-4.1 11.2.1). */
inline int require_initialized(MPI_Comm comm, const char *function)
{
    if (mpi_initialized()) [[likely]] {
        return MPI_SUCCESS;
    }
    return refuse_uninitialized(comm, function);
}

/* The host name as gethostname() gives it (cached). */
const std::string &host_name();

/* Who is speaking, for messages: "rank 1 (host node3, pid 4242)", or "process 4242 on node3" before
 * MPI_Init has read the launch environment. */
std::string process_label();

/*
 * Ends the job with exit_code (MPI_Abort, MPI_ERRORS_ARE_FATAL): hands `to_mpirun` to the launcher
 * through the ess module (starting it just for this before MPI_Init) — mpirun prints it with the rank
 * and host and ends the other ranks; a PMIx server ends the job — then exits this process with the
 * code. A singleton, a rank under a launcher that does not print it (PMIx), or a rank that cannot reach
 * its launcher, prints `alone` to stderr instead, so the message is printed exactly once. stdout and stderr are flushed first. Never returns.
 */
[[noreturn]] void abort_job(int exit_code, const std::string &to_mpirun, const std::string &alone);

} // namespace tessera::ompi

#endif
