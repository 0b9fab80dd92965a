#include "mpirun_options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace tessera::mpirun {
namespace {

enum class Opt { Np, Host, Hostfile, Oversubscribe, Mca, Tune, Export, TagOutput, Timeout, BindTo,
                 ReportBindings, Version, Help };

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
    {"hostfile", Opt::Hostfile, 1},
    {"machinefile", Opt::Hostfile, 1},
    {"oversubscribe", Opt::Oversubscribe, 0},
    {"mca", Opt::Mca, 2},
    {"tune", Opt::Tune, 1},
    {"x", Opt::Export, 1},
    {"tag-output", Opt::TagOutput, 0},
    {"timeout", Opt::Timeout, 1},
    {"bind-to", Opt::BindTo, 1},
    {"report-bindings", Opt::ReportBindings, 0},
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

std::optional<int> parse_count(std::string_view text)
{
    int value = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || p != text.data() + text.size() || value < 1) {
        return std::nullopt;
    }
    return value;
}

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

/* Applies one option with its values; returns an error text or "". */
std::string apply(const OptSpec &spec, const std::string &spelled, const std::vector<std::string> &values,
                  Options &o)
{
    switch (spec.opt) {
    case Opt::Np:
        if (auto n = parse_count(values[0])) {
            o.np = *n;
            return "";
        }
        return spelled + ": '" + values[0] + "' is not a number of processes >= 1";
    case Opt::Host:
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
    case Opt::Export: {
        const std::string &v = values[0];
        const size_t eq = v.find('=');
        Export e;
        e.name = v.substr(0, eq);
        if (eq != std::string::npos) {
            e.value = v.substr(eq + 1);
        }
        if (!valid_env_name(e.name)) {
            return spelled + ": '" + e.name + "' is not an environment variable name";
        }
        o.exports.push_back(std::move(e));
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
    case Opt::ReportBindings:
        o.report_bindings = true;
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
    size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (arg.size() < 2 || arg[0] != '-') {
            break; /* the program */
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
            *error = "unknown option " + arg + " (see mpirun --help)";
            return std::nullopt;
        }
        const std::string spelled = arg.substr(0, dashes) + body;
        std::vector<std::string> values;
        if (inline_value) {
            if (spec->values != 1) {
                *error = "option " + spelled + (spec->values == 0 ? " takes no value" : " takes two values: "
                                                "NAME VALUE, not NAME=VALUE");
                return std::nullopt;
            }
            values.push_back(*inline_value);
        } else {
            if (i + static_cast<size_t>(spec->values) >= args.size() && spec->values > 0) {
                *error = "option " + spelled + " needs " +
                         (spec->values == 1 ? std::string("a value") : std::string("a name and a value"));
                return std::nullopt;
            }
            for (int k = 0; k < spec->values; ++k) {
                values.push_back(args[++i]);
            }
        }
        if (std::string why = apply(*spec, spelled, values, o); !why.empty()) {
            *error = why;
            return std::nullopt;
        }
    }
    o.program.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    /* The environment's limit, which Open MPI's and MPICH's launchers honour too (test harnesses set it). */
    if (const char *limit = std::getenv("MPIEXEC_TIMEOUT"); limit != nullptr && !o.timeout) {
        if (auto s = parse_seconds(limit)) {
            o.timeout = *s;
        } else {
            *error = std::string("MPIEXEC_TIMEOUT (environment): '") + limit + "' is not a number of seconds > 0";
            return std::nullopt;
        }
    }
    if (o.program.empty() && !o.help && !o.version) {
        *error = "no program to run (see mpirun --help)";
        return std::nullopt;
    }
    return o;
}

const char *usage_text()
{
    return "usage: mpirun [options] program [arguments]\n"
           "       mpiexec [options] program [arguments]\n"
           "\n"
           "Starts the ranks of an MPI job, forwards their output and ends with the job's status.\n"
           "Options (one or two leading dashes; values also as --name=value):\n"
           "  -np N, -n N, -c N         number of ranks (default: one per slot)\n"
           "  --host, -H LIST           hosts as h1:slots,h2 (a host without :slots has 1 slot);\n"
           "                            may be repeated\n"
           "  --hostfile, --machinefile FILE\n"
           "                            one host per line: \"host [slots=N]\", '#' starts a comment\n"
           "                            (default without hosts: localhost, one slot per core)\n"
           "  --oversubscribe           allow more ranks than slots\n"
           "  --mca NAME VALUE          set an MCA parameter for mpirun and every rank\n"
           "  --tune FILE               read MCA parameters from FILE (INI), for mpirun and every rank\n"
           "  -x VAR, -x VAR=VALUE      export VAR (mpirun's own value, or VALUE) to every rank\n"
           "  --tag-output              prefix each output line with [jobid,rank]<stdout>: or <stderr>:\n"
           "  --timeout S               end the job after S seconds (exit status 124); without it,\n"
           "                            the environment's MPIEXEC_TIMEOUT\n"
           "  --bind-to core|none       bind each rank to a core (applied by the rank's MPI_Init),\n"
           "                            or not at all (default: none)\n"
           "  --report-bindings         print where each rank is bound\n"
           "  --version, -V             print the version and exit\n"
           "  --help, -h                print this help and exit\n"
           "  --                        end of options: the program follows\n"
           "\n"
           "With --mca translator ompi (or mpich) the ranks run over Open MPI (MPICH): mpirun then hands\n"
           "the job to that runtime's launcher (mpirun.openmpi, mpiexec.hydra) with these options.\n"
           "\n"
           "Exit status: 0 when every rank exits 0; otherwise the first failing rank's status (128+N for\n"
           "a rank killed by signal N), the code given to MPI_Abort, 124 after --timeout, 128+N when mpirun\n"
           "is ended by signal N, and 1 for an error before any rank started.\n";
}

} // namespace tessera::mpirun
