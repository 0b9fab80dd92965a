/*
 * mpirun's command line: its own options, the MCA options it shares with every tool, and the
 * application contexts (one program each; several separated by ':' as in the standard's mpiexec).
 */
#ifndef TESSERA_TOOLS_MPIRUN_MPIRUN_OPTIONS_H
#define TESSERA_TOOLS_MPIRUN_MPIRUN_OPTIONS_H

#include <optional>
#include <string>
#include <vector>

namespace tessera::mpirun {

enum class BindTo { None, Core };

/* --map-by: fill a host's slots before the next (slot), or one rank per host in turn (node). */
enum class MapBy { Slot, Node };

/* One -x/-genv/-env setting: VAR (export mpirun's own value) or VAR=value. */
struct Export {
    std::string name;
    std::optional<std::string> value;
};

/* Which ranks read mpirun's stdin (--stdin); the others read /dev/null. */
struct StdinTarget {
    enum class Kind { Rank, All, None } kind = Kind::Rank;
    int rank = 0;
};

/* One application context: a program with its own count, hosts, directory and environment. */
struct AppContext {
    std::optional<int> np;               /* -np/-n/-c; unset: the free slots of its hosts */
    std::vector<std::string> host_lists; /* -host/-H values; with several contexts, this one's hosts */
    std::optional<std::string> wdir;     /* -wdir/--wdir: as given (relative to mpirun's directory) */
    std::optional<std::string> path;     /* -path: ':'-separated directories to find the program in */
    std::vector<Export> env;             /* -env NAME VALUE: this context's ranks only */
    std::vector<std::string> program;    /* program and its arguments */
};

struct Options {
    std::vector<AppContext> apps;        /* at least one unless --help/--version */
    std::vector<std::string> host_lists; /* -hosts (MPICH): hosts of every context */
    std::optional<std::string> hostfile; /* --hostfile/--machinefile/-f */
    bool oversubscribe = false;
    std::vector<Export> exports; /* -x, -genv: every rank */
    bool tag_output = false;
    std::optional<double> timeout; /* seconds, > 0 */
    BindTo bind_to = BindTo::None;
    MapBy map_by = MapBy::Slot;
    std::optional<int> per_node; /* -N/--npernode/-ppn, --map-by ppr:N:node */
    bool report_bindings = false;
    bool display_map = false;
    std::optional<std::string> output_dir; /* --output-filename */
    StdinTarget stdin_target;
    bool version = false;
    bool help = false;
    /* --mca NAME VALUE and --tune FILE as given, for mca::parse_mca_args (kept apart from the program's
     * arguments, which may contain "--mca" of their own). */
    std::vector<std::string> mca_args;
};

/*
 * Parses argv[1..]. Options may be spelled with one dash or two ("-np", "--np", "-host", "--host"), and
 * those taking a value also as "--name=value". A program starts at the first argument that is not an
 * option (or after "--"); its arguments run to the end or to a lone ":", after which the next
 * application context's options and program follow. On error returns nullopt and sets *error to one
 * line such as "unknown option --fo (see mpirun --help; did you mean --foo?)".
 */
std::optional<Options> parse_options(const std::vector<std::string> &args, std::string *error);

const char *usage_text();

} // namespace tessera::mpirun

#endif
