/* tessera-trace's command line. */
#ifndef TESSERA_TOOLS_TRACE_OPTIONS_H
#define TESSERA_TOOLS_TRACE_OPTIONS_H

#include <optional>
#include <string>
#include <vector>

namespace tessera::trace {

enum class HeatMetric { Bytes, Messages };

struct Options {
    std::string archive;             /* the anchor file, ".../traces.otf2" */
    std::optional<std::string> csv;  /* message list; "-" for standard output */
    bool matrix = false;             /* communication matrix */
    bool pairs = false;              /* per-pair latency and bandwidth */
    bool json = false;               /* one JSON document on standard output instead of text */
    bool json_messages = false;      /* the message list inside that document */
    std::optional<std::string> png;  /* heat map of the matrix */
    HeatMetric png_metric = HeatMetric::Bytes;
    size_t examples = 3;             /* examples kept per warning kind */
    bool help = false;
};

/* On a usage error returns nullopt and says what is wrong in `error`. */
std::optional<Options> parse_options(const std::vector<std::string> &args, std::string &error);

const char *usage_text();

} // namespace tessera::trace

#endif
