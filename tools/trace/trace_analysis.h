/*
 * The whole analysis of one archive: definitions and rank tables first (so that writers can learn the
 * clock), then one streaming pass over the events through router -> request order -> matcher ->
 * message sinks, then the end-of-trace settling that turns what is left into warnings.
 */
#ifndef TESSERA_TOOLS_TRACE_TRACE_ANALYSIS_H
#define TESSERA_TOOLS_TRACE_TRACE_ANALYSIS_H

#include <memory>
#include <string>
#include <vector>

#include "archive_reader.h"
#include "definitions.h"
#include "message_stats.h"
#include "rank_map.h"
#include "record_router.h"
#include "warnings.h"

namespace tessera::trace {

class TraceAnalysis {
public:
    explicit TraceAnalysis(size_t examples_per_warning = 3);

    /* Opens the archive and reads its definitions; false and `error` if it cannot be read. */
    bool open(const std::string &anchor_path, std::string &error);
    /* Valid after open(). */
    const Clock &clock() const { return defs_.clock; }
    const Definitions &definitions() const { return defs_; }
    size_t procs() const { return ranks_ ? ranks_->procs() : 0; }

    /* Another receiver of every matched message (besides the statistics); call before run(). */
    void add_sink(MessageSink &sink) { sinks_.push_back(&sink); }
    /* Reads every event and settles the end of the trace. */
    bool run(std::string &error);

    const std::string &archive() const { return archive_; }
    uint64_t events() const { return events_; }
    const RecordCounts &records() const { return records_; }
    const MessageStats &stats() const { return stats_; }
    const Warnings &warnings() const { return warnings_; }
    /* The most operations held back for ordering, and the most unmatched sides, at any one time. */
    size_t max_held() const { return max_held_; }
    size_t max_in_flight() const { return max_in_flight_; }

private:
    std::string archive_;
    std::unique_ptr<ArchiveReader> reader_;
    Definitions defs_;
    Warnings warnings_;
    std::unique_ptr<RankMap> ranks_;
    MessageStats stats_;
    std::vector<MessageSink *> sinks_;
    uint64_t events_ = 0;
    RecordCounts records_;
    size_t max_held_ = 0;
    size_t max_in_flight_ = 0;
};

} // namespace tessera::trace

#endif
