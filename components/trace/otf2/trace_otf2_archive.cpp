#include "components/trace/otf2/trace_otf2_archive.h"

#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <system_error>
#include <vector>

#include "components/trace/otf2/trace_otf2.h"
#include "mca/constants.h"

namespace fs = std::filesystem;

namespace tessera::ompi::trace_otf2 {

namespace {

std::mutex error_mutex;
std::string last_error;

OTF2_ErrorCode keep_error(void *, const char *, uint64_t, const char *, OTF2_ErrorCode code, const char *format,
                          va_list va)
{
    char text[512];
    std::vsnprintf(text, sizeof text, format, va);
    std::lock_guard lock(error_mutex);
    last_error = std::string(OTF2_Error_GetName(code)) + ": " + text;
    return code;
}

std::string describe(OTF2_ErrorCode rc)
{
    std::string otf2 = Archive::last_otf2_error();
    return otf2.empty() ? std::string(OTF2_Error_GetDescription(rc)) : otf2;
}

/* The files an OTF2 archive named kArchiveName keeps in its per-location directory. */
bool archive_file(const fs::path &p)
{
    const std::string ext = p.extension().string();
    return ext == ".evt" || ext == ".def" || ext == ".snap" || ext == ".thumb" || ext == ".marker";
}

/* Rank 0, before OTF2 creates the layout (it refuses to overwrite): the directory exists and is
 * writable, and an archive of an earlier run in it is gone. */
bool prepare_dir(const std::string &dir, std::string *why)
{
    std::error_code ec;
    const fs::path root(dir);
    fs::create_directories(root, ec);
    if (ec || !fs::is_directory(fs::status(root, ec))) {
        *why = "cannot create the directory: " + (ec ? ec.message() : std::string("it exists and is not a directory"));
        return false;
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        *why = std::string("the directory is not writable: ") + std::strerror(errno);
        return false;
    }
    auto gone = [why](const fs::path &p) {
        std::error_code rm;
        if (!fs::remove(p, rm) && rm && rm != std::errc::no_such_file_or_directory) {
            *why = "cannot remove '" + p.string() + "' of an earlier archive: " + rm.message();
            return false;
        }
        return true;
    };
    const fs::path locations = root / kArchiveName;
    if (!gone(root / (std::string(kArchiveName) + ".otf2")) || !gone(root / (std::string(kArchiveName) + ".def"))) {
        return false;
    }
    const fs::file_status st = fs::symlink_status(locations, ec);
    if (st.type() == fs::file_type::not_found) {
        return true;
    }
    if (st.type() != fs::file_type::directory) {
        *why = "'" + locations.string() + "' is in the way of the archive's directory: not replacing it";
        return false;
    }
    for (const fs::directory_entry &e : fs::directory_iterator(locations, ec)) {
        if (!e.is_regular_file() || !archive_file(e.path())) {
            *why = "'" + locations.string() + "' holds " + e.path().filename().string() +
                   ", which is not part of an OTF2 archive: not replacing it";
            return false;
        }
        if (!gone(e.path())) {
            return false;
        }
    }
    return !ec && gone(locations);
}

/* What the ranks agree on before OTF2 starts: rank 0's verdict on the directory, and whether every
 * rank can count in time-stamp counter ticks. */
struct Agreement {
    bool ok = false;
    bool tsc = false;
};

Agreement agree(const mca_trace_base_job_info_t &job, bool prepared, bool tsc)
{
    const unsigned char mine[2] = {static_cast<unsigned char>(prepared), static_cast<unsigned char>(tsc)};
    if (job.allgather == nullptr) {
        return {prepared && job.world_size == 1, tsc};
    }
    struct Votes {
        bool root_ok = false;
        bool all_tsc = true;
        int count = 0;
    } votes;
    auto deliver = [](void *ctx, int rank, const void *data, size_t size) {
        auto *v = static_cast<Votes *>(ctx);
        const auto *b = static_cast<const unsigned char *>(data);
        ++v->count;
        if (size != 2) {
            v->all_tsc = false;
            return;
        }
        if (rank == 0) {
            v->root_ok = b[0] != 0;
        }
        v->all_tsc = v->all_tsc && b[1] != 0;
    };
    if (job.allgather(mine, sizeof mine, deliver, &votes) != TESSERA_SUCCESS || votes.count != job.world_size) {
        return {};
    }
    return {votes.root_ok, votes.all_tsc};
}

/* The chunks of one OTF2 buffer. */
struct Chunks {
    std::vector<void *> list;
};

} // namespace

std::string Archive::last_otf2_error()
{
    std::lock_guard lock(error_mutex);
    return last_error;
}

OTF2_FlushType Archive::pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool)
{
    return OTF2_FLUSH;
}

OTF2_TimeStamp Archive::post_flush(void *self, OTF2_FileType, OTF2_LocationRef)
{
    auto *a = static_cast<Archive *>(self);
    a->last_flush_ = a->encoding_time_ != 0 ? a->encoding_time_ : a->clock_.now();
    return a->last_flush_;
}

void *Archive::allocate(void *self, OTF2_FileType type, OTF2_LocationRef, void **per_buffer, uint64_t size)
{
    auto *a = static_cast<Archive *>(self);
    if (*per_buffer == nullptr) {
        *per_buffer = std::make_unique<Chunks>().release(); /* owned by OTF2's buffer until free_all(final) */
    }
    auto *chunks = static_cast<Chunks *>(*per_buffer);
    /* Events stop at the budget: OTF2 then writes the buffer out and starts again (pre_flush). */
    if (type == OTF2_FILETYPE_EVENTS && (chunks->list.size() + 1) * size > a->buffer_size_ && !chunks->list.empty()) {
        return nullptr;
    }
    void *chunk = std::malloc(size);
    if (chunk != nullptr) {
        chunks->list.push_back(chunk);
    }
    return chunk;
}

void Archive::free_all(void *, OTF2_FileType, OTF2_LocationRef, void **per_buffer, bool final)
{
    auto *chunks = static_cast<Chunks *>(*per_buffer);
    if (chunks == nullptr) {
        return;
    }
    for (void *c : chunks->list) {
        std::free(c);
    }
    chunks->list.clear();
    if (final) {
        std::unique_ptr<Chunks> owned(chunks);
        *per_buffer = nullptr;
    }
}

bool Archive::open(const mca_trace_base_job_info_t &job, const std::string &dir, size_t buffer_size,
                   bool monotonic_only, std::string *why)
{
    static const OTF2_FlushCallbacks flush = {pre_flush, post_flush};
    static const OTF2_MemoryCallbacks memory = {allocate, free_all};
    job_ = job;
    context_.job = &job_;
    buffer_size_ = buffer_size;
    /* Four chunks at least, each within OTF2's 256k..1M sweet spot. */
    chunk_size_ = std::min<size_t>(size_t{1} << 20, std::max<size_t>(size_t{256} << 10, buffer_size / 4));
    previous_error_callback_ = OTF2_Error_RegisterCallback(keep_error, nullptr);
    error_callback_set_ = true;
    {
        std::lock_guard lock(error_mutex);
        last_error.clear();
    }

    const bool prepared = job.world_rank != 0 || prepare_dir(dir, why);
    const Agreement agreed = agree(job, prepared, !monotonic_only && Clock::tsc_usable());
    if (!agreed.ok) {
        if (prepared && job.world_rank == 0) {
            *why = "the ranks could not agree on the archive (the exchange between them failed)";
        }
        return false;
    }
    clock_.start(agreed.tsc);
    archive_ = OTF2_Archive_Open(dir.c_str(), kArchiveName, OTF2_FILEMODE_WRITE, chunk_size_,
                                 OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (archive_ == nullptr) {
        /* Nothing collective happened yet, and this fails alike everywhere (memory, arguments). */
        *why = describe(OTF2_ERROR_MEM_FAULT);
        return false;
    }
    (void)OTF2_Archive_SetFlushCallbacks(archive_, &flush, this);
    (void)OTF2_Archive_SetMemoryCallbacks(archive_, &memory, this);
    (void)OTF2_Archive_SetCreator(archive_, "Tessera MPI (trace otf2)");
    if (job.hostname != nullptr) {
        (void)OTF2_Archive_SetMachineName(archive_, job.hostname);
    }
    /* Collective: rank 0 creates the layout and every rank learns the outcome. */
    if (OTF2_ErrorCode rc = OTF2_Archive_SetCollectiveCallbacks(archive_, collective_callbacks(), nullptr, &context_,
                                                                nullptr);
        rc != OTF2_SUCCESS) {
        *why = describe(rc);
        OTF2_Archive_Close(archive_);
        archive_ = nullptr;
        return false;
    }
    /* From here on a failure is this rank's alone: it keeps taking part in the collective steps. */
    if (OTF2_Archive_OpenEvtFiles(archive_) == OTF2_SUCCESS) {
        events_ = OTF2_Archive_GetEvtWriter(archive_, static_cast<OTF2_LocationRef>(job.world_rank));
    }
    return true;
}

bool Archive::close_events(uint64_t *count, std::string *why)
{
    *count = 0;
    if (archive_ == nullptr) {
        return false;
    }
    bool ok = events_ != nullptr;
    if (events_ != nullptr) {
        (void)OTF2_EvtWriter_GetNumberOfEvents(events_, count);
        if (OTF2_ErrorCode rc = OTF2_Archive_CloseEvtWriter(archive_, events_); rc != OTF2_SUCCESS) {
            ok = false;
            *why = describe(rc);
        }
        events_ = nullptr;
    } else {
        *why = "no event writer: " + describe(OTF2_ERROR_INVALID);
    }
    if (OTF2_ErrorCode rc = OTF2_Archive_CloseEvtFiles(archive_); rc != OTF2_SUCCESS && ok) {
        ok = false;
        *why = describe(rc);
    }
    return ok;
}

bool Archive::write_local_defs(const std::map<uint64_t, uint32_t> &comms, const std::map<uint32_t, uint32_t> &regions,
                               uint64_t max_comm_id, std::string *why)
{
    if (archive_ == nullptr) {
        return false;
    }
    OTF2_ErrorCode rc = OTF2_Archive_OpenDefFiles(archive_);
    OTF2_DefWriter *w = rc == OTF2_SUCCESS
                            ? OTF2_Archive_GetDefWriter(archive_, static_cast<OTF2_LocationRef>(job_.world_rank))
                            : nullptr;
    if (w != nullptr) {
        OTF2_IdMap *comm_map = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, max_comm_id + 1);
        for (uint64_t id = 0; id <= max_comm_id; ++id) {
            auto it = comms.find(id);
            (void)OTF2_IdMap_AddIdPair(comm_map, id, it != comms.end() ? it->second : OTF2_UNDEFINED_COMM);
        }
        OTF2_IdMap *region_map = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, regions.size() + 1);
        for (const auto &[local, global] : regions) {
            (void)OTF2_IdMap_AddIdPair(region_map, local, global);
        }
        rc = OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_COMM, comm_map);
        if (rc == OTF2_SUCCESS && !regions.empty()) {
            rc = OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_REGION, region_map);
        }
        OTF2_IdMap_Free(comm_map);
        OTF2_IdMap_Free(region_map);
        if (OTF2_ErrorCode closed = OTF2_Archive_CloseDefWriter(archive_, w); rc == OTF2_SUCCESS) {
            rc = closed;
        }
    } else if (rc == OTF2_SUCCESS) {
        rc = OTF2_ERROR_INVALID;
    }
    if (OTF2_ErrorCode closed = OTF2_Archive_CloseDefFiles(archive_); rc == OTF2_SUCCESS) {
        rc = closed;
    }
    if (rc != OTF2_SUCCESS) {
        *why = describe(rc);
        return false;
    }
    return true;
}

OTF2_GlobalDefWriter *Archive::global_defs()
{
    return archive_ != nullptr ? OTF2_Archive_GetGlobalDefWriter(archive_) : nullptr;
}

bool Archive::close(std::string *why)
{
    if (archive_ == nullptr) {
        return false;
    }
    OTF2_ErrorCode rc = OTF2_Archive_Close(archive_);
    archive_ = nullptr;
    if (rc != OTF2_SUCCESS) {
        *why = describe(rc);
        return false;
    }
    return true;
}

Archive::~Archive()
{
    if (archive_ != nullptr) {
        OTF2_Archive_Close(archive_);
    }
    if (error_callback_set_) {
        OTF2_Error_RegisterCallback(previous_error_callback_, nullptr);
    }
}

} // namespace tessera::ompi::trace_otf2
