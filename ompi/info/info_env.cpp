/* The contents of MPI_INFO_ENV and MPI_Info_create_env (MPI-4.1 11.2.3): how the process was started,
 * as far as this runtime knows it. Keys without a value here are left out, as the standard allows:
 * `soft` (mpirun takes no soft process counts) and `file` (nor an application file). */
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ompi/info/info.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi {

namespace {

/* The process's own argv, from /proc (MPI_Init may have been given NULL). */
std::vector<std::string> own_command_line()
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    std::size_t start = 0;
    while (start < all.size()) {
        const std::size_t end = all.find('\0', start);
        args.push_back(all.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return args;
}

const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:
        return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    default:
        return "MPI_THREAD_MULTIPLE";
    }
}

/* The job's hosts in rank order, each once; before MPI_Init only this process's. */
std::string job_hosts(const Runtime &rt, const orte::LaunchInfo &launch)
{
    std::vector<std::string> hosts;
    for (const std::string &h : rt.peer_hosts) {
        if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) {
            hosts.push_back(h);
        }
    }
    if (hosts.empty()) {
        hosts.push_back(launch.host.empty() ? host_name() : launch.host);
    }
    std::string joined;
    for (const std::string &h : hosts) {
        joined += (joined.empty() ? "" : ",") + h;
    }
    return joined;
}

} // namespace

InfoEntries info_env_entries(char **argv)
{
    std::vector<std::string> args;
    if (argv != nullptr) {
        for (char **a = argv; *a != nullptr; ++a) {
            args.emplace_back(*a);
        }
    } else {
        args = own_command_line();
    }
    InfoEntries e;
    if (!args.empty()) {
        e.set("command", args[0]);
    }
    if (args.size() > 1) {
        std::string rest;
        for (std::size_t i = 1; i < args.size(); ++i) {
            rest += (i > 1 ? " " : "") + args[i];
        }
        e.set("argv", rest);
    }
    const Runtime &rt = runtime();
    const Phase phase = mpi_phase.load(std::memory_order_acquire);
    const bool started = phase == Phase::Initialized || phase == Phase::Finalized;
    orte::LaunchInfo launch = rt.launch;
    if (!started) {
        /* Before MPI_Init the runtime has not read its launch environment yet. */
        std::string error;
        if (auto read = orte::read_launch_env(&error)) {
            launch = *read;
        }
    }
    e.set("maxprocs", std::to_string(launch.size));
    e.set("host", job_hosts(rt, launch));
    utsname u{};
    if (uname(&u) == 0) {
        e.set("arch", u.machine);
    }
    if (char *cwd = getcwd(nullptr, 0); cwd != nullptr) {
        e.set("wdir", cwd);
        std::free(cwd);
    }
    if (started) {
        e.set("thread_level", thread_level_name(rt.thread_requested));
    }
    return e;
}

} // namespace tessera::ompi
