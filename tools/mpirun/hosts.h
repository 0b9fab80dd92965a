/*
 * The hosts a job may use and their slots: --host lists, hostfiles, or this host with one slot per core.
 */
#ifndef TESSERA_TOOLS_MPIRUN_HOSTS_H
#define TESSERA_TOOLS_MPIRUN_HOSTS_H

#include <optional>
#include <string>
#include <vector>

#include "mpirun_options.h"

namespace tessera::mpirun {

struct Host {
    std::string name; /* as the user gave it: what ranks see in TESSERA_HOST and messages say */
    int slots = 1;
    bool local = false; /* this machine: started with the local launcher, reached over loopback */
};

/* "h1:4,h2" -> {h1, 4 slots}, {h2, 1 slot}. */
std::optional<std::vector<Host>> parse_host_list(const std::string &text, std::string *error);

/* Hostfile text: one host per line, "name [slots=N]", '#' to the end of a line is a comment, blank lines
 * are skipped. Errors name origin:line. */
std::optional<std::vector<Host>> parse_hostfile_text(const std::string &text, const std::string &origin,
                                                     std::string *error);
std::optional<std::vector<Host>> parse_hostfile(const std::string &path, std::string *error);

/*
 * Whether `name` is this machine: "localhost", 127.0.0.1, ::1, this host's name (with or without its
 * domain) or an address of one of its interfaces. Other loopback addresses (127.0.0.2, ...) are NOT
 * local: the tests use them as distinct "hosts" reached through the ssh launcher.
 */
bool is_local_host(const std::string &name);

/*
 * Joins entries naming the same host (slots add up) and every local alias into the first local entry,
 * so that each machine is one node of the job (its ranks then agree on their local ranks). Sets `local`.
 */
std::vector<Host> merge_hosts(const std::vector<Host> &hosts);

/* The job's hosts from the options: --hostfile, then each -hosts, then each context's --host; without
 * any, "localhost" with one slot per core (hwloc). Merged as above. */
std::optional<std::vector<Host>> hosts_from_options(const Options &options, std::string *error);

/* The indices in the job's (merged) hosts of the hosts named in `lists` ("h1:2,h2" each), in the job's
 * order; empty when `lists` is. */
std::optional<std::vector<int>> host_indices(const std::vector<std::string> &lists, const std::vector<Host> &job_hosts,
                                             std::string *error);

} // namespace tessera::mpirun

#endif
