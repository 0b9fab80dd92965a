#include "delegate.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "hosts.h"
#include "mca/var_store.h"
#include "orte/runtime/launch_env.h"
#include "rank_env.h"

namespace tessera::mpirun {

namespace {

bool is_runtime_translator(const std::string &name)
{
    return name == "ompi" || name == "mpich";
}

/* "h1:2,h2:1": the hosts as both launchers read them (Open MPI --host, hydra -hosts). */
std::string host_list(const std::vector<Host> &hosts)
{
    std::string text;
    for (const Host &h : hosts) {
        text += (text.empty() ? "" : ",") + h.name + ":" + std::to_string(h.slots);
    }
    return text;
}

std::string split_name(const std::string &entry, std::string *value)
{
    const size_t eq = entry.find('=');
    *value = entry.substr(eq + 1);
    return entry.substr(0, eq);
}

} // namespace

std::optional<std::string> delegated_translator()
{
    auto var = tessera::mca::find_var("translator");
    if (!var) {
        return std::nullopt;
    }
    std::string value = var->value;
    const size_t b = value.find_first_not_of(" \t");
    const size_t e = value.find_last_not_of(" \t");
    value = b == std::string::npos ? std::string() : value.substr(b, e - b + 1);
    if (!is_runtime_translator(value)) {
        return std::nullopt;
    }
    return value;
}

std::vector<std::string> launcher_candidates(const std::string &translator)
{
    if (translator == "ompi") {
        return {"mpirun.openmpi", "mpiexec.openmpi"};
    }
    if (translator == "mpich") {
        return {"mpiexec.hydra", "mpirun.mpich", "mpiexec.mpich"};
    }
    return {};
}

std::optional<std::string> find_launcher(const std::string &translator)
{
    const char *path = std::getenv("PATH");
    const std::string dirs = path != nullptr && *path != '\0' ? path : "/usr/local/bin:/usr/bin:/bin";
    for (const std::string &name : launcher_candidates(translator)) {
        size_t start = 0;
        while (start <= dirs.size()) {
            const size_t colon = dirs.find(':', start);
            std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
            const std::string file = (dir.empty() ? std::string(".") : dir) + "/" + name;
            if (access(file.c_str(), X_OK) == 0) {
                return file;
            }
            if (colon == std::string::npos) {
                break;
            }
            start = colon + 1;
        }
    }
    return std::nullopt;
}

std::optional<Delegation> plan_delegation(const std::string &translator, const std::string &launcher, const Options &opts,
                                          const tessera::mca::CmdlineResult &mca, bool as_root, std::string *error)
{
    /* What the plan below translates; the rest would be silently lost on the way. */
    const char *untranslated = nullptr;
    if (opts.apps.size() > 1) {
        untranslated = "several application contexts (':')";
    } else if (opts.apps[0].wdir || opts.apps[0].path || !opts.apps[0].env.empty()) {
        untranslated = "-wdir, -path and -env";
    } else if (opts.per_node || opts.map_by != MapBy::Slot) {
        untranslated = "--map-by, -N and -ppn";
    } else if (opts.display_map || opts.output_dir) {
        untranslated = "--display-map and --output-filename";
    } else if (opts.stdin_target.kind != StdinTarget::Kind::Rank || opts.stdin_target.rank != 0) {
        untranslated = "--stdin";
    }
    if (untranslated != nullptr) {
        *error = std::string("with translator ") + translator + ", " + untranslated +
                 " cannot be passed on to that runtime's launcher; run it directly";
        return std::nullopt;
    }
    const AppContext &app = opts.apps[0];
    Delegation d;
    d.translator = translator;
    const bool ompi = translator == "ompi";
    std::vector<std::string> &a = d.argv;
    a.push_back(launcher);

    /* The ranks see the same settings as under our own launch: translator first, so that the selection
     * at their first MPI call picks it whatever else is set. */
    d.env.emplace_back("TESSERA_MCA_translator", translator);
    if (!mca.mca.empty()) {
        d.env.emplace_back(tessera::orte::kEnvCmdlineMca, tessera::orte::encode_cmdline_mca(mca.mca));
    }
    auto tune = absolute_tune_files(mca.tune_files, error);
    if (!tune) {
        return std::nullopt;
    }
    if (!tune->empty()) {
        std::string joined;
        for (const std::string &f : *tune) {
            joined += (joined.empty() ? "" : ":") + f;
        }
        d.env.emplace_back(tessera::orte::kEnvCmdlineTune, joined);
    }
    auto exports = export_entries(opts.exports, error);
    if (!exports) {
        return std::nullopt;
    }
    for (const std::string &entry : *exports) {
        std::string value;
        std::string name = split_name(entry, &value);
        d.env.emplace_back(std::move(name), std::move(value));
    }

    if (app.np) {
        a.insert(a.end(), {"-np", std::to_string(*app.np)});
    }
    if (!app.host_lists.empty() || !opts.host_lists.empty() || opts.hostfile) {
        auto hosts = hosts_from_options(opts, error);
        if (!hosts) {
            return std::nullopt;
        }
        a.insert(a.end(), {ompi ? "--host" : "-hosts", host_list(*hosts)});
    }
    if (ompi) {
        if (as_root) {
            a.emplace_back("--allow-run-as-root");
        }
        if (opts.oversubscribe) {
            a.emplace_back("--oversubscribe");
        }
        /* Ours binds nothing unless asked; Open MPI binds to cores by default. */
        a.insert(a.end(), {"--bind-to", opts.bind_to == BindTo::Core ? "core" : "none"});
        if (opts.report_bindings) {
            a.emplace_back("--report-bindings");
        }
        if (opts.tag_output) {
            a.emplace_back("--tag-output");
        }
        if (opts.timeout) {
            a.insert(a.end(), {"--timeout", std::to_string(static_cast<long>(std::ceil(*opts.timeout)))});
        }
        /* Open MPI forwards only the variables named with -x to its ranks. */
        for (const auto &[name, value] : d.env) {
            a.insert(a.end(), {"-x", name});
        }
    } else {
        /* Hydra over-subscribes freely and forwards the whole environment; -genv makes ours explicit. */
        if (opts.bind_to == BindTo::Core) {
            a.insert(a.end(), {"-bind-to", "core"});
        }
        if (opts.tag_output) {
            a.emplace_back("-prepend-rank");
        }
        if (opts.timeout) {
            d.env.emplace_back("MPIEXEC_TIMEOUT", std::to_string(static_cast<long>(std::ceil(*opts.timeout))));
        }
        for (const auto &[name, value] : d.env) {
            a.insert(a.end(), {"-genv", name, value});
        }
    }
    a.insert(a.end(), app.program.begin(), app.program.end());
    return d;
}

void exec_delegation(const Delegation &d, std::string *error)
{
    for (const auto &[name, value] : d.env) {
        setenv(name.c_str(), value.c_str(), 1);
    }
    /* The launcher gets the signals mpirun blocked (a blocked mask and ignored SIGPIPE survive exec). */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    std::vector<char *> argv;
    for (const std::string &s : d.argv) {
        argv.push_back(const_cast<char *>(s.c_str()));
    }
    argv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    execv(argv[0], argv.data());
    *error = "cannot start " + d.argv[0] + " for the " + d.translator + " translator: " + std::strerror(errno);
}

} // namespace tessera::mpirun
