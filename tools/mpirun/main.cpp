/*
 * mpirun / mpiexec: starts the ranks of an MPI job and ends with its status. The sequence (see
 * docs/runtime.md): block signals; parse the options; check the MCA settings; with translator ompi or
 * mpich, hand the job to that runtime's launcher (delegate.h) and stop here; otherwise place the ranks;
 * start the wire-up service; choose the launcher; spawn every rank with its environment; run the event
 * loop until every rank is gone; remove the job's /dev/shm entries; exit with the job's status.
 */
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <unistd.h>

#include "hosts.h"
#include "iof.h"
#include "job.h"
#include "kv_address.h"
#include "launch.h"
#include "launch_apps.h"
#include "delegate.h"
#include "frameworks/plm/base/base.h"
#include "mca/cmdline.h"
#include "mca/framework.h"
#include "mca_check.h"
#include "mpirun_options.h"
#include "orte/kv/job_key.h"
#include "orte/kv/kv_server.h"
#include "placement.h"
#include "rank_env.h"
#include "sentinel.h"
#include "shm_sweep.h"
#include "signal_watch.h"
#include "tessera_config.h"

using namespace tessera::mpirun;

namespace {

/* Errors before any rank started. */
constexpr int kSetupError = 1;

int setup_error(const std::string &text)
{
    std::fprintf(stderr, "mpirun: %s\n", text.c_str());
    return kSetupError;
}

/* Placement, environment and launch of one job whose options are valid. */
int run_job(const Options &opts, const tessera::mca::CmdlineResult &mca_cmd,
            const std::vector<std::string> &warned_names, SignalWatch &signals)
{
    std::string error;
    auto hosts = hosts_from_options(opts, &error);
    if (!hosts) {
        return setup_error(error);
    }
    std::vector<AppRequest> requests;
    for (const AppContext &app : opts.apps) {
        AppRequest request;
        request.np = app.np;
        if (opts.apps.size() > 1) { /* one context may use every host of the job */
            auto mine = host_indices(app.host_lists, *hosts, &error);
            if (!mine) {
                return setup_error(error);
            }
            request.hosts = std::move(*mine);
        }
        requests.push_back(std::move(request));
    }
    PlaceOptions place;
    place.oversubscribe = opts.oversubscribe;
    place.map_by = opts.map_by;
    place.per_node = opts.per_node;
    place.bind = opts.bind_to;
    auto placement = place_apps(*hosts, requests, place, &error);
    if (!placement) {
        return setup_error(error);
    }
    const int np = static_cast<int>(placement->size());
    if (opts.stdin_target.kind == StdinTarget::Kind::Rank && opts.stdin_target.rank >= np) {
        return setup_error("--stdin " + std::to_string(opts.stdin_target.rank) + ": the job has ranks 0 to " +
                           std::to_string(np - 1));
    }
    auto apps = launch_apps(opts.apps, &error);
    if (!apps) {
        return setup_error(error);
    }
    if (opts.output_dir && !OutputForwarder::prepare_output_dir(*opts.output_dir, np, &error)) {
        return setup_error(error);
    }

    JobEnv job;
    job.jobid = new_jobid();
    job.size = np;
    job.universe_size = total_slots(*hosts);
    job.job_key = tessera::orte::generate_job_key();
    job.cmdline_mca = mca_cmd.mca;
    job.warned_mca_names = warned_names;
    auto tune = absolute_tune_files(mca_cmd.tune_files, &error);
    auto exports = tune ? export_entries(opts.exports, &error) : std::nullopt;
    if (!tune || !exports) {
        return setup_error(error);
    }
    job.tune_files = std::move(*tune);
    job.exports = std::move(*exports);

    auto addresses = kv_addresses(*hosts, &error);
    if (!addresses) {
        return setup_error(error);
    }
    bool needs_remote = false;
    for (const Host &h : *hosts) {
        needs_remote = needs_remote || !h.local;
    }

    /* Before the wire-up service and the launcher exist: mpirun has one thread, and no socket of the
     * job is inherited by the sentinel. */
    std::unique_ptr<Sentinel> sentinel = Sentinel::start(job.jobid, mca_plm_base_sentinel_settle, &error);
    if (!sentinel) {
        std::fprintf(stderr, "mpirun: warning: %s; if mpirun is killed, its ranks' children and /dev/shm entries "
                             "may be left behind\n", error.c_str());
    }

    KvNotes notes;
    tessera::orte::KvServerOptions kv_options;
    kv_options.bind_address = addresses->bind_address;
    kv_options.nranks = np;
    kv_options.job_key = job.job_key;
    std::unique_ptr<tessera::orte::KvServer> kv = tessera::orte::KvServer::start(kv_options, kv_events(notes), &error);
    if (!kv) {
        return setup_error("cannot start the wire-up service: " + error);
    }

    std::unique_ptr<Launcher> launcher = Launcher::open(needs_remote, &error);
    if (!launcher) {
        return setup_error(error);
    }

    JobPlan plan;
    plan.jobid = job.jobid;
    plan.timeout = opts.timeout;
    plan.wireup_timeout = mca_plm_base_wireup_timeout;
    plan.abort_grace = mca_plm_base_abort_grace;
    if (sentinel) {
        plan.on_started = [&sentinel](int64_t id) { sentinel->started(id); };
        plan.on_reaped = [&sentinel](int64_t id) { sentinel->reaped(id); };
    }
    for (const RankPlacement &p : *placement) {
        const Host &host = (*hosts)[static_cast<size_t>(p.host)];
        const std::string uri = kv_uri_for(addresses->connect_to[static_cast<size_t>(p.host)], kv->uri());
        const LaunchApp &app = (*apps)[static_cast<size_t>(p.app)];
        RankLaunch rl;
        rl.rank = p.rank;
        rl.host = host.name;
        rl.spawn_host = host.local ? std::string() : host.name;
        rl.argv = app.argv;
        rl.working_dir = app.working_dir;
        rl.reads_stdin = reads_stdin(opts.stdin_target, p.rank);
        rl.env = rank_environment(job, p, host, uri, app.env);
        plan.ranks.push_back(std::move(rl));
        if (opts.display_map) {
            std::fprintf(stderr, "mpirun: %s\n", describe_placement(p, *hosts, app.argv[0]).c_str());
        }
        if (opts.report_bindings) {
            std::fprintf(stderr, "mpirun: %s\n", describe_binding(p, *hosts).c_str());
        }
    }
    std::fflush(stderr);

    int status = 0;
    {
        OutputForwarder iof(job.jobid, opts.tag_output, opts.output_dir.value_or(""));
        Job running(plan, *launcher, *kv, notes, iof, signals);
        status = running.run();
    }
    launcher.reset(); /* closes the plm: nothing of the job can outlive this */
    kv.reset();
    sweep_shm(job.jobid);
    return status;
}

/* The job belongs to another runtime's launcher: exec it (returns only on failure). */
int delegate_job(const std::string &translator, const Options &opts, const tessera::mca::CmdlineResult &mca_cmd)
{
    std::optional<std::string> launcher = find_launcher(translator);
    if (!launcher) {
        std::string names;
        for (const std::string &n : launcher_candidates(translator)) {
            names += (names.empty() ? "" : ", ") + n;
        }
        return setup_error("translator " + translator + " needs its runtime's launcher to start the ranks, but none of " +
                           names + " is in PATH");
    }
    std::string error;
    std::optional<Delegation> plan = plan_delegation(translator, *launcher, opts, mca_cmd, geteuid() == 0, &error);
    if (!plan) {
        return setup_error(error);
    }
    tessera::mca::frameworks_finalize();
    exec_delegation(*plan, &error);
    return setup_error(error);
}

} // namespace

int main(int argc, char **argv)
{
    /* First, before any thread exists: every thread inherits the blocked mask. */
    SignalWatch signals;
    clear_inherited_launch_env();

    std::vector<std::string> args(argv + 1, argv + argc);
    std::string error;
    std::optional<Options> opts = parse_options(args, &error);
    if (!opts) {
        return setup_error(error);
    }
    if (opts->help) {
        std::fputs(usage_text(), stdout);
        return 0;
    }
    if (opts->version) {
        std::printf("mpirun (Tessera MPI) %s\n", TESSERA_VERSION);
        return 0;
    }

    std::vector<char *> mca_argv;
    for (std::string &a : opts->mca_args) {
        mca_argv.push_back(a.data());
    }
    tessera::mca::CmdlineResult mca_cmd = tessera::mca::parse_mca_args(std::span<char *>(mca_argv));
    if (!mca_cmd.ok()) {
        return setup_error(mca_cmd.error);
    }
    std::vector<std::string> warned_names;
    if (!check_mca_settings(mca_cmd, &warned_names)) {
        tessera::mca::frameworks_finalize();
        return kSetupError;
    }

    if (std::optional<std::string> translator = delegated_translator()) {
        return delegate_job(*translator, *opts, mca_cmd);
    }
    const int status = run_job(*opts, mca_cmd, warned_names, signals);
    tessera::mca::frameworks_finalize();
    return status;
}
