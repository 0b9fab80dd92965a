/*
 * The global definitions tessera-trace needs from an OTF2 archive: the clock, the locations, the groups
 * and the communicators, as the archive states them (raw OTF2 references and enum values;
 * communicator names resolved from the string definitions). rank_map turns them into rank-to-process tables.
 */
#ifndef TESSERA_TOOLS_TRACE_DEFINITIONS_H
#define TESSERA_TOOLS_TRACE_DEFINITIONS_H

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace_types.h"

namespace tessera::trace {

struct LocationDef {
    uint64_t ref = 0;
    uint8_t type = 0; /* OTF2_LocationType */
    uint64_t events = 0;
    uint32_t location_group = 0;
};

struct GroupDef {
    uint8_t type = 0;     /* OTF2_GroupType */
    uint8_t paradigm = 0; /* OTF2_Paradigm */
    uint32_t flags = 0;   /* OTF2_GroupFlag */
    std::vector<uint64_t> members;
};

struct CommDef {
    std::string name;
    uint32_t group = 0;   /* an intra-communicator's group, or an inter-communicator's group A */
    uint32_t group_b = 0; /* an inter-communicator's group B */
    bool inter = false;
};

struct Definitions {
    Clock clock;
    std::vector<LocationDef> locations; /* in definition order */
    std::unordered_map<uint32_t, GroupDef> groups;
    std::map<uint32_t, CommDef> comms;
};

} // namespace tessera::trace

#endif
