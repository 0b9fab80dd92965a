/*
 * One job from the first spawn to the last exit: mpirun's event loop. It polls the wire-up service, the
 * ranks' exit descriptors and output pipes, and the signalfd, with the --timeout deadline as the poll
 * timeout. The first failure (failure.h) is reported once and tears the job down through the plm's
 * terminate_all (SIGTERM, then SIGKILL after the launcher's grace period); the loop then goes on until
 * every rank has been reaped and its output forwarded.
 */
#ifndef TESSERA_TOOLS_MPIRUN_JOB_H
#define TESSERA_TOOLS_MPIRUN_JOB_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "failure.h"
#include "iof.h"
#include "launch.h"
#include "orte/kv/kv_server.h"
#include "signal_watch.h"

namespace tessera::mpirun {

/* What the wire-up service reported, collected by its callbacks (which run inside progress()) and
 * acted on by the loop afterwards. */
struct KvNotes {
    struct Abort {
        int rank = 0;
        int code = 0;
        std::string message;
    };
    std::vector<Abort> aborts;
    bool any_finalized = false;
};

/* Callbacks that fill `notes` (and print rejected connections as warnings). */
tessera::orte::KvServerEvents kv_events(KvNotes &notes);

struct RankLaunch {
    int rank = 0;
    std::string host;       /* as given, for messages */
    std::string spawn_host; /* "" when it is this machine */
    std::vector<std::string> env;
};

struct JobPlan {
    uint32_t jobid = 0;
    std::vector<std::string> argv;
    std::vector<RankLaunch> ranks;
    std::optional<double> timeout;
};

class Job {
public:
    Job(const JobPlan &plan, Launcher &launcher, tessera::orte::KvServer &kv, KvNotes &notes,
        OutputForwarder &iof, SignalWatch &signals);

    /* Runs the job to its end; returns mpirun's exit status. */
    int run();

private:
    struct Rank {
        int64_t id = -1;
        int exit_fd = -1;
        bool running = false;
    };

    void start_ranks();
    void fail(const Failure &failure);
    void reap();
    void on_exit(const mca_plm_base_exit_t &exit);
    void progress_kv();
    void handle_signals();
    void wait_for_events();
    void finish_output();
    bool others_running() const { return running_ > 0; }

    const JobPlan &plan_;
    Launcher &launcher_;
    tessera::orte::KvServer &kv_;
    KvNotes &notes_;
    OutputForwarder &iof_;
    SignalWatch &signals_;

    std::vector<Rank> ranks_;
    int running_ = 0;
    bool mpi_job_ = false;
    std::optional<Failure> failure_;
    bool torn_down_ = false;
    double deadline_ = 0; /* monotonic seconds; 0: none */
};

} // namespace tessera::mpirun

#endif
