#include "report.h"
#include "time_format.h"

namespace tessera::trace {

namespace {

using json = nlohmann::ordered_json;

json summary(const TraceAnalysis &a)
{
    const RecordCounts &r = a.records();
    const MessageStats &s = a.stats();
    const Clock &clock = a.clock();
    json out = {
        {"processes", a.procs()},
        {"locations", a.definitions().locations.size()},
        {"communicators", a.definitions().comms.size()},
        {"timer_resolution", clock.resolution},
        {"events", a.events()},
        {"records",
         {{"MpiSend", r.send},
          {"MpiIsend", r.isend},
          {"MpiIsendComplete", r.isend_complete},
          {"MpiIrecvRequest", r.irecv_request},
          {"MpiIrecv", r.irecv},
          {"MpiRecv", r.recv},
          {"MpiRequestCancelled", r.cancelled},
          {"other", a.events() - r.total()}}},
        {"messages", s.messages()},
        {"bytes_sent", s.bytes_sent()},
        {"first_send", nullptr},
        {"last_receive", nullptr},
        {"max_held", a.max_held()},
        {"max_unmatched", a.max_in_flight()},
    };
    if (s.messages() > 0) {
        out["first_send"] = to_seconds(since_offset(s.first_send(), clock), clock);
        out["last_receive"] = to_seconds(since_offset(s.last_receive(), clock), clock);
    }
    return out;
}

json warnings(const Warnings &w)
{
    json kinds = json::object();
    for (size_t k = 0; k < warning_kind_count; ++k) {
        auto kind = static_cast<WarningKind>(k);
        if (w.count(kind) > 0) {
            kinds[warning_name(kind)] = {
                {"count", w.count(kind)}, {"meaning", warning_meaning(kind)}, {"examples", w.examples(kind)}};
        }
    }
    return {{"total", w.total()}, {"kinds", kinds}};
}

json matrix(const TraceAnalysis &a)
{
    const size_t n = a.procs();
    json messages = json::array();
    json bytes = json::array();
    const std::vector<PairStats> pairs = a.stats().pairs();
    auto next = pairs.begin();
    for (size_t s = 0; s < n; ++s) {
        std::vector<uint64_t> m(n, 0);
        std::vector<uint64_t> b(n, 0);
        for (; next != pairs.end() && next->sender == s; ++next) {
            m[next->receiver] = next->messages;
            b[next->receiver] = next->bytes_sent;
        }
        messages.push_back(m);
        bytes.push_back(b);
    }
    return {{"processes", n}, {"messages", messages}, {"bytes", bytes}};
}

/* What the "comm" numbers of the message list and the warnings stand for. */
json communicators(const Definitions &d)
{
    json out = json::array();
    for (const auto &[ref, c] : d.comms) {
        out.push_back({{"id", ref}, {"name", c.name}, {"inter", c.inter}});
    }
    return out;
}

json pairs(const TraceAnalysis &a)
{
    const Clock &clock = a.clock();
    json out = json::array();
    for (const PairStats &p : a.stats().pairs()) {
        std::optional<double> bw = p.bandwidth(clock);
        out.push_back({{"sender", p.sender},
                       {"receiver", p.receiver},
                       {"messages", p.messages},
                       {"bytes_sent", p.bytes_sent},
                       {"bytes_received", p.bytes_received},
                       {"latency_min", to_seconds(p.latency_min, clock)},
                       {"latency_mean", p.mean_latency() / static_cast<double>(clock.resolution)},
                       {"latency_max", to_seconds(p.latency_max, clock)},
                       {"bandwidth", bw ? json(*bw) : json(nullptr)}});
    }
    return out;
}

} // namespace

nlohmann::ordered_json json_report(const TraceAnalysis &a)
{
    return {{"archive", a.archive()},
            {"summary", summary(a)},
            {"communicators", communicators(a.definitions())},
            {"warnings", warnings(a.warnings())},
            {"matrix", matrix(a)},
            {"pairs", pairs(a)}};
}

} // namespace tessera::trace
