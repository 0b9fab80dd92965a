#include "rank_map.h"

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_GeneralDefinitions.h>

namespace tessera::trace {

namespace {

const GroupDef *mpi_locations_group(const Definitions &defs, uint32_t &ref)
{
    /* At most one per paradigm (OTF2_GROUP_TYPE_COMM_LOCATIONS); the lowest reference if a writer erred. */
    const GroupDef *found = nullptr;
    for (const auto &[r, g] : defs.groups) {
        if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI &&
            (found == nullptr || r < ref)) {
            found = &g;
            ref = r;
        }
    }
    return found;
}

} // namespace

RankMap::RankMap(const Definitions &defs, Warnings &warnings)
{
    uint32_t world_ref = 0;
    const GroupDef *world = mpi_locations_group(defs, world_ref);
    if (world == nullptr) {
        warnings.add(WarningKind::NoMpiLocations, [] {
            return std::string("the archive defines no group of type COMM_LOCATIONS for the MPI paradigm");
        });
    } else {
        proc_location_ = world->members;
    }
    std::unordered_map<uint32_t, Proc> group_proc; /* location group (process) -> its rank */
    std::unordered_map<uint64_t, uint32_t> group_of_location;
    for (const LocationDef &l : defs.locations) {
        group_of_location[l.ref] = l.location_group;
    }
    for (Proc p = 0; p < proc_location_.size(); ++p) {
        location_proc_.emplace(proc_location_[p], p);
        if (auto it = group_of_location.find(proc_location_[p]); it != group_of_location.end()) {
            group_proc.emplace(it->second, p);
        }
    }
    /* Threads of an MPI process may record MPI events too (MPI_THREAD_MULTIPLE). */
    for (const LocationDef &l : defs.locations) {
        if (auto it = group_proc.find(l.location_group); it != group_proc.end()) {
            location_proc_.emplace(l.ref, it->second);
        }
    }

    const size_t world_size = proc_location_.size();
    for (const auto &[ref, c] : defs.comms) {
        CommMap m;
        m.local = table_of(defs, c.group);
        if (c.inter) {
            m.inter = true;
            m.remote = table_of(defs, c.group_b);
            m.side.assign(world_size, 0);
            for (auto [table, bit] : {std::pair{&m.local, 1}, std::pair{&m.remote, 2}}) {
                for (Proc p : table->members) {
                    m.side[p] |= static_cast<uint8_t>(bit);
                }
            }
        }
        comms_.emplace(ref, std::move(m));
    }
}

RankMap::RankTable RankMap::table_of(const Definitions &defs, uint32_t group) const
{
    RankTable t;
    auto it = defs.groups.find(group);
    if (it == defs.groups.end() || it->second.paradigm != OTF2_PARADIGM_MPI) {
        return t;
    }
    const GroupDef &g = it->second;
    if (g.type == OTF2_GROUP_TYPE_COMM_SELF) {
        t.kind = RankTable::Kind::Self;
    } else if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
        t.kind = RankTable::Kind::World;
        for (Proc p = 0; p < proc_location_.size(); ++p) {
            t.members.push_back(p);
        }
    } else if (g.type == OTF2_GROUP_TYPE_COMM_GROUP) {
        /* With GLOBAL_MEMBERS, records already hold indices into COMM_LOCATIONS instead of ranks. */
        t.kind = (g.flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS) ? RankTable::Kind::World : RankTable::Kind::Members;
        t.members.reserve(g.members.size());
        for (uint64_t m : g.members) {
            if (m >= proc_location_.size()) {
                return RankTable{};
            }
            t.members.push_back(static_cast<Proc>(m));
        }
    }
    return t;
}

Peer RankMap::RankTable::lookup(Proc self, uint32_t rank, size_t world) const
{
    switch (kind) {
    case Kind::Members:
        return rank < members.size() ? Peer{members[rank]} : Peer{no_proc, PeerError::RankOutOfRange};
    case Kind::World:
        return rank < world ? Peer{rank} : Peer{no_proc, PeerError::RankOutOfRange};
    case Kind::Self:
        return rank == 0 ? Peer{self} : Peer{no_proc, PeerError::RankOutOfRange};
    case Kind::Unusable:
        break;
    }
    return Peer{no_proc, PeerError::UnusableComm};
}

Peer RankMap::peer(uint32_t comm, Proc self, uint32_t rank) const
{
    auto it = comms_.find(comm);
    if (it == comms_.end()) {
        return Peer{no_proc, PeerError::UnknownComm};
    }
    const CommMap &m = it->second;
    if (!m.inter) {
        return m.local.lookup(self, rank, procs());
    }
    auto two_sided = [](const RankTable &t) {
        return t.kind == RankTable::Kind::Members || t.kind == RankTable::Kind::World;
    };
    if (!two_sided(m.local) || !two_sided(m.remote)) {
        return Peer{no_proc, PeerError::UnusableComm};
    }
    /* On an inter-communicator a rank names a process of the other group (MPI 4.1 §7.6). */
    switch (m.side[self]) {
    case 1:
        return m.remote.lookup(self, rank, procs());
    case 2:
        return m.local.lookup(self, rank, procs());
    default:
        return Peer{no_proc, PeerError::NotInComm};
    }
}

} // namespace tessera::trace
