#include "warnings.h"

namespace tessera::trace {

namespace {

struct KindText {
    const char *name;
    const char *meaning;
};

/* In WarningKind's order. */
constexpr std::array<KindText, warning_kind_count> kind_texts = {{
    {"missing-receive", "sends never received"},
    {"receive-without-send", "receives no send matched"},
    {"non-positive-duration", "messages received no later than sent (clocks differ?)"},
    {"send-larger-than-receive", "sends of more bytes than their receive took"},
    {"unknown-communicator", "records naming a communicator not defined"},
    {"unusable-communicator", "records on a communicator whose group maps no ranks"},
    {"rank-out-of-range", "peer ranks beyond the communicator's size"},
    {"not-in-communicator", "processes outside both groups of an inter-communicator they use"},
    {"unknown-location", "records on locations that are no MPI process"},
    {"isend-never-completed", "Isends neither completed nor cancelled (counted as sent)"},
    {"irecv-never-completed", "Irecv requests never completed (dropped)"},
    {"completion-without-isend", "IsendComplete records without their Isend"},
    {"irecv-without-request", "Irecv completions without their IrecvRequest (taken as receives)"},
    {"duplicate-request", "request ids started again while still pending"},
    {"no-mpi-locations", "no MPI COMM_LOCATIONS group: ranks cannot be mapped to locations"},
}};

} // namespace

const char *warning_name(WarningKind kind)
{
    return kind_texts[static_cast<size_t>(kind)].name;
}

const char *warning_meaning(WarningKind kind)
{
    return kind_texts[static_cast<size_t>(kind)].meaning;
}

uint64_t Warnings::total() const
{
    uint64_t n = 0;
    for (const Entry &e : entries_) {
        n += e.count;
    }
    return n;
}

size_t Warnings::kinds_seen() const
{
    size_t n = 0;
    for (const Entry &e : entries_) {
        n += e.count > 0 ? 1 : 0;
    }
    return n;
}

} // namespace tessera::trace
