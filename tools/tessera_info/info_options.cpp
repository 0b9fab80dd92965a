#include "info_options.h"

#include <charconv>

namespace tessera::info {

const char *usage_text()
{
    return "Usage: tessera_info [options]\n"
           "Shows how Tessera MPI was built, its frameworks and components, and its MCA parameters\n"
           "with their current values and where each value came from.\n"
           "\n"
           "  --param <fw|all> <comp|all>  parameters of a framework/component ('base' for the\n"
           "                               framework's own); filtered by --level\n"
           "  --level <1-9>                most detailed level shown (default 1; 1-3 user,\n"
           "                               4-6 tuner, 7-9 developer)\n"
           "  --all                        everything: configuration, components, all parameters\n"
           "                               at level 9\n"
           "  --parsable                   colon-separated machine-readable lines\n"
           "  --json                       one JSON document\n"
           "  --show-failed                components that failed to load, and why\n"
           "  --path [name]                install paths (prefix, bindir, libdir, pkglibdir,\n"
           "                               sysconfdir, incdir or all)\n"
           "  --select <fw|all>            run the framework's selection and show what was chosen\n"
           "  --coverage                   the MPI functions the translator a process would select\n"
           "                               (native unless --mca translator or the launcher says\n"
           "                               otherwise) provides and those still missing, with counts\n"
           "  --mca <name> <value>         set a parameter, as mpirun does\n"
           "  --tune <file>                read parameters from an INI file, as mpirun does\n"
           "  --version                    print the version and exit\n"
           "  --help                       print this help and exit\n"
           "\n"
           "Environment:\n"
           "  TESSERA_MCA_<name>           set a parameter (below --tune and --mca in precedence)\n"
           "\n"
           "Exit status:\n"
           "  0 when every setting is valid and every selection asked for succeeds; 1 when an MCA\n"
           "  setting is bad or a framework's selection fails (the report is printed anyway); 2 for a\n"
           "  usage error (unknown option, unknown framework name).\n";
}

std::optional<Options> parse_options(const std::vector<std::string> &args, std::string &error)
{
    Options o;
    bool explicit_view = false;
    auto need = [&](size_t &i, const char *what) -> const std::string * {
        if (i + 1 >= args.size()) {
            error = std::string(args[i]) + " needs " + what;
            return nullptr;
        }
        return &args[++i];
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--param" || a == "-param") {
            const std::string *fw = need(i, "a framework (or 'all') and a component (or 'all')");
            if (fw == nullptr) {
                return std::nullopt;
            }
            const std::string *comp = need(i, "a component (or 'all') after the framework");
            if (comp == nullptr) {
                return std::nullopt;
            }
            o.param_framework = *fw;
            o.param_component = *comp;
            explicit_view = true;
        } else if (a == "--level" || a == "-level") {
            const std::string *v = need(i, "a level from 1 to 9");
            if (v == nullptr) {
                return std::nullopt;
            }
            int level = 0;
            auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), level);
            if (ec != std::errc() || p != v->data() + v->size() || level < 1 || level > 9) {
                error = "--level takes a number from 1 to 9, not '" + *v + "'";
                return std::nullopt;
            }
            o.level = level;
        } else if (a == "--all" || a == "-a") {
            o.param_framework = "all";
            o.param_component = "all";
            o.level = 9;
            o.show_failed = true;
        } else if (a == "--parsable" || a == "--parseable") {
            o.format = Format::Parsable;
        } else if (a == "--json") {
            o.format = Format::Json;
        } else if (a == "--show-failed") {
            o.show_failed = true;
            explicit_view = true;
        } else if (a == "--path") {
            o.path = "all";
            if (i + 1 < args.size() && args[i + 1].rfind("-", 0) != 0) {
                o.path = args[++i];
            }
            explicit_view = true;
        } else if (a == "--select") {
            const std::string *fw = need(i, "a framework (or 'all')");
            if (fw == nullptr) {
                return std::nullopt;
            }
            o.select.push_back(*fw);
            explicit_view = true;
        } else if (a == "--coverage") {
            o.coverage = true;
            explicit_view = true;
        } else if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a == "--version" || a == "-V") {
            o.version = true;
        } else {
            error = "unknown option '" + a + "' (see --help)";
            return std::nullopt;
        }
    }
    if (explicit_view) {
        /* An explicit question gets just its answer, as with ompi_info. */
        o.show_config = false;
        o.show_components = false;
    }
    if (o.path && *o.path != "all" && *o.path != "prefix" && *o.path != "bindir" && *o.path != "libdir" &&
        *o.path != "pkglibdir" && *o.path != "sysconfdir" && *o.path != "incdir") {
        error = "--path takes prefix, bindir, libdir, pkglibdir, sysconfdir, incdir or all, not '" +
                *o.path + "'";
        return std::nullopt;
    }
    return o;
}

} // namespace tessera::info
