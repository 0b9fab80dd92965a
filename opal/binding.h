/*
 * Processor binding through hwloc: where mpirun places a rank (--bind-to core) and how the rank binds
 * itself (MPI_Init, when TESSERA_BIND names PUs). mpirun cannot bind a rank before exec (the plm spec
 * carries no cpuset, and a remote launcher could not apply it), so the placement travels in TESSERA_BIND
 * and the rank applies it to itself.
 *
 * PUs are named by their operating-system index (what /proc/self/status Cpus_allowed_list and taskset
 * show), lists are written "0,1" or with ranges "0-3,8".
 */
#ifndef TESSERA_OPAL_BINDING_H
#define TESSERA_OPAL_BINDING_H

#include <optional>
#include <string>
#include <vector>

namespace tessera::opal {

/* One core of this host: its logical index among the cores hwloc sees (those this process may use)
 * and the os indices of its PUs (hardware threads). */
struct CoreInfo {
    int core = 0;
    std::vector<unsigned> pus;
};

/* The cores of this host as hwloc sees them (topology loaded once per process). Never empty: a machine
 * without core objects is described as one core per PU. */
const std::vector<CoreInfo> &host_cores();

/* Number of cores, >= 1: mpirun's default slot count for this host. */
int core_count();

/* --bind-to core: the core the `index`-th rank of a host goes to, round-robin (index mod cores). */
CoreInfo core_for_local_rank(int index);

/* "0,1" from {0,1}: the form TESSERA_BIND carries. */
std::string format_pu_list(const std::vector<unsigned> &pus);

/* Parses "0,1" or "0-3,8" (os indices); nullopt for anything else (empty, negative, reversed ranges). */
std::optional<std::vector<unsigned>> parse_pu_list(const std::string &text);

/*
 * Binds the calling process (all its threads) to the PUs in `pu_list`. Returns 0 on success; otherwise
 * -1 and *error says why (malformed list, PUs this host does not have or this process may not use, the
 * kernel refused).
 */
int bind_to_pus(const std::string &pu_list, std::string *error);

/* The calling process's current cpuset as a PU list ("0-1"), or "unknown" when it cannot be read. */
std::string current_binding();

} // namespace tessera::opal

#endif
