#include "otf2_archive_writer.h"

#include <filesystem>

namespace tessera::trace::synth {

namespace {

OTF2_FlushType pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool)
{
    return OTF2_FLUSH;
}

OTF2_TimeStamp post_flush(void *, OTF2_FileType, OTF2_LocationRef)
{
    return 0;
}

const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

/* Strings are definitions too: hand out refs in order. */
class Strings {
public:
    explicit Strings(OTF2_GlobalDefWriter *w) : w_(w) {}
    OTF2_StringRef operator()(const std::string &s)
    {
        OTF2_GlobalDefWriter_WriteString(w_, next_, s.c_str());
        return next_++;
    }

private:
    OTF2_GlobalDefWriter *w_;
    OTF2_StringRef next_ = 0;
};

} // namespace

ArchiveWriter::ArchiveWriter(const std::string &dir, const std::string &name, Layout layout)
    : dir_(dir), name_(name), layout_(std::move(layout))
{
    if (layout_.rank_locations.empty()) {
        for (uint32_t r = 0; r < layout_.ranks; ++r) {
            layout_.rank_locations.push_back(r);
        }
    }
    if (layout_.comms.empty()) {
        CommSpec world{0, "MPI_COMM_WORLD", CommSpec::Kind::Group, {}, {}};
        for (uint32_t r = 0; r < layout_.ranks; ++r) {
            world.members.push_back(r);
        }
        layout_.comms.push_back(world);
    }
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    archive_ = OTF2_Archive_Open(dir_.c_str(), name_.c_str(), OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
                                 OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (archive_ == nullptr) {
        error_ = "cannot create the archive " + anchor();
        return;
    }
    OTF2_Archive_SetFlushCallbacks(archive_, &flush_callbacks, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive_);
    OTF2_Archive_SetCreator(archive_, "tessera-trace synth");
    if (OTF2_ErrorCode rc = OTF2_Archive_OpenEvtFiles(archive_); rc != OTF2_SUCCESS) {
        fail("cannot open the event files", rc);
    }
}

ArchiveWriter::~ArchiveWriter()
{
    if (archive_ != nullptr) {
        close();
    }
}

void ArchiveWriter::fail(const std::string &what, OTF2_ErrorCode rc)
{
    if (error_.empty()) {
        error_ = what + ": " + OTF2_Error_GetDescription(rc);
    }
}

uint64_t ArchiveWriter::location(uint32_t rank) const
{
    return layout_.rank_locations.at(rank);
}

OTF2_EvtWriter *ArchiveWriter::events(uint64_t location)
{
    auto it = writers_.find(location);
    if (it != writers_.end()) {
        return it->second;
    }
    OTF2_EvtWriter *w = archive_ ? OTF2_Archive_GetEvtWriter(archive_, location) : nullptr;
    if (w == nullptr) {
        fail("cannot get the event writer of location " + std::to_string(location), OTF2_ERROR_INVALID);
        return nullptr;
    }
    writers_.emplace(location, w);
    return w;
}

bool ArchiveWriter::write_definitions(const std::map<uint64_t, uint64_t> &counts)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive_);
    if (g == nullptr) {
        fail("cannot get the global definition writer", OTF2_ERROR_INVALID);
        return false;
    }
    auto events_of = [&](uint64_t loc) {
        auto it = counts.find(loc);
        return it == counts.end() ? uint64_t{0} : it->second;
    };
    Strings str(g);
    OTF2_GlobalDefWriter_WriteClockProperties(g, layout_.resolution, layout_.offset, 0, OTF2_UNDEFINED_TIMESTAMP);
    OTF2_StringRef empty = str("");
    OTF2_StringRef node_name = str("localhost");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, node_name, str("node"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteRegion(g, region, str("MPI_Call"), empty, empty, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0);
    const uint32_t n = layout_.ranks;
    for (uint32_t r = 0; r < n; ++r) {
        OTF2_GlobalDefWriter_WriteLocationGroup(g, r, str("MPI Rank " + std::to_string(r)),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (size_t i = 0; i < layout_.outsiders.size(); ++i) {
        OTF2_GlobalDefWriter_WriteLocationGroup(g, n + i, str("process " + std::to_string(n + i)),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (uint32_t r = 0; r < n; ++r) {
        uint64_t loc = layout_.rank_locations[r];
        OTF2_GlobalDefWriter_WriteLocation(g, loc, str("Master thread"), OTF2_LOCATION_TYPE_CPU_THREAD, events_of(loc), r);
    }
    for (const auto &[loc, rank] : layout_.threads) {
        OTF2_GlobalDefWriter_WriteLocation(g, loc, str("thread"), OTF2_LOCATION_TYPE_CPU_THREAD, events_of(loc), rank);
    }
    for (size_t i = 0; i < layout_.outsiders.size(); ++i) {
        uint64_t loc = layout_.outsiders[i];
        OTF2_GlobalDefWriter_WriteLocation(g, loc, str("outsider"), OTF2_LOCATION_TYPE_CPU_THREAD, events_of(loc),
                                           n + i);
    }

    OTF2_GroupRef next_group = 0;
    const OTF2_GroupRef locations_group = next_group++;
    if (!layout_.without_mpi_locations) {
        OTF2_GlobalDefWriter_WriteGroup(g, locations_group, str("MPI_COMM_WORLD locations"),
                                        OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n,
                                        layout_.rank_locations.data());
    }
    OTF2_GroupRef self_group = OTF2_UNDEFINED_GROUP;
    auto comm_group = [&](const std::vector<uint64_t> &members, OTF2_GroupFlag flags) {
        OTF2_GroupRef ref = next_group++;
        OTF2_GlobalDefWriter_WriteGroup(g, ref, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, flags,
                                        static_cast<uint32_t>(members.size()), members.data());
        return ref;
    };
    for (const CommSpec &c : layout_.comms) {
        OTF2_StringRef name = str(c.name);
        switch (c.kind) {
        case CommSpec::Kind::Group:
        case CommSpec::Kind::GlobalMembers: {
            OTF2_GroupFlag flags =
                c.kind == CommSpec::Kind::GlobalMembers ? OTF2_GROUP_FLAG_GLOBAL_MEMBERS : OTF2_GROUP_FLAG_NONE;
            OTF2_GlobalDefWriter_WriteComm(g, c.ref, name, comm_group(c.members, flags), OTF2_UNDEFINED_COMM,
                                           OTF2_COMM_FLAG_NONE);
            break;
        }
        case CommSpec::Kind::Locations:
            OTF2_GlobalDefWriter_WriteComm(g, c.ref, name, locations_group, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
            break;
        case CommSpec::Kind::Self:
            if (self_group == OTF2_UNDEFINED_GROUP) {
                self_group = next_group++;
                OTF2_GlobalDefWriter_WriteGroup(g, self_group, empty, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                                OTF2_GROUP_FLAG_NONE, 0, nullptr);
            }
            OTF2_GlobalDefWriter_WriteComm(g, c.ref, name, self_group, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
            break;
        case CommSpec::Kind::Inter: {
            OTF2_GroupRef a = comm_group(c.members, OTF2_GROUP_FLAG_NONE);
            OTF2_GroupRef b = comm_group(c.members_b, OTF2_GROUP_FLAG_NONE);
            OTF2_GlobalDefWriter_WriteInterComm(g, c.ref, name, a, b, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
            break;
        }
        case CommSpec::Kind::Broken:
            OTF2_GlobalDefWriter_WriteComm(g, c.ref, name, 1000000, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
            break;
        }
    }
    OTF2_Archive_CloseGlobalDefWriter(archive_, g);
    return true;
}

bool ArchiveWriter::close()
{
    if (archive_ == nullptr) {
        return ok();
    }
    /* Every location gets its event file, even an empty one, as tracers write them. */
    for (uint64_t loc : all_locations()) {
        events(loc);
    }
    std::map<uint64_t, uint64_t> counts;
    for (const auto &[loc, w] : writers_) {
        OTF2_EvtWriter_GetNumberOfEvents(w, &counts[loc]);
        if (OTF2_ErrorCode rc = OTF2_Archive_CloseEvtWriter(archive_, w); rc != OTF2_SUCCESS) {
            fail("cannot close the event writer of location " + std::to_string(loc), rc);
        }
    }
    writers_.clear();
    OTF2_Archive_CloseEvtFiles(archive_);
    /* Empty local definition files: readers look for one per location. */
    if (OTF2_Archive_OpenDefFiles(archive_) == OTF2_SUCCESS) {
        for (uint64_t loc : all_locations()) {
            if (OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(archive_, loc); d != nullptr) {
                OTF2_Archive_CloseDefWriter(archive_, d);
            }
        }
        OTF2_Archive_CloseDefFiles(archive_);
    }
    write_definitions(counts);
    if (OTF2_ErrorCode rc = OTF2_Archive_Close(archive_); rc != OTF2_SUCCESS) {
        fail("cannot close the archive", rc);
    }
    archive_ = nullptr;
    return ok();
}

std::vector<uint64_t> ArchiveWriter::all_locations() const
{
    std::vector<uint64_t> all(layout_.rank_locations);
    for (const auto &[loc, rank] : layout_.threads) {
        all.push_back(loc);
    }
    all.insert(all.end(), layout_.outsiders.begin(), layout_.outsiders.end());
    return all;
}

} // namespace tessera::trace::synth
