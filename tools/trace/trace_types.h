/* The values that flow through tessera-trace: one side of a message, a matched message, the clock. */
#ifndef TESSERA_TOOLS_TRACE_TYPES_H
#define TESSERA_TOOLS_TRACE_TYPES_H

#include <cstdint>
#include <limits>

namespace tessera::trace {

/*
 * A process, named by its index in the MPI paradigm's OTF2_GROUP_TYPE_COMM_LOCATIONS group, which is
 * its rank in MPI_COMM_WORLD. Every location (thread) of a process maps to the same Proc.
 */
using Proc = uint32_t;
inline constexpr Proc no_proc = std::numeric_limits<Proc>::max();

/* OTF2 timestamps, in ticks of the archive's timer. */
using Ticks = uint64_t;

/*
 * One side of a message once ranks are global: what a send or a receive record says, with its time
 * (a send at its Isend, a receive at its completion: seeds/otf2-message-matching.txt, "Wrap Up").
 */
struct Transfer {
    Proc sender = no_proc;
    Proc receiver = no_proc;
    uint32_t comm = 0;
    uint32_t tag = 0;
    uint64_t bytes = 0;
    Ticks time = 0;
};

/* A send and the receive it matched. */
struct Message {
    Proc sender = no_proc;
    Proc receiver = no_proc;
    uint32_t comm = 0;
    uint32_t tag = 0;
    uint64_t bytes_sent = 0;
    uint64_t bytes_received = 0;
    Ticks send_time = 0;
    Ticks recv_time = 0;

    /* Signed: clocks of different processes may put the receive before the send. */
    int64_t latency() const { return static_cast<int64_t>(recv_time - send_time); }
};

/* The archive's ClockProperties: ticks per second and the tick of time zero (without them: ticks). */
struct Clock {
    uint64_t resolution = 1;
    Ticks offset = 0;
};

/* Where matched messages go (statistics, the CSV file, the JSON list). */
class MessageSink {
public:
    virtual ~MessageSink() = default;
    virtual void message(const Message &m) = 0;
};

} // namespace tessera::trace

#endif
