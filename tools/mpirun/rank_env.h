/*
 * Each rank's environment additions (orte/runtime/launch_env.h): who it is, where the wire-up service
 * is, the job key, its binding, mpirun's --mca/--tune settings, and the user's -x exports.
 */
#ifndef TESSERA_TOOLS_MPIRUN_RANK_ENV_H
#define TESSERA_TOOLS_MPIRUN_RANK_ENV_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hosts.h"
#include "mpirun_options.h"
#include "placement.h"

namespace tessera::mpirun {

/* What every rank of the job shares. */
struct JobEnv {
    uint32_t jobid = 0;
    int size = 1;
    int universe_size = 1; /* slots of the hosts, at least size */
    std::string job_key;
    std::vector<std::pair<std::string, std::string>> cmdline_mca; /* --mca, in order */
    std::vector<std::string> tune_files;                           /* absolute paths */
    std::vector<std::string> exports;                              /* "NAME=value" from -x */
    std::vector<std::string> warned_mca_names; /* unknown MCA names mpirun warned about */
};

/* A fresh job id: random, 1..2^31-1, so that concurrent jobs (also on other hosts) do not share the
 * /dev/shm prefix "tessera-<jobid>-". */
uint32_t new_jobid();

/*
 * -x entries as "NAME=value". -x VAR takes mpirun's own value; when VAR is not set, a warning is printed
 * and it is skipped. Naming a variable mpirun sets for each rank (TESSERA_RANK, ...) is an error.
 */
std::optional<std::vector<std::string>> export_entries(const std::vector<Export> &exports, std::string *error);

/* --tune files as absolute paths (the ranks may start elsewhere); a ':' in a path is an error because
 * TESSERA_CMDLINE_TUNE separates paths with ':'. */
std::optional<std::vector<std::string>> absolute_tune_files(const std::vector<std::string> &files,
                                                            std::string *error);

/* The additions for one rank; kv_uri is the address this rank's host reaches the service at, app_env
 * its application context's -env entries ("NAME=value", after the job's -x ones: they win). */
std::vector<std::string> rank_environment(const JobEnv &job, const RankPlacement &placement, const Host &host,
                                          const std::string &kv_uri, const std::vector<std::string> &app_env = {});

/* Removes launch variables mpirun itself inherited (a job started from inside a rank), so that no
 * child sees a stale one that mpirun does not set for this job. */
void clear_inherited_launch_env();

} // namespace tessera::mpirun

#endif
