/*
 * Where each rank runs: round-robin by slot (the first host's slots are filled first, then the next
 * host's; with --oversubscribe the ranks beyond the slots go round again in the same order), its local
 * rank among the job's ranks on that host, and, with --bind-to core, the core it binds to.
 */
#ifndef TESSERA_TOOLS_MPIRUN_PLACEMENT_H
#define TESSERA_TOOLS_MPIRUN_PLACEMENT_H

#include <optional>
#include <string>
#include <vector>

#include "hosts.h"
#include "mpirun_options.h"

namespace tessera::mpirun {

struct RankPlacement {
    int rank = 0;
    int host = 0;    /* index into the job's host list */
    int node_id = 0; /* index among the hosts that got at least one rank */
    int local_rank = 0;
    int local_size = 1;
    int core = -1;           /* --bind-to core: logical core index; -1 when not bound */
    std::string bind = "none"; /* TESSERA_BIND: "none" or the core's PU os-indices, "0,1" */
};

int total_slots(const std::vector<Host> &hosts);

/*
 * Places `np` ranks. Without `oversubscribe`, more ranks than slots is an error saying how many slots
 * each host has. Core binding assumes every host has this host's core layout (mpirun cannot see a
 * remote host's topology; the rank reports a PU its host lacks when it binds).
 */
std::optional<std::vector<RankPlacement>> place_ranks(const std::vector<Host> &hosts, int np, bool oversubscribe,
                                                      BindTo bind, std::string *error);

/* --report-bindings: "rank R bound to core C (PUs x,y)" or "rank R not bound". */
std::string describe_binding(const RankPlacement &p, const std::vector<Host> &hosts);

} // namespace tessera::mpirun

#endif
