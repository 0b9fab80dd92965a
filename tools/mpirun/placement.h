/*
 * Where each rank runs: round-robin by slot (the first host's slots are filled first, then the next
 * host's; with --oversubscribe the ranks beyond the slots go round again in the same order), or by node
 * (one rank per host in turn), or N per host (-N); application contexts are placed one after the other
 * on the slots the earlier ones left, each on its own hosts. Also each rank's local rank among the
 * job's ranks on that host, and, with --bind-to core, the core it binds to.
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
    int app = 0;     /* application context (MPI_APPNUM) */
    int host = 0;    /* index into the job's host list */
    int node_id = 0; /* index among the hosts that got at least one rank */
    int local_rank = 0;
    int local_size = 1;
    int core = -1;           /* --bind-to core: logical core index; -1 when not bound */
    std::string bind = "none"; /* TESSERA_BIND: "none" or the core's PU os-indices, "0,1" */
};

int total_slots(const std::vector<Host> &hosts);

/* One application context to place. */
struct AppRequest {
    std::optional<int> np; /* unset: the free slots of its hosts (with per_node: per_node on each) */
    std::vector<int> hosts; /* indices into the job's hosts; empty: every host */
};

struct PlaceOptions {
    bool oversubscribe = false;
    MapBy map_by = MapBy::Slot;
    std::optional<int> per_node; /* each host takes this many ranks, whatever its slots */
    BindTo bind = BindTo::None;
};

/*
 * Places every context's ranks, in order (rank numbers continue from one context to the next). Without
 * `oversubscribe`, more ranks than free slots is an error saying how many slots each host has.
 */
std::optional<std::vector<RankPlacement>> place_apps(const std::vector<Host> &hosts,
                                                     const std::vector<AppRequest> &apps,
                                                     const PlaceOptions &options, std::string *error);

/* --display-map: "rank R on host H (local rank L), context A: program". */
std::string describe_placement(const RankPlacement &p, const std::vector<Host> &hosts, const std::string &program);

/*
 * Places `np` ranks of one context by slot. Without `oversubscribe`, more ranks than slots is an error saying how many slots
 * each host has. Core binding assumes every host has this host's core layout (mpirun cannot see a
 * remote host's topology; the rank reports a PU its host lacks when it binds).
 */
std::optional<std::vector<RankPlacement>> place_ranks(const std::vector<Host> &hosts, int np, bool oversubscribe,
                                                      BindTo bind, std::string *error);

/* --report-bindings: "rank R bound to core C (PUs x,y)" or "rank R not bound". */
std::string describe_binding(const RankPlacement &p, const std::vector<Host> &hosts);

} // namespace tessera::mpirun

#endif
