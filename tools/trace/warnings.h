/*
 * The condensed warning summary (seeds/otf2-message-matching.txt: "Print out a condensed version of
 * the above warnings"): a count per kind and the first few examples. Nothing here stops the analysis;
 * MPI libraries and tracers are less strict than the standard, so a trace with oddities still gets
 * every report.
 */
#ifndef TESSERA_TOOLS_TRACE_WARNINGS_H
#define TESSERA_TOOLS_TRACE_WARNINGS_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::trace {

enum class WarningKind : uint8_t {
    MissingReceive,        /* a send no receive matched by the end of the trace */
    ReceiveWithoutSend,    /* a receive no send matched */
    NonPositiveDuration,   /* received at or before the time it was sent */
    SendLargerThanReceive, /* more bytes sent than the receive took */
    UnknownCommunicator,   /* a record names a communicator the definitions do not have */
    UnusableCommunicator,  /* a communicator whose group gives no rank-to-process map */
    RankOutOfRange,        /* a peer rank beyond the communicator's size */
    NotInCommunicator,     /* a process outside both groups of the inter-communicator it uses */
    UnknownLocation,       /* a record on a location that is no MPI process */
    IsendNeverCompleted,   /* an Isend with neither completion nor cancel: counted as sent */
    IrecvNeverCompleted,   /* an Irecv request never completed: nothing known about its message */
    CompletionWithoutIsend,  /* an IsendComplete whose request was never an Isend */
    IrecvWithoutRequest,     /* an Irecv completion without its IrecvRequest: taken as a receive */
    DuplicateRequest,        /* a request id started again while still pending */
    NoMpiLocations,          /* no MPI COMM_LOCATIONS group: ranks cannot be mapped */
};
inline constexpr size_t warning_kind_count = static_cast<size_t>(WarningKind::NoMpiLocations) + 1;

/* "missing-receive": the kind's name in the text and JSON reports. */
const char *warning_name(WarningKind kind);
/* "sends never received": what it means, for the text report. */
const char *warning_meaning(WarningKind kind);

class Warnings {
public:
    explicit Warnings(size_t examples_per_kind = 3) : examples_per_kind_(examples_per_kind) {}

    /* Counts one; `describe()` is called only while the kind still wants examples, so cheap. */
    template <class Describe> void add(WarningKind kind, Describe &&describe)
    {
        Entry &e = entries_[static_cast<size_t>(kind)];
        if (e.examples.size() < examples_per_kind_) {
            e.examples.push_back(describe());
        }
        ++e.count;
    }

    uint64_t count(WarningKind kind) const { return entries_[static_cast<size_t>(kind)].count; }
    const std::vector<std::string> &examples(WarningKind kind) const
    {
        return entries_[static_cast<size_t>(kind)].examples;
    }
    uint64_t total() const;
    size_t kinds_seen() const;

private:
    struct Entry {
        uint64_t count = 0;
        std::vector<std::string> examples;
    };
    size_t examples_per_kind_;
    std::array<Entry, warning_kind_count> entries_;
};

} // namespace tessera::trace

#endif
