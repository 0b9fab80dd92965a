#include "components/trace/otf2/trace_otf2_clock.h"

#include <fstream>
#include <sstream>
#include <string>

namespace tessera::ompi::trace_otf2 {

bool Clock::tsc_usable()
{
#if TESSERA_TRACE_OTF2_HAVE_TSC
    std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    std::string name;
    if (!(source >> name) || name != "tsc") {
        return false;
    }
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("flags", 0) == 0) {
            std::istringstream words(line);
            bool constant = false, nonstop = false;
            for (std::string w; words >> w;) {
                constant = constant || w == "constant_tsc";
                nonstop = nonstop || w == "nonstop_tsc";
            }
            return constant && nonstop;
        }
    }
#endif
    return false;
}

void Clock::start(bool use_tsc)
{
    tsc_ = use_tsc && TESSERA_TRACE_OTF2_HAVE_TSC;
    start_ns_ = monotonic_ns();
    start_ticks_ = now();
}

uint64_t Clock::resolution() const
{
    if (!tsc_) {
        return 1000000000u;
    }
    const uint64_t ticks = now() - start_ticks_;
    const uint64_t ns = monotonic_ns() - start_ns_;
    return ns == 0 ? 1000000000u : static_cast<uint64_t>(static_cast<double>(ticks) * 1e9 / static_cast<double>(ns));
}

uint64_t Clock::realtime_of(uint64_t t) const
{
    timespec real{};
    clock_gettime(CLOCK_REALTIME, &real);
    const uint64_t real_now = static_cast<uint64_t>(real.tv_sec) * 1000000000u + static_cast<uint64_t>(real.tv_nsec);
    const uint64_t ticks_now = now();
    const double ago_ns = static_cast<double>(ticks_now - t) * 1e9 / static_cast<double>(resolution());
    return real_now - static_cast<uint64_t>(ago_ns);
}

} // namespace tessera::ompi::trace_otf2
