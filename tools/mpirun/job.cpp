#include "job.h"

#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "mca/constants.h"

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

} // namespace

tessera::orte::KvServerEvents kv_events(KvNotes &notes)
{
    tessera::orte::KvServerEvents events;
    events.on_abort = [&notes](int rank, int code, const std::string &message) {
        notes.aborts.push_back({rank, code, message});
    };
    events.on_finalize = [&notes](int) { notes.any_finalized = true; };
    events.on_rejected = [](const std::string &peer, const std::string &reason) {
        OutputForwarder::message("mpirun: warning: refused a wire-up connection from " + peer + ": " + reason);
    };
    return events;
}

Job::Job(const JobPlan &plan, Launcher &launcher, tessera::orte::KvServer &kv, KvNotes &notes,
         OutputForwarder &iof, SignalWatch &signals)
    : plan_(plan), launcher_(launcher), kv_(kv), notes_(notes), iof_(iof), signals_(signals)
{
}

int Job::run()
{
    if (plan_.timeout) {
        deadline_ = now_seconds() + *plan_.timeout;
    }
    start_ranks();
    for (;;) {
        reap();
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
        wait_for_events();
    }
    finish_output();
    return failure_ ? failure_->status : 0;
}

void Job::start_ranks()
{
    ranks_.resize(plan_.ranks.size());
    for (const RankLaunch &rl : plan_.ranks) {
        handle_signals(); /* a SIGINT during a long launch stops it */
        if (failure_) {
            return;
        }
        mca_plm_base_child_t child{};
        child.stdout_fd = child.stderr_fd = child.exit_fd = -1;
        const int rc = launcher_.spawn(rl.spawn_host, plan_.argv, rl.env, &child);
        if (rc != TESSERA_SUCCESS) {
            fail(failure_from_spawn(rl.rank, rl.host, rc));
            return;
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
    OutputForwarder::message(failure.message);
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
    /* Its last words come before mpirun's verdict on it. */
    iof_.drain_rank(rank);
    /* A rank writes "finalize" or "abort" to the service before it exits; read those first so that the
     * exit is judged with them (an MPI_Abort then reads as an abort, not as an exit code). */
    progress_kv();
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
    if (auto f = failure_from_exit(end)) {
        fail(*f);
    }
}

void Job::progress_kv()
{
    kv_.progress(0);
    if (kv_.connected_ranks() > 0 || notes_.any_finalized) {
        mpi_job_ = true;
    }
    std::vector<KvNotes::Abort> aborts;
    aborts.swap(notes_.aborts);
    for (const KvNotes::Abort &a : aborts) {
        mpi_job_ = true;
        const std::string host = a.rank >= 0 && static_cast<size_t>(a.rank) < plan_.ranks.size()
                                     ? plan_.ranks[static_cast<size_t>(a.rank)].host
                                     : std::string("?");
        fail(failure_from_abort(a.rank, host, a.code, a.message, others_running()));
    }
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

void Job::wait_for_events()
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
        if (r.running) {
            if (r.exit_fd >= 0) {
                fds.push_back({r.exit_fd, POLLIN, 0});
            } else {
                blind = true;
            }
        }
    }
    const size_t iof_begin = fds.size();
    iof_.append_pollfds(fds);

    int timeout_ms = blind ? kBlindPollMs : kMaxPollMs;
    if (deadline_ > 0 && !failure_) {
        const double left = std::ceil((deadline_ - now_seconds()) * 1000.0);
        timeout_ms = std::min(timeout_ms, static_cast<int>(std::max(0.0, left)));
    }
    poll(fds.data(), fds.size(), timeout_ms);

    handle_signals();
    progress_kv();
    for (size_t i = iof_begin; i < fds.size(); ++i) {
        if (fds[i].revents != 0) {
            iof_.on_ready(fds[i].fd);
        }
    }
    if (deadline_ > 0 && !failure_ && now_seconds() >= deadline_) {
        fail(failure_from_timeout(*plan_.timeout));
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
