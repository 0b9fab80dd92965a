/*
 * trace otf2: one rank's handle on the job's archive <trace_otf2_dir>/traces.otf2. Opening is
 * collective: rank 0 prepares the directory (creating it, replacing an earlier archive) and tells the
 * others whether it could; then OTF2 (over the collective callbacks) creates the archive's layout.
 * Either step failing fails at every rank alike, so that all ranks trace or none does. Events go to
 * OTF2's buffers (from the hooks' records, encode), which are written to <rank>.evt when
 * trace_otf2_buffer_size is used up and at close.
 * OTF2's own error messages are kept (not printed) for the reports of this component.
 */
#ifndef TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_ARCHIVE_H
#define TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_ARCHIVE_H

#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <string>

#include "components/trace/otf2/trace_otf2_clock.h"
#include "components/trace/otf2/trace_otf2_collectives.h"
#include "components/trace/otf2/trace_otf2_raw.h"
#include "frameworks/trace/trace.h"

namespace tessera::ompi::trace_otf2 {

class Archive {
public:
    Archive() = default;
    Archive(const Archive &) = delete;
    Archive &operator=(const Archive &) = delete;
    ~Archive();

    /* Collective. False at every rank when the archive cannot be written; *why says why at rank 0.
     * The ranks also agree on the clock (trace_otf2_clock.h; monotonic_only: the parameter says so). */
    bool open(const mca_trace_base_job_info_t &job, const std::string &dir, size_t buffer_size, bool monotonic_only,
              std::string *why);
    /* The clock every record of the job is stamped with. */
    const Clock &clock() const { return clock_; }

    /* This rank's event writer (NULL when the archive is not open). */
    OTF2_EvtWriter *events() const { return events_; }
    /* The time of the last buffer flush, to keep the clock range of the rank's records. */
    uint64_t last_flush() const { return last_flush_; }

    /* Turns the hooks' records into this rank's OTF2 events (nothing when the stream is broken). A flush
     * of OTF2's buffers to the file meanwhile is stamped with the time of the record being written, so
     * that the stream's times stay in order. */
    void encode(RawBuffer &raw)
    {
        raw.encode(events_, &encoding_time_);
        encoding_time_ = 0;
    }

    /* Writes this rank's remaining events; false (with *why) when its file could not be written. */
    bool close_events(uint64_t *count, std::string *why);
    /* This rank's definitions file: the mapping of its communicator and region ids to global ones
     * (ids missing from comms map to OTF2_UNDEFINED_COMM). */
    bool write_local_defs(const std::map<uint64_t, uint32_t> &comms, const std::map<uint32_t, uint32_t> &regions,
                          uint64_t max_comm_id, std::string *why);
    /* Rank 0 only: the global definitions writer. */
    OTF2_GlobalDefWriter *global_defs();
    /* Finishes the archive (rank 0 writes the anchor file); false with *why on failure. */
    bool close(std::string *why);

    /* OTF2's last error message since the archive opened. */
    static std::string last_otf2_error();

private:
    mca_trace_base_job_info_t job_{};
    OTF2_CollectiveContext context_{};
    Clock clock_;
    OTF2_Archive *archive_ = nullptr;
    OTF2_EvtWriter *events_ = nullptr;
    uint64_t last_flush_ = 0;
    uint64_t encoding_time_ = 0; /* while encoding: the time of the record being written */
    size_t buffer_size_ = 0;
    size_t chunk_size_ = 0;
    OTF2_ErrorCallback previous_error_callback_ = nullptr;
    bool error_callback_set_ = false;

    static OTF2_FlushType pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool);
    static OTF2_TimeStamp post_flush(void *self, OTF2_FileType, OTF2_LocationRef);
    static void *allocate(void *self, OTF2_FileType type, OTF2_LocationRef, void **chunks, uint64_t size);
    static void free_all(void *self, OTF2_FileType, OTF2_LocationRef, void **chunks, bool final);
};

} // namespace tessera::ompi::trace_otf2

#endif
