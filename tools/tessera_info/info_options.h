/* tessera_info's command line (after the shared --mca/--tune parser has taken its part). */
#ifndef TESSERA_TOOLS_INFO_OPTIONS_H
#define TESSERA_TOOLS_INFO_OPTIONS_H

#include <optional>
#include <string>
#include <vector>

namespace tessera::info {

enum class Format { Text, Parsable, Json };

struct Options {
    Format format = Format::Text;
    bool show_config = true;     /* build configuration and paths */
    bool show_components = true; /* frameworks and their components */
    std::optional<std::string> param_framework; /* --param <fw|all> <comp|all> */
    std::string param_component = "all";
    int level = 1;
    bool show_failed = false;
    std::optional<std::string> path; /* --path [which] */
    std::vector<std::string> select; /* --select <fw|all> */
    bool coverage = false;           /* --coverage: MPI functions implemented and missing */
    bool help = false;
    bool version = false;
};

/* Parses args; on a usage error returns nullopt after setting `error`. */
std::optional<Options> parse_options(const std::vector<std::string> &args, std::string &error);

const char *usage_text();

} // namespace tessera::info

#endif
