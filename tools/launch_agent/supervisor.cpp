/* tessera_launch_agent: the loop that runs while the program does. One poll() over the channel, the
 * program's two output pipes and a signalfd (SIGCHLD and the signals that ask the agent to stop); the
 * only timers are the grace period of a teardown and a short drain of the pipes at the end. */
#include "supervisor.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "frameworks/plm/base/plm_base_output.h"

namespace tessera::orte::launch_agent {
namespace {

using Clock = std::chrono::steady_clock;
using plm::agent::Decoder;

/* After the program's group is gone, how long output still in flight may take to arrive (a process
 * that left the group but kept the pipes open must not hold the agent forever). */
constexpr std::chrono::milliseconds kDrain{1000};
/* While the program's leader has exited but its group has not, how often to look at the group. */
constexpr int kGroupPollMs = 20;

Clock::time_point after(double seconds)
{
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

class Supervisor {
public:
    Supervisor(const Program &program, Decoder *decoder, double grace, const std::string &who)
        : program_(program), decoder_(decoder), grace_(grace), who_(who)
    {
    }

    int run();

private:
    void on_channel();
    void apply_records();
    void on_signals();
    void reap();
    void pump(int *fd, int to, bool *to_broken);
    void feed_program();
    void close_program_stdin();
    bool channel_held() const { return input_.size() - input_done_ >= plm::agent::kMaxPendingInput; }
    void stop();
    void terminate_group();
    bool group_alive() const { return kill(-program_.pid, 0) == 0; }
    int exit_status() const;

    Program program_;
    Decoder *decoder_;
    const double grace_;
    const std::string who_;

    int signal_fd_ = -1;
    bool channel_open_ = true;
    bool stopping_ = false; /* a teardown was asked for (not the program's own end) */
    bool leader_exited_ = false;
    int leader_status_ = 0;
    bool group_termed_ = false;
    bool group_killed_ = false;
    Clock::time_point kill_at_ = Clock::time_point::max();
    Clock::time_point drain_until_ = Clock::time_point::max();
    bool stdout_broken_ = false;
    bool stderr_broken_ = false;
    std::string input_;      /* input records' bytes the program has not read yet */
    size_t input_done_ = 0;  /* of input_, written */
    bool input_ended_ = false;
};

void Supervisor::close_program_stdin()
{
    if (program_.stdin_fd >= 0) {
        close(program_.stdin_fd);
        program_.stdin_fd = -1;
    }
    input_.clear();
    input_done_ = 0;
}

void Supervisor::feed_program()
{
    while (program_.stdin_fd >= 0 && input_done_ < input_.size()) {
        ssize_t n = write(program_.stdin_fd, input_.data() + input_done_, input_.size() - input_done_);
        if (n > 0) {
            input_done_ += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == EAGAIN) {
            break;
        }
        /* The program closed its stdin (EPIPE; SIGPIPE is ignored): the rest is dropped. */
        close_program_stdin();
        return;
    }
    if (input_done_ == input_.size()) {
        input_.clear();
        input_done_ = 0;
        if (input_ended_) {
            close_program_stdin(); /* mpirun's end of input is the program's */
        }
    } else if (input_done_ > (size_t{64} << 10) && input_done_ > input_.size() / 2) {
        input_.erase(0, input_done_);
        input_done_ = 0;
    }
}

void Supervisor::terminate_group()
{
    if (group_termed_) {
        return;
    }
    group_termed_ = true;
    kill(-program_.pid, SIGTERM);
    /* A stopped process handles SIGTERM only once it runs again. */
    kill(-program_.pid, SIGCONT);
    kill_at_ = after(grace_);
}

void Supervisor::stop()
{
    stopping_ = true;
    terminate_group();
}

void Supervisor::apply_records()
{
    for (;;) {
        switch (decoder_->next()) {
        case Decoder::Event::kSignal:
            if (!group_killed_) {
                kill(-program_.pid, decoder_->signal());
            }
            continue;
        case Decoder::Event::kInput:
            if (program_.stdin_fd >= 0) {
                input_.append(decoder_->input());
            }
            continue;
        case Decoder::Event::kInputEnd:
            input_ended_ = true;
            continue;
        case Decoder::Event::kError:
            if (channel_open_) {
                std::fprintf(stderr, "%s: bad record on the launcher's channel (%s); stopping '%s'\n",
                             who_.c_str(), decoder_->error().c_str(), program_.name.c_str());
            }
            channel_open_ = false;
            stop();
            return;
        case Decoder::Event::kSpec: /* only once, before we run */
        case Decoder::Event::kNeedMore:
            return;
        }
    }
}

void Supervisor::on_channel()
{
    char buf[4096];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return;
    }
    if (n <= 0) {
        /* The launcher closed the channel, or the connection died: nobody is waiting for the
         * program any more. */
        channel_open_ = false;
        stop();
        return;
    }
    decoder_->feed(buf, static_cast<size_t>(n));
    apply_records();
    feed_program();
}

void Supervisor::on_signals()
{
    signalfd_siginfo info[8];
    ssize_t n;
    while ((n = read(signal_fd_, info, sizeof info)) > 0) {
        for (size_t i = 0; i < static_cast<size_t>(n) / sizeof info[0]; ++i) {
            if (info[i].ssi_signo != SIGCHLD) {
                stop();
            }
        }
    }
    reap();
}

void Supervisor::reap()
{
    int status = 0;
    pid_t pid;
    /* We are a subreaper: besides the program, orphans of its group end up here and are reaped too,
     * so that the group empties even where the container's init does not reap. */
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (pid == program_.pid) {
            leader_exited_ = true;
            leader_status_ = status;
        }
    }
}

void Supervisor::pump(int *fd, int to, bool *to_broken)
{
    char buf[65536];
    /* Bounded, so that a program writing without pause cannot starve the channel. */
    for (int round = 0; round < 16; ++round) {
        ssize_t n = read(*fd, buf, sizeof buf);
        if (n > 0) {
            /* Once our side is gone (the ssh session died) the output is read and dropped, so that
             * the program does not block before the teardown reaches it. */
            if (!*to_broken && !plm::write_all(to, buf, static_cast<size_t>(n))) {
                *to_broken = true;
            }
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == EAGAIN) {
            return;
        }
        close(*fd);
        *fd = -1;
        return;
    }
}

int Supervisor::exit_status() const
{
    if (WIFEXITED(leader_status_)) {
        return WEXITSTATUS(leader_status_);
    }
    int sig = WIFSIGNALED(leader_status_) ? WTERMSIG(leader_status_) : SIGKILL;
    if (!stopping_) {
        const char *name = strsignal(sig);
        std::fprintf(stderr, "%s: '%s' was killed by signal %d (%s)%s\n", who_.c_str(), program_.name.c_str(), sig,
                     name != nullptr ? name : "unknown", WCOREDUMP(leader_status_) ? ", core dumped" : "");
    }
    return 128 + sig;
}

int Supervisor::run()
{
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGCHLD, SIGTERM, SIGHUP, SIGINT}) {
        sigaddset(&set, sig);
    }
    signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signal_fd_ < 0) {
        /* Without a signalfd: look for the exit every few milliseconds, and let the stop signals
         * take their default action (the program then gets its parent-death SIGKILL). */
        sigdelset(&set, SIGCHLD);
        sigprocmask(SIG_UNBLOCK, &set, nullptr);
    }
    apply_records(); /* signals and input that arrived right behind the spec */
    feed_program();
    reap();          /* a program that exited before the signalfd existed */

    for (;;) {
        auto now = Clock::now();
        if (group_termed_ && !group_killed_ && now >= kill_at_) {
            kill(-program_.pid, SIGKILL);
            group_killed_ = true;
        }
        if (leader_exited_ && drain_until_ == Clock::time_point::max()) {
            if (!group_alive() || group_killed_) {
                drain_until_ = now + kDrain;
            } else {
                /* Leftovers of the program hold the group (and likely the output pipes). */
                terminate_group();
            }
        }
        bool pipes_done = program_.stdout_fd < 0 && program_.stderr_fd < 0;
        if (leader_exited_ && drain_until_ != Clock::time_point::max() && (pipes_done || now >= drain_until_)) {
            break;
        }

        std::vector<pollfd> fds;
        if (channel_open_) {
            /* Held while the program is behind with its input; a hang-up is still seen. */
            fds.push_back({STDIN_FILENO, static_cast<short>(channel_held() ? 0 : POLLIN), 0});
        }
        if (program_.stdin_fd >= 0 && input_done_ < input_.size()) {
            fds.push_back({program_.stdin_fd, POLLOUT, 0});
        }
        if (program_.stdout_fd >= 0) {
            fds.push_back({program_.stdout_fd, POLLIN, 0});
        }
        if (program_.stderr_fd >= 0) {
            fds.push_back({program_.stderr_fd, POLLIN, 0});
        }
        if (signal_fd_ >= 0) {
            fds.push_back({signal_fd_, POLLIN, 0});
        }
        Clock::time_point wake = Clock::time_point::max();
        if (group_termed_ && !group_killed_) {
            wake = kill_at_;
        }
        wake = std::min(wake, drain_until_);
        int timeout_ms = -1;
        if (wake != Clock::time_point::max()) {
            auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count() + 1;
            timeout_ms = static_cast<int>(std::clamp<long long>(ms, 0, 60000));
        }
        if ((leader_exited_ && drain_until_ == Clock::time_point::max()) || signal_fd_ < 0) {
            timeout_ms = timeout_ms < 0 ? kGroupPollMs : std::min(timeout_ms, kGroupPollMs);
        }
        int n = poll(fds.data(), fds.size(), timeout_ms);
        if (n < 0 && errno != EINTR) {
            std::fprintf(stderr, "%s: poll: %s\n", who_.c_str(), strerror(errno));
            stop();
        }
        for (const pollfd &p : fds) {
            if (p.revents == 0) {
                continue;
            }
            if (p.fd == STDIN_FILENO) {
                if (p.events != 0) {
                    on_channel();
                } else {
                    channel_open_ = false; /* hung up while held: the launcher is gone */
                    stop();
                }
            } else if (p.fd == program_.stdin_fd) {
                feed_program();
            } else if (p.fd == signal_fd_) {
                on_signals();
            } else if (p.fd == program_.stdout_fd) {
                pump(&program_.stdout_fd, STDOUT_FILENO, &stdout_broken_);
            } else if (p.fd == program_.stderr_fd) {
                pump(&program_.stderr_fd, STDERR_FILENO, &stderr_broken_);
            }
        }
        if (signal_fd_ < 0) {
            reap();
        }
    }
    for (int *fd : {&program_.stdout_fd, &program_.stderr_fd, &program_.stdin_fd, &signal_fd_}) {
        if (*fd >= 0) {
            close(*fd);
            *fd = -1;
        }
    }
    return exit_status();
}

} // namespace

int supervise(const Program &program, Decoder *decoder, double grace, const std::string &who)
{
    Supervisor supervisor(program, decoder, grace, who);
    return supervisor.run();
}

} // namespace tessera::orte::launch_agent
