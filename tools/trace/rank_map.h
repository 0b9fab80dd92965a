/*
 * Communicator-local ranks to processes (seeds/otf2-message-matching.txt, "How to Map Local MPI Ranks
 * to OTF2 Locations"): a communicator names a group; an MPI COMM_GROUP lists indices into the MPI
 * COMM_LOCATIONS group, whose i-th member is the location of MPI_COMM_WORLD rank i. The tables are
 * built once from the definitions, so each record costs two lookups.
 */
#ifndef TESSERA_TOOLS_TRACE_RANK_MAP_H
#define TESSERA_TOOLS_TRACE_RANK_MAP_H

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "definitions.h"
#include "trace_types.h"
#include "warnings.h"

namespace tessera::trace {

enum class PeerError : uint8_t { None, UnknownComm, UnusableComm, RankOutOfRange, NotInComm };

struct Peer {
    Proc proc = no_proc;
    PeerError error = PeerError::None;
};

class RankMap {
public:
    /* Warns (no-mpi-locations) when the archive has no MPI COMM_LOCATIONS group. */
    RankMap(const Definitions &defs, Warnings &warnings);

    /* Processes: the size of MPI_COMM_WORLD. */
    size_t procs() const { return proc_location_.size(); }
    /*
     * The process a location belongs to: a member of the COMM_LOCATIONS group, or another location
     * (a thread) in the same location group as one; no_proc otherwise.
     */
    Proc proc_of_location(uint64_t location) const
    {
        auto it = location_proc_.find(location);
        return it == location_proc_.end() ? no_proc : it->second;
    }
    /* The location of a process's rank in the COMM_LOCATIONS group. */
    uint64_t location_of(Proc p) const { return proc_location_[p]; }
    /* The process `rank` of `comm` names, seen from `self` (which matters for self and inter comms). */
    Peer peer(uint32_t comm, Proc self, uint32_t rank) const;

private:
    /* One group's rank -> process table, or how to compute it. */
    struct RankTable {
        enum class Kind : uint8_t { Members, World, Self, Unusable } kind = Kind::Unusable;
        std::vector<Proc> members; /* Members, and World's member list for inter-communicators */
        Peer lookup(Proc self, uint32_t rank, size_t world) const;
    };
    struct CommMap {
        RankTable local;  /* an intra-communicator's group; an inter-communicator's group A */
        RankTable remote; /* an inter-communicator's group B */
        /* Inter-communicators: per process, 1 if in group A, 2 if in group B. */
        std::vector<uint8_t> side;
        bool inter = false;
    };
    RankTable table_of(const Definitions &defs, uint32_t group) const;

    std::unordered_map<uint64_t, Proc> location_proc_;
    std::vector<uint64_t> proc_location_;
    std::unordered_map<uint32_t, CommMap> comms_;
};

} // namespace tessera::trace

#endif
