#include "ompi/runtime/runtime.h"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <mpi.h>

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
    if (mpi_phase.load(std::memory_order_acquire) == Phase::NotInitialized) {
        /* MPI_Abort before MPI_Init: the launch environment has not been read yet. */
        std::string error;
        if (auto launch = orte::read_launch_env(&error)) {
            rt.launch = *launch;
        }
    }
    if (rt.kv == nullptr && !rt.launch.singleton && !rt.launch.kv_uri.empty()) {
        /* MPI_Init failed before it connected (or never ran): connect only to tell mpirun, so that it
         * ends the other ranks at once with this message instead of waiting for them to notice. */
        std::string error;
        rt.kv = orte::KvClient::connect(rt.launch.kv_uri, rt.launch.job_key, rt.launch.rank, &error, 5.0);
    }
    if (rt.kv == nullptr || rt.kv->abort(exit_code, to_mpirun) != 0) {
        std::fprintf(stderr, "Tessera MPI: %s\n", alone.c_str());
    }
    std::fflush(nullptr);
    _exit(orte::exit_status_of(exit_code));
}

} // namespace tessera::ompi
