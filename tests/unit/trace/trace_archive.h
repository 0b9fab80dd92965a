// Hand-built OTF2 archives for tessera-trace's tests: records are written per rank (or per location) in
// the order given, through the OTF2 writer API, and the tool is run on them in-process exactly as the
// executable runs (trace_main), capturing its standard output, standard error and CSV file.
#ifndef TESSERA_TESTS_UNIT_TRACE_TRACE_ARCHIVE_H
#define TESSERA_TESTS_UNIT_TRACE_TRACE_ARCHIVE_H

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "otf2_archive_writer.h"

namespace trace_test {

using tessera::trace::synth::CommSpec;
using tessera::trace::synth::Layout;

// A scratch directory removed at the end of the test.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

class TraceArchive {
public:
    explicit TraceArchive(Layout layout = Layout{});

    // Records on world rank `rank`'s location. Times in ticks (1 ns with the default layout).
    TraceArchive &send(uint32_t rank, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes, uint32_t comm = 0);
    TraceArchive &recv(uint32_t rank, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes, uint32_t comm = 0);
    TraceArchive &isend(uint32_t rank, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes, uint64_t request,
                        uint32_t comm = 0);
    TraceArchive &isend_complete(uint32_t rank, uint64_t t, uint64_t request);
    TraceArchive &irecv_request(uint32_t rank, uint64_t t, uint64_t request);
    TraceArchive &irecv(uint32_t rank, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes, uint64_t request,
                        uint32_t comm = 0);
    TraceArchive &cancelled(uint32_t rank, uint64_t t, uint64_t request);
    // A send on any location (a thread, a location outside MPI).
    TraceArchive &send_on(uint64_t location, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes,
                          uint32_t comm = 0);

    // Closes the archive (once) and returns its anchor file.
    std::string anchor();
    const std::string &dir() const { return dir_.path(); }

private:
    OTF2_EvtWriter *on(uint32_t rank);
    TempDir dir_;
    std::unique_ptr<tessera::trace::synth::ArchiveWriter> writer_;
    bool closed_ = false;
};

struct ToolRun {
    int status = -1;
    std::string out;
    std::string err;
    std::string csv; // the --csv file, when run_with_csv
};

// tessera-trace with `args` (the archive is among them).
ToolRun run_tool(const std::vector<std::string> &args);
// tessera-trace --csv FILE --json ARCHIVE, with the CSV file's contents in ToolRun::csv.
ToolRun run_with_csv(TraceArchive &archive, std::vector<std::string> extra = {"--json"});

// {"missing-receive": 2, ...} from a JSON report.
std::map<std::string, uint64_t> warning_counts(const nlohmann::json &report);

inline constexpr const char *csv_header =
    "sender,receiver,comm,tag,bytes_sent,bytes_received,send_time_s,recv_time_s,latency_s\n";

} // namespace trace_test

#endif
