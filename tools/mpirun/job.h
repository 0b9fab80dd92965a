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
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "failure.h"
#include "iof.h"
#include "launch.h"
#include "orte/kv/kv_server.h"
#include "signal_watch.h"
#include "stdin_forward.h"

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
    uint64_t refused = 0; /* wire-up connections refused */
};

/* Callbacks that fill `notes` (and print rejected connections as warnings). */
tessera::orte::KvServerEvents kv_events(KvNotes &notes);

struct RankLaunch {
    int rank = 0;
    std::string host;       /* as given, for messages */
    std::string spawn_host; /* "" when it is this machine */
    std::vector<std::string> argv; /* its application context's program and arguments */
    std::string working_dir;       /* "": mpirun's directory */
    bool reads_stdin = false;      /* gets mpirun's stdin (stdin_forward.h); only for this machine */
    std::vector<std::string> env;
};

struct JobPlan {
    uint32_t jobid = 0;
    std::vector<RankLaunch> ranks;
    std::optional<double> timeout;
    double wireup_timeout = 300; /* plm_base_wireup_timeout */
    double abort_grace = 1;      /* plm_base_abort_grace */
    /* Called with each rank's process group when it is started and when it is reaped (the job's
     * sentinel keeps the list). */
    std::function<void(int64_t)> on_started;
    std::function<void(int64_t)> on_reaped;
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

    /* A failure found while another rank is dying: it waits (at most abort_grace) for that death,
     * which is the one to report if it comes. */
    struct Held {
        Failure failure;
        int rank = -1; /* whose failure it is: its own exit is part of it */
        double until = 0;
    };

    void start_ranks();
    void fail(const Failure &failure);
    void fail_or_hold(const Failure &failure, int rank);
    void settle_held();
    bool another_rank_dying(int rank) const;
    void reap();
    void on_exit(const mca_plm_base_exit_t &exit);
    void progress_kv(int exiting_rank = -1);
    void handle_signals();
    void serve(int timeout_ms, bool watch_exits);
    void check_wireup();
    void finish_output();
    bool others_running() const { return running_ > 0; }

    const JobPlan &plan_;
    Launcher &launcher_;
    tessera::orte::KvServer &kv_;
    KvNotes &notes_;
    OutputForwarder &iof_;
    SignalWatch &signals_;
    StdinForwarder stdin_;

    std::vector<Rank> ranks_;
    int running_ = 0;
    bool mpi_job_ = false;
    std::optional<Failure> failure_;
    std::optional<Held> held_;
    bool torn_down_ = false;
    double deadline_ = 0;       /* monotonic seconds; 0: none */
    bool launched_ = false;     /* every start has returned */
    double wireup_since_ = 0;   /* when some rank waited in the wire-up for others not yet there;
                                   -1 once every rank came */
};

} // namespace tessera::mpirun

#endif
