#include "rank_env.h"

#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "orte/runtime/launch_env.h"

namespace tessera::mpirun {
namespace {

namespace env = tessera::orte;

/* Every variable mpirun sets per rank: -x may not override them. */
constexpr const char *kLaunchVars[] = {
    env::kEnvJobId, env::kEnvRank,  env::kEnvSize,   env::kEnvLocalRank,  env::kEnvLocalSize,  env::kEnvNodeId,
    env::kEnvHost,  env::kEnvKvUri, env::kEnvJobKey, env::kEnvBind,       env::kEnvCmdlineMca, env::kEnvCmdlineTune,
    env::kEnvUniverseSize, env::kEnvAppnum, env::kEnvWarnedMcaNames,
};

std::string entry(const char *name, const std::string &value) { return std::string(name) + "=" + value; }

} // namespace

uint32_t new_jobid()
{
    uint32_t value = 0;
    if (getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value)) {
        std::random_device rd;
        value = rd();
    }
    value &= 0x7fffffffu;
    return value == 0 ? 1 : value;
}

std::optional<std::vector<std::string>> export_entries(const std::vector<Export> &exports, std::string *error)
{
    std::vector<std::string> out;
    for (const Export &e : exports) {
        for (const char *reserved : kLaunchVars) {
            if (e.name == reserved) {
                *error = "-x " + e.name + ": mpirun sets this variable for each rank itself";
                return std::nullopt;
            }
        }
        if (e.value) {
            out.push_back(e.name + "=" + *e.value);
        } else if (const char *v = std::getenv(e.name.c_str()); v != nullptr) {
            out.push_back(e.name + "=" + v);
        } else {
            std::fprintf(stderr, "mpirun: warning: -x %s: %s is not set in mpirun's environment; not exported\n",
                         e.name.c_str(), e.name.c_str());
        }
    }
    return out;
}

std::optional<std::vector<std::string>> absolute_tune_files(const std::vector<std::string> &files,
                                                            std::string *error)
{
    std::vector<std::string> out;
    for (const std::string &f : files) {
        std::error_code ec;
        std::string path = std::filesystem::absolute(f, ec).lexically_normal().string();
        if (ec) {
            path = f;
        }
        if (path.find(':') != std::string::npos) {
            *error = "--tune " + f + ": a path containing ':' cannot be passed to the ranks";
            return std::nullopt;
        }
        out.push_back(std::move(path));
    }
    return out;
}

std::vector<std::string> rank_environment(const JobEnv &job, const RankPlacement &p, const Host &host,
                                          const std::string &kv_uri, const std::vector<std::string> &app_env)
{
    std::vector<std::string> e;
    e.reserve(16 + job.exports.size());
    /* The user's exports first: a later entry of the same name wins in the plm's merge, and the launch
     * variables must win (export_entries already refuses them; this is the second line of defence). */
    e.insert(e.end(), job.exports.begin(), job.exports.end());
    e.insert(e.end(), app_env.begin(), app_env.end());
    e.push_back(entry(env::kEnvJobId, std::to_string(job.jobid)));
    e.push_back(entry(env::kEnvRank, std::to_string(p.rank)));
    e.push_back(entry(env::kEnvSize, std::to_string(job.size)));
    e.push_back(entry(env::kEnvUniverseSize, std::to_string(std::max(job.universe_size, job.size))));
    e.push_back(entry(env::kEnvAppnum, std::to_string(p.app)));
    e.push_back(entry(env::kEnvLocalRank, std::to_string(p.local_rank)));
    e.push_back(entry(env::kEnvLocalSize, std::to_string(p.local_size)));
    e.push_back(entry(env::kEnvNodeId, std::to_string(p.node_id)));
    e.push_back(entry(env::kEnvHost, host.name));
    e.push_back(entry(env::kEnvKvUri, kv_uri));
    e.push_back(entry(env::kEnvJobKey, job.job_key));
    e.push_back(entry(env::kEnvBind, p.bind));
    if (!job.cmdline_mca.empty()) {
        e.push_back(entry(env::kEnvCmdlineMca, tessera::orte::encode_cmdline_mca(job.cmdline_mca)));
    }
    if (!job.warned_mca_names.empty()) {
        std::string joined;
        for (const std::string &n : job.warned_mca_names) {
            if (n.find(',') == std::string::npos) { /* such a name is warned about again: harmless */
                joined += (joined.empty() ? "" : ",") + n;
            }
        }
        e.push_back(entry(env::kEnvWarnedMcaNames, joined));
    }
    if (!job.tune_files.empty()) {
        std::string joined;
        for (const std::string &f : job.tune_files) {
            joined += (joined.empty() ? "" : ":") + f;
        }
        e.push_back(entry(env::kEnvCmdlineTune, joined));
    }
    return e;
}

void clear_inherited_launch_env()
{
    for (const char *name : kLaunchVars) {
        unsetenv(name);
    }
}

} // namespace tessera::mpirun
