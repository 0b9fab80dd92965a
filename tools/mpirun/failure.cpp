#include "failure.h"

#include <cstdio>
#include <cstring>

#include "frameworks/plm/base/base.h"
#include "mca/constants.h"
#include "orte/runtime/launch_env.h"

namespace tessera::mpirun {
namespace {

constexpr const char *kTeardown = "; terminating the job";

std::string who(int rank, const std::string &host)
{
    return "mpirun: rank " + std::to_string(rank) + " on host " + host;
}

std::string signal_name(int sig)
{
    const char *name = strsignal(sig);
    return "signal " + std::to_string(sig) + (name != nullptr ? std::string(" (") + name + ")" : "");
}

} // namespace

std::optional<Failure> failure_from_exit(const RankEnd &end)
{
    const std::string tail = end.others_running ? kTeardown : "";
    const mca_plm_base_exit_t &e = end.exit;
    if (e.signaled) {
        return Failure{128 + e.signal, who(end.rank, end.host) + " was killed by " +
                                           tessera::orte::plm::describe_exit(e) + tail};
    }
    if (!e.exited) {
        return Failure{1, who(end.rank, end.host) + " ended with an unknown status" + tail};
    }
    const bool early = end.mpi_job && !end.finalized;
    if (e.code != 0) {
        return Failure{e.code, who(end.rank, end.host) + " exited with status " + std::to_string(e.code) +
                                   (early ? " before MPI_Finalize" : "") + tail};
    }
    if (early && end.others_running) {
        return Failure{1, who(end.rank, end.host) + " exited with status 0 before MPI_Finalize" + tail};
    }
    return std::nullopt;
}

Failure failure_from_abort(int rank, const std::string &host, int code, const std::string &text, bool others_running)
{
    /* The rank says why (MPI_Abort, or a fatal error handler): mpirun adds who and the status. */
    std::string message = who(rank, host) + " ended the job with status " + std::to_string(code);
    if (!text.empty()) {
        message += ": " + text;
    }
    return Failure{orte::exit_status_of(code), message + (others_running ? kTeardown : "")};
}

Failure failure_from_timeout(double seconds)
{
    char text[64];
    std::snprintf(text, sizeof text, "%g", seconds);
    return Failure{124, std::string("mpirun: job timed out after ") + text + " s" + kTeardown};
}

Failure failure_from_wireup(double seconds, const std::vector<std::pair<int, std::string>> &missing)
{
    constexpr std::size_t kNamed = 8;
    char text[64];
    std::snprintf(text, sizeof text, "%g", seconds);
    std::string names;
    for (std::size_t i = 0; i < missing.size() && i < kNamed; ++i) {
        names += (i == 0 ? "rank " : ", rank ") + std::to_string(missing[i].first) + " on host " + missing[i].second;
    }
    if (missing.size() > kNamed) {
        names += " and " + std::to_string(missing.size() - kNamed) + " more";
    }
    return Failure{1, std::string("mpirun: the wire-up gave up after ") + text + " s (plm_base_wireup_timeout): " +
                          names + " never reached it" + kTeardown};
}

Failure failure_from_signal(int sig)
{
    return Failure{128 + sig, "mpirun: received " + signal_name(sig) + kTeardown};
}

Failure failure_from_spawn(int rank, const std::string &host, int rc)
{
    return Failure{rc == TESSERA_ERR_NOT_FOUND ? 127 : 1,
                   "mpirun: could not start rank " + std::to_string(rank) + " on host " + host + ": " +
                       tessera_strerror(rc) + kTeardown};
}

} // namespace tessera::mpirun
