#include "time_format.h"

#include <charconv>

namespace tessera::trace {

char *format_seconds(int64_t ticks, uint64_t resolution, char *out)
{
    if (resolution == 0) {
        resolution = 1;
    }
    /* Through the magnitude, so INT64_MIN and the sign of "-0.5" come out right. */
    uint64_t magnitude = ticks < 0 ? 0 - static_cast<uint64_t>(ticks) : static_cast<uint64_t>(ticks);
    if (ticks < 0) {
        *out++ = '-';
    }
    uint64_t whole = magnitude / resolution;
    auto nanos = static_cast<uint64_t>(static_cast<unsigned __int128>(magnitude % resolution) *
                                       1000000000u / resolution);
    out = std::to_chars(out, out + 20, whole).ptr;
    *out++ = '.';
    for (uint64_t div = 100000000; div > 0; div /= 10) {
        *out++ = static_cast<char>('0' + nanos / div % 10);
    }
    return out;
}

std::string duration_text(int64_t ticks, const Clock &clock)
{
    char buf[seconds_chars];
    return std::string(buf, format_seconds(ticks, clock.resolution, buf));
}

std::string time_text(Ticks t, const Clock &clock)
{
    return duration_text(since_offset(t, clock), clock);
}

} // namespace tessera::trace
