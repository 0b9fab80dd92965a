/*
 * A synthetic trace of known content for throughput runs: ranks in a ring, each round every rank sends
 * to the next and receives from the previous, in turn with blocking calls, Isend/Irecv completed by a
 * wait, an Isend around a blocking receive, and two tagged Isend/Irecv pairs completed in reverse
 * order; every other round on a communicator whose ranks are the world's reversed. Enter/Leave records
 * around each call make it look like a tracer's output. Every send is received later than it is sent,
 * so the analysis must find exactly `messages` messages and no warning.
 */
#ifndef TESSERA_TOOLS_TRACE_SYNTH_SYNTHETIC_TRAFFIC_H
#define TESSERA_TOOLS_TRACE_SYNTH_SYNTHETIC_TRAFFIC_H

#include <cstdint>
#include <string>

namespace tessera::trace::synth {

struct TrafficSpec {
    uint32_t ranks = 8;
    uint64_t events = 1000000; /* at least this many records in all (whole rounds) */
    bool regions = true;       /* Enter/Leave around each MPI call */
};

struct TrafficResult {
    uint64_t events = 0;
    uint64_t messages = 0;
    uint64_t bytes = 0;
    uint64_t rounds = 0;
};

/* Writes `dir`/traces.otf2; false and `error` on failure. */
bool write_synthetic_traffic(const std::string &dir, const TrafficSpec &spec, TrafficResult &result,
                             std::string &error);

} // namespace tessera::trace::synth

#endif
