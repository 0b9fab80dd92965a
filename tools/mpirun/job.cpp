#include "job.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "mca/constants.h"
#include "proc_state.h"

namespace tessera::mpirun {
namespace {

double now_seconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* Poll at least this often even when nothing happens, so that the wire-up service's own timers (the
 * handshake timeout) run. */
constexpr int kMaxPollMs = 1000;
/* Without exit descriptors (kernels before pidfd) exits are noticed by looking this often. */
constexpr int kBlindPollMs = 20;
/* After the last rank is gone: how long output of its orphaned children is still awaited. */
constexpr double kOutputGraceSeconds = 0.2;
/* Refused wire-up connections reported one by one before only powers of two are. */
constexpr uint64_t kRefusalsInFull = 4;

} // namespace

tessera::orte::KvServerEvents kv_events(KvNotes &notes)
{
    tessera::orte::KvServerEvents events;
    events.on_abort = [&notes](int rank, int code, const std::string &message) {
        notes.aborts.push_back({rank, code, message});
    };
    events.on_finalize = [&notes](int) { notes.any_finalized = true; };
    events.on_rejected = [&notes](const std::string &peer, const std::string &reason) {
        /* The first few in full, then the 8th, 16th, 32nd...: a flood of strangers cannot flood the
         * output, and the count at the end says how many there were. */
        const uint64_t n = ++notes.refused;
        if (n <= kRefusalsInFull || (n & (n - 1)) == 0) {
            OutputForwarder::message("mpirun: warning: refused a wire-up connection from " + peer + ": " + reason +
                                     " (" + std::to_string(n) + " refused so far)");
        }
    };
    return events;
}

Job::Job(const JobPlan &plan, Launcher &launcher, tessera::orte::KvServer &kv, KvNotes &notes,
         OutputForwarder &iof, SignalWatch &signals)
    : plan_(plan), launcher_(launcher), kv_(kv), notes_(notes), iof_(iof), signals_(signals), stdin_(STDIN_FILENO)
{
}

int Job::run()
{
    if (plan_.timeout) {
        deadline_ = now_seconds() + *plan_.timeout;
    }
    start_ranks();
    launched_ = true;
    for (;;) {
        reap();
        settle_held();
        /* Checked after every reap and every wait: a failure found in either ends the job now, not
         * after the next poll timeout. */
        if (failure_ && !torn_down_) {
            torn_down_ = true;
            launcher_.terminate_all(); /* returns once every rank has exited (within the grace period) */
            continue;
        }
        if (running_ == 0) {
            break;
        }
        serve(kMaxPollMs, true);
        check_wireup();
    }
    finish_output();
    if (notes_.refused > kRefusalsInFull && (notes_.refused & (notes_.refused - 1)) != 0) {
        OutputForwarder::message("mpirun: warning: refused " + std::to_string(notes_.refused) +
                                 " wire-up connections in all");
    }
    return failure_ ? failure_->status : 0;
}

void Job::start_ranks()
{
    ranks_.resize(plan_.ranks.size());
    /* A start may wait long (ssh to a slow host): meanwhile signals, the deadline, the wire-up of the
     * ranks already running and their output are served as in the event loop. */
    const std::function<bool()> while_waiting = [this] {
        serve(0, false);
        return !failure_;
    };
    for (const RankLaunch &rl : plan_.ranks) {
        handle_signals(); /* a SIGINT during a long launch stops it */
        if (failure_) {
            return;
        }
        mca_plm_base_child_t child{};
        child.stdout_fd = child.stderr_fd = child.exit_fd = -1;
        int stdin_fd = -1;
        if (rl.reads_stdin) {
            std::string why;
            stdin_fd = stdin_.add_rank(rl.rank, &why);
            if (stdin_fd < 0) {
                OutputForwarder::message("mpirun: warning: " + why + "; it reads /dev/null");
            }
        }
        const int rc = launcher_.spawn(rl.spawn_host, rl.argv, rl.working_dir, stdin_fd, rl.env, while_waiting, &child);
        if (stdin_fd >= 0) {
            ::close(stdin_fd); /* the rank has its copy; ours would keep the pipe from ever breaking */
        }
        if (rc != TESSERA_SUCCESS) {
            fail(failure_from_spawn(rl.rank, rl.host, rc)); /* unless the wait was abandoned for a failure */
            return;
        }
        if (plan_.on_started) {
            plan_.on_started(child.id);
        }
        Rank &r = ranks_[static_cast<size_t>(rl.rank)];
        r.id = child.id;
        r.exit_fd = child.exit_fd;
        r.running = true;
        ++running_;
        iof_.add(rl.rank, OutputForwarder::Kind::Stdout, child.stdout_fd);
        iof_.add(rl.rank, OutputForwarder::Kind::Stderr, child.stderr_fd);
    }
}

void Job::fail(const Failure &failure)
{
    if (failure_) {
        return; /* only the first failure counts; the rest is the teardown it caused */
    }
    failure_ = failure;
    held_.reset();
    OutputForwarder::message(failure.message);
}

/* A rank that sees a peer die (its connection breaks) may say so before the kernel lets mpirun reap
 * the dead one: the report must name the rank that died first, so while some rank is dying the
 * failure waits for that death. */
void Job::fail_or_hold(const Failure &failure, int rank)
{
    if (failure_ || held_) {
        return;
    }
    if (plan_.abort_grace > 0 && another_rank_dying(rank)) {
        held_ = Held{failure, rank, now_seconds() + plan_.abort_grace};
        return;
    }
    fail(failure);
}

void Job::settle_held()
{
    if (held_ && (now_seconds() >= held_->until || !another_rank_dying(held_->rank))) {
        const Failure f = held_->failure;
        held_.reset();
        fail(f);
    }
}

bool Job::another_rank_dying(int rank) const
{
    for (size_t i = 0; i < ranks_.size(); ++i) {
        if (static_cast<int>(i) != rank && ranks_[i].running && process_dying(ranks_[i].id)) {
            return true;
        }
    }
    return false;
}

void Job::reap()
{
    mca_plm_base_exit_t exit{};
    while (running_ > 0 && launcher_.wait(0, &exit) == TESSERA_SUCCESS) {
        on_exit(exit);
    }
}

void Job::on_exit(const mca_plm_base_exit_t &exit)
{
    auto it = std::find_if(ranks_.begin(), ranks_.end(),
                           [&exit](const Rank &r) { return r.running && r.id == exit.id; });
    if (it == ranks_.end()) {
        return;
    }
    const int rank = static_cast<int>(it - ranks_.begin());
    it->running = false;
    it->exit_fd = -1; /* the module closed it when it reported the exit */
    --running_;
    if (plan_.on_reaped) {
        plan_.on_reaped(it->id);
    }
    stdin_.rank_ended(rank);
    /* Its last words come before mpirun's verdict on it. */
    iof_.drain_rank(rank);
    /* A rank writes "finalize" or "abort" to the service before it exits; read those first so that the
     * exit is judged with them (an MPI_Abort then reads as an abort, not as an exit code). Aborts of
     * other ranks wait until this exit is judged: they may be about this very death. */
    progress_kv(rank);
    if (failure_) {
        return;
    }
    RankEnd end;
    end.rank = rank;
    end.host = plan_.ranks[static_cast<size_t>(rank)].host;
    end.exit = exit;
    end.mpi_job = mpi_job_;
    end.finalized = kv_.rank_finalized(rank);
    end.others_running = others_running();
    if (held_ && held_->rank == rank && !exit.signaled) {
        /* The exit that follows its own failure (the status of its abort). */
    } else if (auto f = failure_from_exit(end)) {
        if (exit.signaled) {
            fail(*f);
        } else {
            fail_or_hold(*f, rank);
        }
    }
    progress_kv();
}

void Job::progress_kv(int exiting_rank)
{
    kv_.progress(0);
    if (kv_.connected_ranks() > 0 || notes_.any_finalized) {
        mpi_job_ = true;
    }
    std::vector<KvNotes::Abort> aborts;
    std::vector<KvNotes::Abort> later;
    aborts.swap(notes_.aborts);
    for (const KvNotes::Abort &a : aborts) {
        mpi_job_ = true;
        if (exiting_rank >= 0 && a.rank != exiting_rank) {
            later.push_back(a);
            continue;
        }
        const std::string host = a.rank >= 0 && static_cast<size_t>(a.rank) < plan_.ranks.size()
                                     ? plan_.ranks[static_cast<size_t>(a.rank)].host
                                     : std::string("?");
        fail_or_hold(failure_from_abort(a.rank, host, a.code, a.message, others_running()), a.rank);
    }
    notes_.aborts.insert(notes_.aborts.begin(), later.begin(), later.end());
}

void Job::handle_signals()
{
    for (int sig : signals_.take()) {
        if (SignalWatch::ends_job(sig)) {
            fail(failure_from_signal(sig));
        } else if (SignalWatch::is_forwarded(sig)) {
            for (const Rank &r : ranks_) {
                if (r.running) {
                    launcher_.signal(r.id, sig);
                }
            }
        }
    }
}

void Job::serve(int timeout_ms, bool watch_exits)
{
    std::vector<pollfd> fds;
    if (signals_.fd() >= 0) {
        fds.push_back({signals_.fd(), POLLIN, 0});
    }
    if (kv_.fd() >= 0) {
        fds.push_back({kv_.fd(), POLLIN, 0});
    }
    bool blind = false;
    for (const Rank &r : ranks_) {
        if (watch_exits && r.running) {
            if (r.exit_fd >= 0) {
                fds.push_back({r.exit_fd, POLLIN, 0});
            } else {
                blind = true;
            }
        }
    }
    const size_t stdin_begin = fds.size();
    stdin_.append_pollfds(fds);
    const size_t iof_begin = fds.size();
    iof_.append_pollfds(fds);

    if (blind) {
        timeout_ms = std::min(timeout_ms, kBlindPollMs);
    }
    const double now = now_seconds();
    if (deadline_ > 0 && !failure_) {
        timeout_ms = std::min(timeout_ms, static_cast<int>(std::max(0.0, std::ceil((deadline_ - now) * 1000.0))));
    }
    if (held_) {
        timeout_ms = std::min(timeout_ms, static_cast<int>(std::max(0.0, std::ceil((held_->until - now) * 1000.0))));
    }
    poll(fds.data(), fds.size(), timeout_ms);

    handle_signals();
    progress_kv();
    for (size_t i = stdin_begin; i < iof_begin; ++i) {
        stdin_.on_ready(fds[i]);
    }
    for (size_t i = iof_begin; i < fds.size(); ++i) {
        if (fds[i].revents != 0) {
            iof_.on_ready(fds[i].fd);
        }
    }
    if (deadline_ > 0 && !failure_ && now_seconds() >= deadline_) {
        fail(failure_from_timeout(*plan_.timeout));
    }
}

/* Once every rank has been started and some rank waits in the wire-up, the others get
 * plm_base_wireup_timeout to arrive: a rank that never does would keep the rest waiting forever. */
void Job::check_wireup()
{
    if (!launched_ || failure_ || held_ || !mpi_job_ || wireup_since_ < 0) {
        return;
    }
    std::vector<std::pair<int, std::string>> missing;
    for (const RankLaunch &rl : plan_.ranks) {
        if (!kv_.rank_seen(rl.rank)) {
            missing.emplace_back(rl.rank, rl.host);
        }
    }
    if (missing.empty()) {
        wireup_since_ = -1; /* everybody came: nothing more to watch */
        return;
    }
    const double now = now_seconds();
    if (wireup_since_ == 0) {
        wireup_since_ = now;
    }
    if (now - wireup_since_ >= plan_.wireup_timeout) {
        fail(failure_from_wireup(plan_.wireup_timeout, missing));
    }
}

void Job::finish_output()
{
    iof_.drain_all();
    const double until = now_seconds() + kOutputGraceSeconds;
    while (iof_.any_open()) {
        const double left = until - now_seconds();
        if (left <= 0) {
            break;
        }
        std::vector<pollfd> fds;
        iof_.append_pollfds(fds);
        if (poll(fds.data(), fds.size(), static_cast<int>(std::ceil(left * 1000.0))) <= 0) {
            break;
        }
        for (const pollfd &p : fds) {
            if (p.revents != 0) {
                iof_.on_ready(p.fd);
            }
        }
    }
    iof_.close_all();
}

} // namespace tessera::mpirun
