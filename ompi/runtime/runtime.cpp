#include "ompi/runtime/runtime.h"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <mpi.h>

#include "frameworks/ess/base/base.h"
#include "mca/constants.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi {

int max_thread_level()
{
    return MPI_THREAD_MULTIPLE;
}

constinit std::atomic<Phase> mpi_phase{Phase::NotInitialized};

Runtime &runtime()
{
    static Runtime state;
    return state;
}

int refuse_uninitialized(MPI_Comm comm, const char *function)
{
    switch (mpi_phase.load(std::memory_order_acquire)) {
    case Phase::Initialized:
        return MPI_SUCCESS;
    case Phase::Finalized:
        return raise_on_comm(comm, MPI_ERR_OTHER, function, std::string(function) + " was called after MPI_Finalize");
    case Phase::NotInitialized:
    case Phase::Initializing:
        break;
    }
    return raise_on_comm(comm, MPI_ERR_OTHER, function, std::string(function) + " was called before MPI_Init");
}

const std::string &host_name()
{
    static const std::string name = [] {
        char buf[HOST_NAME_MAX + 1] = {};
        if (gethostname(buf, sizeof buf - 1) != 0) {
            return std::string("localhost");
        }
        return std::string(buf);
    }();
    return name;
}

std::string process_label()
{
    const Runtime &rt = runtime();
    const std::string pid = std::to_string(static_cast<long>(getpid()));
    if (mpi_phase.load(std::memory_order_acquire) == Phase::NotInitialized) {
        return "process " + pid + " on " + host_name();
    }
    const std::string &host = rt.launch.host.empty() ? host_name() : rt.launch.host;
    return "rank " + std::to_string(rt.launch.rank) + " (host " + host + ", pid " + pid + ")";
}

void abort_job(int exit_code, const std::string &to_mpirun, const std::string &alone)
{
    Runtime &rt = runtime();
    std::cout.flush();
    std::fflush(nullptr);
    if (!orte::ess::attempted()) {
        /* MPI_Abort before MPI_Init: start the ess module only to tell the launcher, so that it ends
         * the other ranks at once with this message instead of waiting for them to notice. (When
         * MPI_Init's own start failed, trying again would fail again, and might wait as long.) */
        std::string error;
        if (auto launch = orte::ess::start(&error)) {
            rt.launch = std::move(*launch);
        }
    }
    /* A launcher that does not print the message (a PMIx server) may end this process as soon as it
     * has the request: print first. */
    const bool launcher_prints = orte::ess::launcher_prints_abort();
    if (!launcher_prints) {
        std::fprintf(stderr, "Tessera MPI: %s\n", alone.c_str());
        std::fflush(stderr);
    }
    if (orte::ess::abort(exit_code, to_mpirun) != TESSERA_SUCCESS && launcher_prints) {
        std::fprintf(stderr, "Tessera MPI: %s\n", alone.c_str());
    }
    std::fflush(nullptr);
    _exit(orte::exit_status_of(exit_code));
}

} // namespace tessera::ompi
