/*
 * trace otf2: the clock of every record, common to the ranks of one host. Two sources, one choice per
 * job (every rank must count in the same unit):
 *   - the processor's time-stamp counter (rdtsc, a third of clock_gettime's cost: six reads per
 *     traced send-receive pair make the difference), when every rank's kernel uses it as its own
 *     clock source — the kernel checked that it is invariant and synchronized across the cores — and
 *     the processor says constant_tsc and nonstop_tsc; its rate is measured against CLOCK_MONOTONIC
 *     over the run;
 *   - CLOCK_MONOTONIC in nanoseconds otherwise, or when trace_otf2_clock says so.
 * Clocks of different hosts are not synchronized by either.
 */
#ifndef TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_CLOCK_H
#define TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_CLOCK_H

#include <cstdint>
#include <ctime>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TESSERA_TRACE_OTF2_HAVE_TSC 1
#else
#define TESSERA_TRACE_OTF2_HAVE_TSC 0
#endif

namespace tessera::ompi::trace_otf2 {

inline uint64_t monotonic_ns()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

class Clock {
public:
    /* Whether this process may count in time-stamp counter ticks (see above). */
    static bool tsc_usable();

    /* Starts counting, in ticks when use_tsc. */
    void start(bool use_tsc);

    uint64_t now() const
    {
#if TESSERA_TRACE_OTF2_HAVE_TSC
        if (tsc_) {
            return __rdtsc();
        }
#endif
        return monotonic_ns();
    }

    /* Ticks per second, measured from start() to now. */
    uint64_t resolution() const;
    /* Nanoseconds since the Unix epoch at tick `t`. */
    uint64_t realtime_of(uint64_t t) const;

private:
    bool tsc_ = false;
    uint64_t start_ticks_ = 0;
    uint64_t start_ns_ = 0;
};

} // namespace tessera::ompi::trace_otf2

#endif
