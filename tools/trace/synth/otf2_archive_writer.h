/*
 * Writing OTF2 archives of MPI traffic through the OTF2 writer API, for tessera-trace's tests and its
 * throughput generator: a layout of processes, locations, groups and communicators becomes the global
 * definitions, and each location's events are written by the caller through its OTF2_EvtWriter.
 */
#ifndef TESSERA_TOOLS_TRACE_SYNTH_OTF2_ARCHIVE_WRITER_H
#define TESSERA_TOOLS_TRACE_SYNTH_OTF2_ARCHIVE_WRITER_H

#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::trace::synth {

struct CommSpec {
    enum class Kind {
        Group,         /* a COMM_GROUP listing world ranks: rank i of the comm is world rank members[i] */
        GlobalMembers, /* the same, flagged GLOBAL_MEMBERS: records hold world ranks */
        Locations,     /* the COMM_LOCATIONS group itself (rank = world rank) */
        Self,          /* the COMM_SELF group */
        Inter,         /* an inter-communicator between `members` (group A) and `members_b` */
        Broken,        /* names a group that is never defined (a damaged archive) */
    };
    uint32_t ref = 0;
    std::string name;
    Kind kind = Kind::Group;
    std::vector<uint64_t> members;
    std::vector<uint64_t> members_b;
};

struct Layout {
    uint32_t ranks = 2;
    uint64_t resolution = 1000000000; /* ticks per second */
    uint64_t offset = 0;              /* tick of time zero */
    /* The location of each world rank; empty: rank i is location i. */
    std::vector<uint64_t> rank_locations;
    /* More locations of a rank's process (threads): location -> rank. */
    std::map<uint64_t, uint32_t> threads;
    /* Locations in a process of their own that is not part of MPI. */
    std::vector<uint64_t> outsiders;
    /* Communicators; empty: MPI_COMM_WORLD (ref 0) as a COMM_GROUP of all ranks. */
    std::vector<CommSpec> comms;
    /* Leave out the MPI COMM_LOCATIONS group (an archive tessera-trace cannot map). */
    bool without_mpi_locations = false;
};

class ArchiveWriter {
public:
    /* Creates `dir`/`name`.otf2 and its directory; check ok(). */
    ArchiveWriter(const std::string &dir, const std::string &name, Layout layout);
    ~ArchiveWriter();
    ArchiveWriter(const ArchiveWriter &) = delete;
    ArchiveWriter &operator=(const ArchiveWriter &) = delete;

    bool ok() const { return error_.empty(); }
    const std::string &error() const { return error_; }
    const Layout &layout() const { return layout_; }
    std::string anchor() const { return dir_ + "/" + name_ + ".otf2"; }

    /* The location of world rank `rank`. */
    uint64_t location(uint32_t rank) const;
    /* The event writer of a location (any defined location); nullptr if it cannot be had. */
    OTF2_EvtWriter *events(uint64_t location);
    /* The region ref to use in Enter/Leave records (one region, "MPI_Call"). */
    static constexpr OTF2_RegionRef region = 0;

    /* Closes the event writers, writes the definitions and closes the archive. */
    bool close();

private:
    void fail(const std::string &what, OTF2_ErrorCode rc);
    /* `counts`: events written per location, for the Location definitions. */
    bool write_definitions(const std::map<uint64_t, uint64_t> &counts);
    std::vector<uint64_t> all_locations() const;

    std::string dir_;
    std::string name_;
    Layout layout_;
    OTF2_Archive *archive_ = nullptr;
    std::map<uint64_t, OTF2_EvtWriter *> writers_;
    std::string error_;
};

} // namespace tessera::trace::synth

#endif
