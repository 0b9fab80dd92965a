/*
 * A rank that is not an MPI program: prints what mpirun told it through the environment, one
 * "key=value" line each, so that the mpirun tests can check the launch contract without libmpi.
 *
 *   launch_env_probe            the LaunchInfo fields, the decoded --mca settings ("mca NAME=VALUE")
 *                               and the --tune files ("tune PATH")
 *   launch_env_probe --bind     binds itself as TESSERA_BIND says (what MPI_Init does) and prints
 *                               whether /proc/self/status Cpus_allowed_list now matches it
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "opal/binding.h"
#include "orte/runtime/launch_env.h"

namespace {

std::string cpus_allowed_list()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string key = "Cpus_allowed_list:";
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) == 0) {
            size_t start = line.find_first_not_of(" \t", key.size());
            return start == std::string::npos ? "" : line.substr(start);
        }
    }
    return "";
}

int probe_binding(const tessera::orte::LaunchInfo &info)
{
    if (info.bind.empty() || info.bind == "none") {
        std::printf("rank=%d bind=none cpus_allowed=%s\n", info.rank, cpus_allowed_list().c_str());
        return 0;
    }
    std::string error;
    if (tessera::opal::bind_to_pus(info.bind, &error) != 0) {
        std::printf("rank=%d bind_error=%s\n", info.rank, error.c_str());
        return 1;
    }
    const std::string allowed = cpus_allowed_list();
    const bool same = tessera::opal::parse_pu_list(allowed) == tessera::opal::parse_pu_list(info.bind);
    std::printf("rank=%d bind=%s cpus_allowed=%s %s\n", info.rank, info.bind.c_str(), allowed.c_str(),
                same ? "bound-as-told" : "NOT-bound-as-told");
    return same ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    std::string error;
    std::optional<tessera::orte::LaunchInfo> info = tessera::orte::read_launch_env(&error);
    if (!info) {
        std::printf("launch_env_error=%s\n", error.c_str());
        return 1;
    }
    if (argc > 1 && std::strcmp(argv[1], "--bind") == 0) {
        return probe_binding(*info);
    }
    std::printf("rank=%d size=%d local_rank=%d local_size=%d node_id=%d host=%s jobid=%u singleton=%d "
                "key_length=%zu bind=%s kv_uri=%s\n",
                info->rank, info->size, info->local_rank, info->local_size, info->node_id, info->host.c_str(),
                info->jobid, info->singleton ? 1 : 0, info->job_key.size(), info->bind.c_str(),
                info->kv_uri.c_str());
    if (const char *mca = std::getenv(tessera::orte::kEnvCmdlineMca); mca != nullptr) {
        auto settings = tessera::orte::decode_cmdline_mca(mca);
        if (!settings) {
            std::printf("rank=%d mca_decode_error\n", info->rank);
            return 1;
        }
        for (const auto &[name, value] : *settings) {
            std::printf("rank=%d mca %s=%s\n", info->rank, name.c_str(), value.c_str());
        }
    }
    if (const char *tune = std::getenv(tessera::orte::kEnvCmdlineTune); tune != nullptr) {
        std::printf("rank=%d tune %s\n", info->rank, tune);
    }
    std::fflush(stdout);
    return 0;
}
