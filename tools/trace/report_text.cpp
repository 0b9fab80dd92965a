#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

#include "report.h"
#include "time_format.h"

namespace tessera::trace {

namespace {

std::string format(const char *fmt, auto... args)
{
    std::string out(static_cast<size_t>(std::snprintf(nullptr, 0, fmt, args...)), '\0');
    std::snprintf(out.data(), out.size() + 1, fmt, args...);
    return out;
}

/* One table of `value(pair)` with right-aligned columns, zero where a pair did not communicate. */
template <class Value> std::string table(const TraceAnalysis &a, const char *title, Value value)
{
    const size_t n = a.procs();
    const std::vector<PairStats> pairs = a.stats().pairs(); /* by sender, then receiver */
    size_t width = std::to_string(n == 0 ? 0 : n - 1).size();
    for (const PairStats &p : pairs) {
        width = std::max(width, std::to_string(value(p)).size());
    }
    const int w = static_cast<int>(width);
    std::string out = std::string(title) + " (row: sender, column: receiver)\n" + std::string(width + 1, ' ');
    for (size_t r = 0; r < n; ++r) {
        out += format(" %*zu", w, r);
    }
    out += '\n';
    auto next = pairs.begin();
    for (size_t s = 0; s < n; ++s) {
        out += format("%*zu:", w, s);
        for (size_t r = 0; r < n; ++r) {
            uint64_t cell = 0;
            if (next != pairs.end() && next->sender == s && next->receiver == r) {
                cell = value(*next++);
            }
            out += format(" %*" PRIu64, w, cell);
        }
        out += '\n';
    }
    return out;
}

} // namespace

std::string text_summary(const TraceAnalysis &a)
{
    const Definitions &d = a.definitions();
    const RecordCounts &r = a.records();
    const MessageStats &s = a.stats();
    const Clock &clock = a.clock();
    std::string out = "archive " + a.archive() + "\n";
    out += format("processes %zu, locations %zu, communicators %zu, timer %" PRIu64 " ticks/s\n", a.procs(),
                  d.locations.size(), d.comms.size(), clock.resolution);
    out += format("events %" PRIu64 ": MpiSend %" PRIu64 ", MpiIsend %" PRIu64 ", MpiIsendComplete %" PRIu64
                  ", MpiIrecvRequest %" PRIu64 ", MpiIrecv %" PRIu64 ", MpiRecv %" PRIu64
                  ", MpiRequestCancelled %" PRIu64 ", other %" PRIu64 "\n",
                  a.events(), r.send, r.isend, r.isend_complete, r.irecv_request, r.irecv, r.recv, r.cancelled,
                  a.events() - r.total());
    out += format("messages %" PRIu64 ", %" PRIu64 " bytes sent", s.messages(), s.bytes_sent());
    if (s.messages() > 0) {
        out += ", first sent at " + time_text(s.first_send(), clock) + " s, last received at " +
               time_text(s.last_receive(), clock) + " s";
    }
    out += format("\nheld at most %zu operations for ordering and %zu unmatched sides\n", a.max_held(),
                  a.max_in_flight());
    const Warnings &w = a.warnings();
    if (w.total() == 0) {
        return out + "warnings: none\n";
    }
    out += format("warnings: %" PRIu64 " of %zu kind%s\n", w.total(), w.kinds_seen(), w.kinds_seen() == 1 ? "" : "s");
    for (size_t k = 0; k < warning_kind_count; ++k) {
        auto kind = static_cast<WarningKind>(k);
        if (w.count(kind) == 0) {
            continue;
        }
        out += format("  %s: %" PRIu64 " (%s)\n", warning_name(kind), w.count(kind), warning_meaning(kind));
        for (const std::string &e : w.examples(kind)) {
            out += "    " + e + "\n";
        }
        if (w.count(kind) > w.examples(kind).size()) {
            out += format("    ... and %" PRIu64 " more\n", w.count(kind) - w.examples(kind).size());
        }
    }
    return out;
}

std::string text_matrix(const TraceAnalysis &a)
{
    return table(a, "messages", [](const PairStats &p) { return p.messages; }) + "\n" +
           table(a, "bytes", [](const PairStats &p) { return p.bytes_sent; });
}

std::string text_pairs(const TraceAnalysis &a)
{
    const Clock &clock = a.clock();
    std::string out = format("%6s %8s %10s %14s %14s %14s %14s %14s %14s\n", "sender", "receiver", "messages",
                             "bytes_sent", "bytes_recvd", "latency_min_s", "latency_mean_s", "latency_max_s",
                             "bandwidth_MB/s");
    for (const PairStats &p : a.stats().pairs()) {
        std::optional<double> bw = p.bandwidth(clock);
        out += format("%6u %8u %10" PRIu64 " %14" PRIu64 " %14" PRIu64 " %14s %14.9f %14s %14s\n", p.sender,
                      p.receiver, p.messages, p.bytes_sent, p.bytes_received,
                      duration_text(p.latency_min, clock).c_str(), p.mean_latency() / clock.resolution,
                      duration_text(p.latency_max, clock).c_str(), bw ? format("%.3f", *bw / 1e6).c_str() : "-");
    }
    return out;
}

} // namespace tessera::trace
