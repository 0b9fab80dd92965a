/*
 * trace_synth: writes a synthetic OTF2 archive of at least N events (synthetic_traffic.h) for timing
 * tessera-trace:   trace_synth DIR [EVENTS] [RANKS] [--no-regions]
 */
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "synthetic_traffic.h"

int main(int argc, char **argv)
{
    using namespace tessera::trace::synth;
    TrafficSpec spec;
    const char *dir = nullptr;
    int positional = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--no-regions") == 0) {
            spec.regions = false;
        } else if (argv[i][0] == '-') {
            std::fprintf(stderr, "trace_synth: unknown option '%s'\nusage: trace_synth DIR [EVENTS] [RANKS] [--no-regions]\n", argv[i]);
            return 2;
        } else if (positional == 0) {
            dir = argv[i];
            ++positional;
        } else {
            char *end = nullptr;
            unsigned long long v = std::strtoull(argv[i], &end, 10);
            if (*end != '\0' || v == 0) {
                std::fprintf(stderr, "trace_synth: '%s' is not a positive number\n", argv[i]);
                return 2;
            }
            if (positional++ == 1) {
                spec.events = v;
            } else {
                spec.ranks = static_cast<uint32_t>(v);
            }
        }
    }
    if (dir == nullptr) {
        std::fprintf(stderr, "usage: trace_synth DIR [EVENTS] [RANKS] [--no-regions]\n");
        return 2;
    }
    TrafficResult r;
    std::string error;
    if (!write_synthetic_traffic(dir, spec, r, error)) {
        std::fprintf(stderr, "trace_synth: %s\n", error.c_str());
        return 1;
    }
    std::printf("%s/traces.otf2: %" PRIu64 " events, %" PRIu64 " messages, %" PRIu64 " bytes, %u ranks\n", dir,
                r.events, r.messages, r.bytes, spec.ranks);
    return 0;
}
