/*
 * trace otf2: from every rank's summary, the archive's global ids — computed the same way at every
 * rank, so that each rank writes the mapping tables of its own events (OTF2_MAPPING_COMM and _REGION:
 * its local ids to the global ones) and rank 0 the global definitions, without another exchange.
 *
 * Regions: the union of the MPI functions entered, numbered densely in function order.
 * Communicators: a communicator is the same object at all of its members when it has the same rank map
 * and is the n-th one with that map each of them created — MPI orders communicator creation alike at
 * every member, as it does every collective on the parent. Numbered in rank order, then creation
 * order. One COMM_GROUP group per distinct rank map; group 0 is COMM_LOCATIONS (world rank r is
 * location r). A communicator whose rank map is unknown gets no definition: its events map to
 * OTF2_UNDEFINED_COMM.
 */
#ifndef TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_UNIFY_H
#define TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_UNIFY_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "components/trace/otf2/trace_otf2_summary.h"

namespace tessera::ompi::trace_otf2 {

struct GlobalComm {
    std::string name;
    uint32_t group = 0; /* index into Unified::groups (global group ref: index + 1) */
};

struct Unified {
    std::vector<std::pair<uint32_t, std::string>> regions; /* global region i: function index, name */
    std::map<uint32_t, uint32_t> region_of_function;
    std::vector<std::vector<int>> groups; /* members (world ranks) of each COMM_GROUP */
    std::vector<GlobalComm> comms;        /* global communicator i */
    std::vector<std::map<uint64_t, uint32_t>> comm_of; /* per rank: local id -> global communicator */
};

Unified unify(const std::vector<RankSummary> &ranks);

} // namespace tessera::ompi::trace_otf2

#endif
