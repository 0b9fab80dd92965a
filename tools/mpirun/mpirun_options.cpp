#include "mpirun_options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "mca/suggest.h"

namespace tessera::mpirun {
namespace {

enum class Opt { Np, Host, Hosts, Hostfile, Oversubscribe, Mca, Tune, Export, Genv, Env, TagOutput, Timeout,
                 BindTo, MapBy, PerNode, ReportBindings, DisplayMap, OutputFilename, Stdin, Wdir, Path, Arch,
                 Ignored, Version, Help };

struct OptSpec {
    std::string_view name;
    Opt opt;
    int values; /* how many arguments follow */
};

constexpr OptSpec kOptions[] = {
    {"np", Opt::Np, 1},
    {"n", Opt::Np, 1},
    {"c", Opt::Np, 1},
    {"host", Opt::Host, 1},
    {"H", Opt::Host, 1},
    {"hosts", Opt::Hosts, 1},
    {"hostfile", Opt::Hostfile, 1},
    {"machinefile", Opt::Hostfile, 1},
    {"f", Opt::Hostfile, 1},
    {"oversubscribe", Opt::Oversubscribe, 0},
    {"mca", Opt::Mca, 2},
    {"tune", Opt::Tune, 1},
    {"x", Opt::Export, 1},
    {"genv", Opt::Genv, 2},
    {"env", Opt::Env, 2},
    {"tag-output", Opt::TagOutput, 0},
    {"timeout", Opt::Timeout, 1},
    {"bind-to", Opt::BindTo, 1},
    {"map-by", Opt::MapBy, 1},
    {"N", Opt::PerNode, 1},
    {"npernode", Opt::PerNode, 1},
    {"ppn", Opt::PerNode, 1},
    {"report-bindings", Opt::ReportBindings, 0},
    {"display-map", Opt::DisplayMap, 0},
    {"output-filename", Opt::OutputFilename, 1},
    {"stdin", Opt::Stdin, 1},
    {"wdir", Opt::Wdir, 1},
    {"path", Opt::Path, 1},
    {"arch", Opt::Arch, 1},
    /* Open MPI refuses root without it; we have nothing to refuse, so it is harmless to accept. */
    {"allow-run-as-root", Opt::Ignored, 0},
    {"version", Opt::Version, 0},
    {"V", Opt::Version, 0},
    {"help", Opt::Help, 0},
    {"h", Opt::Help, 0},
};

const OptSpec *find_option(std::string_view name)
{
    for (const OptSpec &spec : kOptions) {
        if (spec.name == name) {
            return &spec;
        }
    }
    return nullptr;
}

std::string unknown_option(const std::string &arg, std::string_view body)
{
    std::vector<std::string> names;
    for (const OptSpec &spec : kOptions) {
        if (spec.name.size() > 1) { /* one-letter names are close to everything */
            names.emplace_back(spec.name);
        }
    }
    std::string text = "unknown option " + arg + " (see mpirun --help";
    std::vector<std::string> close = tessera::mca::closest_names(body, names);
    if (!close.empty()) {
        for (std::string &c : close) {
            c = "--" + c;
        }
        text += "; did you mean " + tessera::mca::join_alternatives(close) + "?";
    }
    return text + ")";
}

bool valid_env_name(std::string_view name)
{
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) {
        return false;
    }
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) {
            return false;
        }
    }
    return true;
}

std::optional<int> parse_int(std::string_view text, int min)
{
    int value = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || p != text.data() + text.size() || value < min) {
        return std::nullopt;
    }
    return value;
}

std::optional<int> parse_count(std::string_view text) { return parse_int(text, 1); }

std::optional<double> parse_seconds(const std::string &text)
{
    if (text.empty()) {
        return std::nullopt;
    }
    char *end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(value) || value <= 0.0) {
        return std::nullopt;
    }
    return value;
}

/* --map-by slot|core|node|ppr:N:node (Open MPI's spellings; core maps like slot, since slots are cores). */
std::string apply_map_by(const std::string &spelled, const std::string &value, Options &o)
{
    if (value == "slot" || value == "core") {
        o.map_by = MapBy::Slot;
        return "";
    }
    if (value == "node") {
        o.map_by = MapBy::Node;
        return "";
    }
    if (value.rfind("ppr:", 0) == 0 && value.size() > 9 && value.compare(value.size() - 5, 5, ":node") == 0) {
        if (auto n = parse_count(std::string_view(value).substr(4, value.size() - 9))) {
            o.per_node = *n;
            return "";
        }
    }
    return spelled + ": '" + value + "' is not supported (use slot, core, node or ppr:N:node)";
}

/* Applies one option with its values to the options and the application context being read; returns an
 * error text or "". */
std::string apply(const OptSpec &spec, const std::string &spelled, const std::vector<std::string> &values,
                  Options &o, AppContext &app)
{
    switch (spec.opt) {
    case Opt::Np:
        if (auto n = parse_count(values[0])) {
            app.np = *n;
            return "";
        }
        return spelled + ": '" + values[0] + "' is not a number of processes >= 1";
    case Opt::Host:
        app.host_lists.push_back(values[0]);
        return "";
    case Opt::Hosts:
        o.host_lists.push_back(values[0]);
        return "";
    case Opt::Hostfile:
        if (o.hostfile && *o.hostfile != values[0]) {
            return spelled + ": only one hostfile may be given";
        }
        o.hostfile = values[0];
        return "";
    case Opt::Oversubscribe:
        o.oversubscribe = true;
        return "";
    case Opt::Mca:
        o.mca_args.insert(o.mca_args.end(), {"--mca", values[0], values[1]});
        return "";
    case Opt::Tune:
        o.mca_args.insert(o.mca_args.end(), {"--tune", values[0]});
        return "";
    case Opt::Export:
    case Opt::Genv:
    case Opt::Env: {
        Export e;
        if (spec.values == 2) {
            e.name = values[0];
            e.value = values[1];
        } else {
            const std::string &v = values[0];
            const size_t eq = v.find('=');
            e.name = v.substr(0, eq);
            if (eq != std::string::npos) {
                e.value = v.substr(eq + 1);
            }
        }
        if (!valid_env_name(e.name)) {
            return spelled + ": '" + e.name + "' is not an environment variable name";
        }
        (spec.opt == Opt::Env ? app.env : o.exports).push_back(std::move(e));
        return "";
    }
    case Opt::TagOutput:
        o.tag_output = true;
        return "";
    case Opt::Timeout:
        if (auto s = parse_seconds(values[0])) {
            o.timeout = *s;
            return "";
        }
        return spelled + ": '" + values[0] + "' is not a number of seconds > 0";
    case Opt::BindTo:
        if (values[0] == "core") {
            o.bind_to = BindTo::Core;
        } else if (values[0] == "none") {
            o.bind_to = BindTo::None;
        } else {
            return spelled + ": '" + values[0] + "' is not supported (use core or none)";
        }
        return "";
    case Opt::MapBy:
        return apply_map_by(spelled, values[0], o);
    case Opt::PerNode:
        if (auto n = parse_count(values[0])) {
            o.per_node = *n;
            return "";
        }
        return spelled + ": '" + values[0] + "' is not a number of processes per node >= 1";
    case Opt::ReportBindings:
        o.report_bindings = true;
        return "";
    case Opt::DisplayMap:
        o.display_map = true;
        return "";
    case Opt::OutputFilename:
        if (values[0].empty()) {
            return spelled + ": the directory name is empty";
        }
        o.output_dir = values[0];
        return "";
    case Opt::Stdin:
        if (values[0] == "all") {
            o.stdin_target.kind = StdinTarget::Kind::All;
        } else if (values[0] == "none") {
            o.stdin_target.kind = StdinTarget::Kind::None;
        } else if (auto r = parse_int(values[0], 0)) {
            o.stdin_target = {StdinTarget::Kind::Rank, *r};
        } else {
            return spelled + ": '" + values[0] + "' is not a rank, all or none";
        }
        return "";
    case Opt::Wdir:
        if (values[0].empty()) {
            return spelled + ": the directory name is empty";
        }
        app.wdir = values[0];
        return "";
    case Opt::Path:
        app.path = values[0];
        return "";
    case Opt::Arch:
        return spelled + " " + values[0] + ": mpirun cannot choose hosts by architecture (every host is "
                         "taken to be alike); give the hosts with -host or --hostfile instead";
    case Opt::Ignored:
        return "";
    case Opt::Version:
        o.version = true;
        return "";
    case Opt::Help:
        o.help = true;
        return "";
    }
    return "";
}

} // namespace

std::optional<Options> parse_options(const std::vector<std::string> &args, std::string *error)
{
    Options o;
    AppContext app;
    size_t i = 0;
    /* Reads one context's options; returns false on error. */
    auto read_options = [&]() {
        for (; i < args.size(); ++i) {
            const std::string &arg = args[i];
            if (arg == "--") {
                ++i;
                return true;
            }
            if (arg.size() < 2 || arg[0] != '-') {
                return true; /* the program */
            }
            const size_t dashes = arg[1] == '-' ? 2 : 1;
            std::string body = arg.substr(dashes);
            std::optional<std::string> inline_value;
            if (const size_t eq = body.find('='); eq != std::string::npos) {
                inline_value = body.substr(eq + 1);
                body.resize(eq);
            }
            const OptSpec *spec = find_option(body);
            if (spec == nullptr) {
                *error = unknown_option(arg, body);
                return false;
            }
            const std::string spelled = arg.substr(0, dashes) + body;
            std::vector<std::string> values;
            if (inline_value) {
                if (spec->values != 1) {
                    *error = "option " + spelled + (spec->values == 0 ? " takes no value" : " takes two values: "
                                                    "NAME VALUE, not NAME=VALUE");
                    return false;
                }
                values.push_back(*inline_value);
            } else {
                if (i + static_cast<size_t>(spec->values) >= args.size() && spec->values > 0) {
                    *error = "option " + spelled + " needs " +
                             (spec->values == 1 ? std::string("a value") : std::string("a name and a value"));
                    return false;
                }
                for (int k = 0; k < spec->values; ++k) {
                    values.push_back(args[++i]);
                }
            }
            if (std::string why = apply(*spec, spelled, values, o, app); !why.empty()) {
                *error = why;
                return false;
            }
        }
        return true;
    };
    for (;;) {
        if (!read_options()) {
            return std::nullopt;
        }
        /* The program's arguments run to a lone ':' (the next context) or to the end. */
        const size_t start = i;
        while (i < args.size() && args[i] != ":") {
            ++i;
        }
        app.program.assign(args.begin() + static_cast<std::ptrdiff_t>(start),
                           args.begin() + static_cast<std::ptrdiff_t>(i));
        const bool more = i < args.size();
        if (app.program.empty() && (more || !o.apps.empty())) {
            *error = "application context " + std::to_string(o.apps.size() + 1) +
                     " has no program (contexts are separated by ':'; see mpirun --help)";
            return std::nullopt;
        }
        if (!app.program.empty()) {
            o.apps.push_back(std::move(app));
        }
        app = AppContext();
        if (!more) {
            break;
        }
        ++i; /* the ':' */
    }
    /* The environment's limit, which Open MPI's and MPICH's launchers honour too (test harnesses set it). */
    if (const char *limit = std::getenv("MPIEXEC_TIMEOUT"); limit != nullptr && !o.timeout) {
        if (auto s = parse_seconds(limit)) {
            o.timeout = *s;
        } else {
            *error = std::string("MPIEXEC_TIMEOUT (environment): '") + limit + "' is not a number of seconds > 0";
            return std::nullopt;
        }
    }
    if (o.apps.empty() && !o.help && !o.version) {
        *error = "no program to run (see mpirun --help)";
        return std::nullopt;
    }
    return o;
}

const char *usage_text()
{
    return "Usage: mpirun [options] program [arguments] [: [options] program [arguments]]...\n"
           "       mpiexec [options] program [arguments] [: ...]\n"
           "\n"
           "Starts the ranks of an MPI job, forwards their output and ends with the job's status.\n"
           "Several programs (application contexts) are separated by a lone ':'; their ranks form one\n"
           "MPI_COMM_WORLD in order, and MPI_APPNUM tells each rank its context (0, 1, ...).\n"
           "\n"
           "Options (one or two leading dashes; values also as --name=value):\n"
           "  -np N, -n N, -c N         number of ranks of this context (default: the free slots of\n"
           "                            its hosts, or N per host with -N)\n"
           "  --host, -H LIST           hosts as h1:slots,h2 (a host without :slots has 1 slot); may be\n"
           "                            repeated; with several contexts, the hosts of this context\n"
           "  -hosts LIST               hosts of every context (MPICH's spelling)\n"
           "  --hostfile, --machinefile, -f FILE\n"
           "                            one host per line: \"host [slots=N]\", '#' starts a comment\n"
           "                            (default without hosts: localhost, one slot per core)\n"
           "  --oversubscribe           allow more ranks than slots\n"
           "  --map-by slot|core|node|ppr:N:node\n"
           "                            fill each host's slots in turn (slot, core: the default), one\n"
           "                            rank per host round the hosts (node), or N per host (ppr)\n"
           "  -N N, --npernode N, -ppn N\n"
           "                            N ranks on each host, whatever its slots\n"
           "  --display-map             print where each rank runs before starting the job\n"
           "  --bind-to core|none       bind each rank to a core (applied by the rank's MPI_Init),\n"
           "                            or not at all (default: none)\n"
           "  --report-bindings         print where each rank is bound\n"
           "  -wdir, --wdir DIR         this context's ranks start in DIR (relative to mpirun's\n"
           "                            directory); default: mpirun's directory\n"
           "  -path DIRS                find this context's program in DIRS (':'-separated) first\n"
           "  -arch NAME                refused: hosts cannot be chosen by architecture\n"
           "  -x VAR, -x VAR=VALUE      export VAR (mpirun's own value, or VALUE) to every rank\n"
           "  -genv VAR VALUE           set VAR to VALUE for every rank\n"
           "  -env VAR VALUE            set VAR to VALUE for this context's ranks\n"
           "  --mca NAME VALUE          set an MCA parameter for mpirun and every rank\n"
           "  --tune FILE               read MCA parameters from FILE (INI), for mpirun and every rank\n"
           "  --stdin RANK|all|none     which ranks read mpirun's stdin (default: rank 0; the others\n"
           "                            read /dev/null), on this machine or another host\n"
           "  --tag-output              prefix each output line with [jobid,rank]<stdout>: or <stderr>:\n"
           "  --output-filename DIR     write rank N's output to DIR/1/rank.N/stdout and .../stderr\n"
           "                            instead of mpirun's stdout and stderr\n"
           "  --timeout S               end the job after S seconds (exit status 124)\n"
           "  --allow-run-as-root       accepted and ignored (Open MPI's; mpirun runs as root anyway)\n"
           "  --version, -V             print the version and exit\n"
           "  --help, -h                print this help and exit\n"
           "  --                        end of options: the program follows\n"
           "An unknown option is an error, with the closest known options.\n"
           "\n"
           "With --mca translator ompi (or mpich) the ranks run over Open MPI (MPICH): mpirun then hands\n"
           "the job to that runtime's launcher (mpirun.openmpi, mpiexec.hydra) with these options.\n"
           "\n"
           "Environment:\n"
           "  MPIEXEC_TIMEOUT           seconds, as --timeout, when --timeout is not given\n"
           "  TESSERA_MCA_<name>        an MCA parameter for mpirun and every rank\n"
           "  Each rank gets TESSERA_RANK, TESSERA_SIZE, TESSERA_LOCAL_RANK, TESSERA_LOCAL_SIZE,\n"
           "  TESSERA_NODE_ID, TESSERA_HOST, TESSERA_JOBID, TESSERA_APPNUM, TESSERA_UNIVERSE_SIZE and\n"
           "  the wire-up variables; -x cannot set them.\n"
           "\n"
           "Exit status:\n"
           "  0 when every rank exits 0; otherwise the first failing rank's status (128+N for a rank\n"
           "  killed by signal N), the code given to MPI_Abort, 124 after --timeout, 128+N when mpirun\n"
           "  is ended by signal N, 127 when a program cannot be found, and 1 for an error before any\n"
           "  rank started (options, hosts, MCA settings).\n";
}

} // namespace tessera::mpirun
