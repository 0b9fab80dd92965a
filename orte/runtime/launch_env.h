/*
 * What a launcher tells each rank, through the environment (never argv: other users can read argv, and
 * the job key is a secret). mpirun sets these for every rank; a process without TESSERA_KV_URI is a
 * singleton (size 1, rank 0) and needs none of them.
 */
#ifndef TESSERA_ORTE_RUNTIME_LAUNCH_ENV_H
#define TESSERA_ORTE_RUNTIME_LAUNCH_ENV_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::orte {

/* The exit status for MPI_Abort's code or a fatal error's class, the same at the rank and at mpirun:
 * the shell sees the low 8 bits, and a non-zero code must not read as success (MPI_Abort(comm, 256), an
 * application's error class 16384). */
inline int exit_status_of(int code)
{
    const int low = code & 0xff;
    return low == 0 && code != 0 ? 1 : low;
}

inline constexpr const char *kEnvJobId = "TESSERA_JOBID";           /* uint32, decimal */
inline constexpr const char *kEnvRank = "TESSERA_RANK";             /* rank in MPI_COMM_WORLD */
inline constexpr const char *kEnvSize = "TESSERA_SIZE";             /* size of MPI_COMM_WORLD */
inline constexpr const char *kEnvLocalRank = "TESSERA_LOCAL_RANK";  /* rank among the job's ranks on its host */
inline constexpr const char *kEnvLocalSize = "TESSERA_LOCAL_SIZE";
inline constexpr const char *kEnvNodeId = "TESSERA_NODE_ID";        /* index of the rank's host in the job */
inline constexpr const char *kEnvHost = "TESSERA_HOST";             /* host name as mpirun was given it */
inline constexpr const char *kEnvKvUri = "TESSERA_KV_URI";          /* "address:port" of mpirun's wire-up service */
inline constexpr const char *kEnvJobKey = "TESSERA_JOB_KEY";        /* 64 hex digits; secret */
inline constexpr const char *kEnvBind = "TESSERA_BIND";             /* "none" or the PU os-indices to bind to, "0,1" */
/* Optional: the processes the job may have (the launcher's slots, at least its size; MPI_UNIVERSE_SIZE)
 * and the index of the rank's application in a multi-application launch (MPI_APPNUM). */
inline constexpr const char *kEnvUniverseSize = "TESSERA_UNIVERSE_SIZE";
inline constexpr const char *kEnvAppnum = "TESSERA_APPNUM";
/* mpirun's --mca settings, encoded by encode_cmdline_mca(): the ranks give them the "command line"
 * source rather than "environment". Not TESSERA_MCA_*, which would read as a parameter name. */
inline constexpr const char *kEnvCmdlineMca = "TESSERA_CMDLINE_MCA";
inline constexpr const char *kEnvCmdlineTune = "TESSERA_CMDLINE_TUNE"; /* --tune files, ':'-separated */
/* MCA names that match no parameter, which mpirun has already warned about (','-separated): the ranks
 * do not warn about them again. */
inline constexpr const char *kEnvWarnedMcaNames = "TESSERA_WARNED_MCA_NAMES";

/* A rank's view of its launch, read from the environment. */
struct LaunchInfo {
    bool singleton = true;
    uint32_t jobid = 0;
    int rank = 0;
    int size = 1;
    int local_rank = 0;
    int local_size = 1;
    int node_id = 0;
    std::string host;   /* as launched; gethostname() for a singleton */
    std::string kv_uri; /* empty for a singleton */
    std::string job_key;
    std::string bind;   /* empty or "none": no binding */
    int universe_size = 1; /* size when the launcher says nothing */
    int appnum = 0;
    /* Filled by the ess framework (frameworks/ess/ess.h), not by read_launch_env: */
    std::vector<int> local_peers; /* the ranks on this node, when the launcher says; else empty */
    std::string launcher;         /* who started the process, for messages */
};

/* Reads and validates the variables above; a malformed one is an error naming it (returns nullopt). */
std::optional<LaunchInfo> read_launch_env(std::string *error);

/* mpirun's own --mca settings and --tune files, as a rank receives them. */
struct LauncherSettings {
    std::vector<std::pair<std::string, std::string>> mca;
    std::vector<std::string> tune_files;
};

/*
 * Decodes TESSERA_CMDLINE_MCA and TESSERA_CMDLINE_TUNE (unset or empty: none); a malformed one is an
 * error naming it (returns nullopt). The one decoder of both: read_launch_env checks them with it, and
 * the rank applies what it returns (ompi/runtime/launcher_settings.h), also when another runtime's
 * launcher started it and the rest of the launch environment is absent.
 */
std::optional<LauncherSettings> read_launcher_settings(std::string *error);

/* name=value pairs <-> one environment value; any byte may appear in values (escaped). */
/* The names of kEnvWarnedMcaNames; empty when it is not set. */
std::vector<std::string> warned_mca_names();

std::string encode_cmdline_mca(const std::vector<std::pair<std::string, std::string>> &settings);
std::optional<std::vector<std::pair<std::string, std::string>>> decode_cmdline_mca(const std::string &text);

} // namespace tessera::orte

#endif
