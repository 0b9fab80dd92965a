/* mpirun's command line: its own options, the MCA options it shares with every tool, and the program. */
#ifndef TESSERA_TOOLS_MPIRUN_MPIRUN_OPTIONS_H
#define TESSERA_TOOLS_MPIRUN_MPIRUN_OPTIONS_H

#include <optional>
#include <string>
#include <vector>

namespace tessera::mpirun {

enum class BindTo { None, Core };

/* One -x option: VAR (export mpirun's own value) or VAR=value. */
struct Export {
    std::string name;
    std::optional<std::string> value;
};

struct Options {
    std::optional<int> np;              /* -np/-n/-c; unset: one rank per slot */
    std::vector<std::string> host_lists; /* each --host/-H value, in order */
    std::optional<std::string> hostfile; /* --hostfile/--machinefile */
    bool oversubscribe = false;
    std::vector<Export> exports;
    bool tag_output = false;
    std::optional<double> timeout; /* seconds, > 0 */
    BindTo bind_to = BindTo::None;
    bool report_bindings = false;
    bool version = false;
    bool help = false;
    /* --mca NAME VALUE and --tune FILE as given, for mca::parse_mca_args (kept apart from the program's
     * arguments, which may contain "--mca" of their own). */
    std::vector<std::string> mca_args;
    std::vector<std::string> program; /* program and its arguments */
};

/*
 * Parses argv[1..]. Options may be spelled with one dash or two ("-np", "--np", "-host", "--host"), and
 * those taking a value also as "--name=value". The program starts at the first argument that is not an
 * option (or after "--"); everything from there on belongs to it. On error returns nullopt and sets
 * *error to one line such as "unknown option --foo (see mpirun --help)".
 */
std::optional<Options> parse_options(const std::vector<std::string> &args, std::string *error);

const char *usage_text();

} // namespace tessera::mpirun

#endif
