/* Ticks as seconds with nanosecond digits, exact for the usual timer resolutions (1e9, 1e6 ticks/s). */
#ifndef TESSERA_TOOLS_TRACE_TIME_FORMAT_H
#define TESSERA_TOOLS_TRACE_TIME_FORMAT_H

#include <cstdint>
#include <string>

#include "trace_types.h"

namespace tessera::trace {

/* Room format_seconds needs: sign, 20 digits, point, 9 digits. */
inline constexpr int seconds_chars = 32;

/* Writes `ticks` / `resolution` as "[-]S.NNNNNNNNN" at `out` (no terminator); returns the end. */
char *format_seconds(int64_t ticks, uint64_t resolution, char *out);

/* A timestamp relative to the clock's offset, in seconds. */
std::string time_text(Ticks t, const Clock &clock);
/* A duration in seconds. */
std::string duration_text(int64_t ticks, const Clock &clock);

/* Seconds as a double, for statistics. */
inline double to_seconds(int64_t ticks, const Clock &clock)
{
    return static_cast<double>(ticks) / static_cast<double>(clock.resolution);
}

inline int64_t since_offset(Ticks t, const Clock &clock)
{
    return static_cast<int64_t>(t - clock.offset);
}

} // namespace tessera::trace

#endif
