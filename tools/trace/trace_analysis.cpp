#include "trace_analysis.h"

#include "matcher.h"
#include "request_order.h"

namespace tessera::trace {

namespace {

/* The statistics and every extra sink see each message. */
class Fanout : public MessageSink {
public:
    explicit Fanout(std::vector<MessageSink *> sinks) : sinks_(std::move(sinks)) {}
    void message(const Message &m) override
    {
        for (MessageSink *s : sinks_) {
            s->message(m);
        }
    }

private:
    std::vector<MessageSink *> sinks_;
};

} // namespace

TraceAnalysis::TraceAnalysis(size_t examples_per_warning) : warnings_(examples_per_warning) {}

bool TraceAnalysis::open(const std::string &anchor_path, std::string &error)
{
    archive_ = anchor_path;
    reader_ = ArchiveReader::open(anchor_path, error);
    if (!reader_ || !reader_->read_definitions(defs_, error)) {
        reader_.reset();
        return false;
    }
    ranks_ = std::make_unique<RankMap>(defs_, warnings_);
    return true;
}

bool TraceAnalysis::run(std::string &error)
{
    std::vector<MessageSink *> sinks{&stats_};
    sinks.insert(sinks.end(), sinks_.begin(), sinks_.end());
    Fanout fanout(std::move(sinks));
    Matcher matcher(fanout, warnings_, defs_.clock);
    RequestOrder order(ranks_->procs(), matcher, warnings_, defs_.clock);
    RecordRouter router(*ranks_, order, warnings_, defs_.clock);
    bool ok = reader_->read_events(router, events_, error);
    /* A damaged archive still gets its reports, for the part that could be read. */
    order.finish();
    matcher.finish();
    records_ = router.counts();
    max_held_ = order.max_held();
    max_in_flight_ = matcher.max_in_flight();
    reader_.reset();
    return ok;
}

} // namespace tessera::trace
