/* plm ssh: starting a process on another host. The ssh client gets one end of a socket pair as its
 * stdin (the agent's channel: the spec, then signal records; closing it stops the program) and a pipe
 * as its stdout, on which the agent's status line comes first. spawn() sends the spec and reads that
 * line before it returns, so that a program that cannot be started is an error here, as with fork. */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "components/plm/ssh/plm_ssh_agent_command.h"
#include "components/plm/ssh/plm_ssh_launcher.h"
#include "frameworks/plm/base/base.h"
#include "frameworks/plm/base/plm_base_agent_protocol.h"
#include "frameworks/plm/base/plm_base_exec.h"
#include "mca/report.h"

namespace tessera::orte::plm_ssh {
namespace {

namespace agent = plm::agent;
using tessera::mca::report;
using tessera::mca::Severity;

/* What the remote side may print before the agent's status line (a chatty shell start-up file). */
constexpr size_t kMaxNoise = 64 * 1024;
/* How long an ssh client that failed to start the program gets to exit on its own. */
constexpr std::chrono::seconds kExitWait{5};

class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    ~UniqueFd() { reset(); }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }
    void reset(int fd = -1)
    {
        if (fd_ >= 0) {
            close(fd_);
        }
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

struct Handshake {
    enum class Outcome { kStatus, kClosed, kNoise, kError, kTimedOut, kAbandoned } outcome = Outcome::kError;
    agent::StartStatus status;
    std::vector<std::string> noise; /* lines before the status line */
    int error = 0;                  /* errno for kError */
};

/* Sends `frame` into the channel while reading ssh's stdout, one byte at a time so that nothing
 * after the status line (the program's output) is consumed. Gives up at `deadline`, or when the
 * spec's while_waiting, called every slice_ms (plm_ssh_wait_slice), asks to. */
Handshake handshake(int channel, int out, const std::string &frame, std::chrono::steady_clock::time_point deadline,
                    const mca_plm_base_proc_spec_t &spec, int slice_ms)
{
    Handshake h;
    size_t sent = 0;
    size_t noise_bytes = 0;
    std::string line;
    for (;;) {
        if (spec.while_waiting != nullptr && spec.while_waiting(spec.while_waiting_arg) != 0) {
            h.outcome = Handshake::Outcome::kAbandoned;
            return h;
        }
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            h.outcome = Handshake::Outcome::kTimedOut;
            return h;
        }
        pollfd fds[2] = {{out, POLLIN, 0}, {channel, POLLOUT, 0}};
        nfds_t count = sent < frame.size() ? 2 : 1;
        const int slice = static_cast<int>(std::min<long long>(left.count(), slice_ms));
        const int ready = poll(fds, count, slice);
        if (ready < 0) {
            if (errno == EINTR) {
                continue;
            }
            h.error = errno;
            return h;
        }
        if (ready == 0) {
            continue;
        }
        if (count == 2 && fds[1].revents != 0) {
            ssize_t n = send(channel, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0) {
                sent += static_cast<size_t>(n);
            } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
                /* The ssh client is gone or going: its stdout will end, and say how. */
                sent = frame.size();
            }
        }
        if (fds[0].revents == 0) {
            continue;
        }
        for (;;) {
            char c;
            ssize_t n = read(out, &c, 1);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0 && errno == EAGAIN) {
                break;
            }
            if (n < 0) {
                h.error = errno;
                return h;
            }
            if (n == 0) {
                h.outcome = Handshake::Outcome::kClosed;
                return h;
            }
            if (c != '\n') {
                line.push_back(c);
            } else if (auto status = agent::parse_status_line(line)) {
                h.outcome = Handshake::Outcome::kStatus;
                h.status = std::move(*status);
                return h;
            } else {
                h.noise.push_back(std::move(line));
                line.clear();
            }
            if (++noise_bytes > kMaxNoise) {
                h.outcome = Handshake::Outcome::kNoise;
                return h;
            }
        }
    }
}

/* Reaps an ssh client whose start failed: it is normally exiting already. */
mca_plm_base_exit_t reap_failed(pid_t pid, bool kill_now)
{
    auto deadline = std::chrono::steady_clock::now() + kExitWait;
    siginfo_t info{};
    if (kill_now) {
        kill(-pid, SIGKILL);
    }
    for (;;) {
        info = siginfo_t{};
        int rc = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG);
        if (rc != 0 || info.si_pid == pid) {
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            kill(-pid, SIGKILL);
            waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    mca_plm_base_exit_t e{};
    e.id = pid;
    if (info.si_pid == pid) {
        if (info.si_code == CLD_EXITED) {
            e.exited = 1;
            e.code = info.si_status;
        } else {
            e.signaled = 1;
            e.signal = info.si_status;
        }
    }
    return e;
}

/* What ssh said on stderr (when the caller gave us that pipe), for the error message. */
std::string drain_text(int fd)
{
    std::string text;
    if (fd < 0) {
        return text;
    }
    char buf[4096];
    ssize_t n;
    while (text.size() < 4096 && (n = read(fd, buf, sizeof buf)) > 0) {
        text.append(buf, static_cast<size_t>(n));
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
        text.pop_back();
    }
    for (char &c : text) {
        if (c == '\n' || c == '\r') {
            c = ' ';
        }
    }
    return text;
}

std::string seconds_text(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

std::string join(const std::vector<std::string> &words)
{
    std::string out;
    for (const std::string &w : words) {
        out += (out.empty() ? "" : " ") + w;
    }
    return out;
}

std::string current_dir()
{
    std::vector<char> buf(PATH_MAX);
    return getcwd(buf.data(), buf.size()) != nullptr ? std::string(buf.data()) : std::string();
}

/* The spec as the agent reads it; false (reported) when it cannot be valid there either. */
bool make_launch_spec(const mca_plm_base_proc_spec_t &spec, double kill_grace, agent::LaunchSpec *out)
{
    if (spec.argv == nullptr || spec.argv[0] == nullptr || spec.argv[0][0] == '\0') {
        report(Severity::Error, "plm ssh: cannot start a process without a program (empty argv)");
        return false;
    }
    for (const char *const *a = spec.argv; *a != nullptr; ++a) {
        out->argv.emplace_back(*a);
    }
    if (spec.env != nullptr) {
        for (const char *const *e = spec.env; *e != nullptr; ++e) {
            const char *eq = std::strchr(*e, '=');
            if (eq == nullptr || eq == *e) {
                report(Severity::Error, std::string("plm ssh: environment entry '") + *e + "' for '" +
                                            out->argv[0] + "' is not NAME=value");
                return false;
            }
            out->env.emplace_back(*e);
        }
    }
    if (spec.working_dir != nullptr) {
        out->working_dir = spec.working_dir;
        out->working_dir_required = true;
    } else {
        /* As with fork: the launcher's directory — when the other host has it. */
        out->working_dir = current_dir();
        out->working_dir_required = false;
    }
    out->kill_grace = kill_grace;
    return true;
}

} // namespace

int Launcher::spawn_remote(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child)
{
    const std::string host = spec.host;
    if (!host_is_usable(host)) {
        report(Severity::Error, "plm ssh: '" + host + "' is not a host name ssh can be given");
        return TESSERA_ERR_BAD_PARAM;
    }
    agent::LaunchSpec launch;
    if (!make_launch_spec(spec, settings_.kill_grace, &launch)) {
        return TESSERA_ERR_BAD_PARAM;
    }
    /* Our own copy of the caller's stdin pipe: the caller closes its one after spawn(). */
    UniqueFd input;
    if ((spec.flags & MCA_PLM_SPAWN_STDIN_FD) != 0 && spec.stdin_fd >= 0) {
        input.reset(fcntl(spec.stdin_fd, F_DUPFD_CLOEXEC, 3));
        if (input.get() < 0) {
            int e = errno;
            report(Severity::Error, "plm ssh: cannot start '" + launch.argv[0] + "' on host '" + host +
                                        "': cannot keep its stdin (stdin_fd " + std::to_string(spec.stdin_fd) +
                                        "): " + strerror(e));
            return plm::error_code_for_errno(e);
        }
        launch.forward_stdin = true;
    }
    const std::string frame = agent::encode_spec(launch);

    /* The ssh client itself: the launcher's environment, no secrets in its arguments. */
    std::vector<std::string> command = remote_command(settings_.agent_words, host, settings_.remote_agent_path);
    std::vector<const char *> command_argv;
    for (const std::string &w : command) {
        command_argv.push_back(w.c_str());
    }
    command_argv.push_back(nullptr);
    mca_plm_base_proc_spec_t ssh_spec{};
    ssh_spec.argv = command_argv.data();
    ssh_spec.flags =
        MCA_PLM_SPAWN_PIPE_STDOUT | (spec.flags & (MCA_PLM_SPAWN_PIPE_STDERR | MCA_PLM_SPAWN_DIE_WITH_LAUNCHER));
    plm::ExecPlan plan;
    int rc = plm::prepare_exec(ssh_spec, "plm ssh", &plan);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }

    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        int err = errno;
        report(Severity::Error, "plm ssh: cannot start '" + launch.argv[0] + "' on host '" + host +
                                    "': socketpair: " + strerror(err));
        return plm::error_code_for_errno(err);
    }
    UniqueFd channel(pair[0]);
    UniqueFd agent_stdin(pair[1]);
    plan.stdin_fd = agent_stdin.get();
    /* No controlling terminal: a password prompt fails instead of stopping a background ssh forever. */
    plan.new_session = true;
    plm::Started started;
    rc = plm::fork_exec(plan, &started);
    agent_stdin.reset();
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    UniqueFd out(started.stdout_fd);
    UniqueFd err(started.stderr_fd);

    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(settings_.start_timeout));
    const int slice_ms = std::max(1, static_cast<int>(std::lround(settings_.wait_slice * 1000.0)));
    Handshake h = handshake(channel.get(), out.get(), frame, deadline, spec, slice_ms);
    for (const std::string &line : h.noise) {
        report(Severity::Warning, "plm ssh: host '" + host + "' printed before the launch agent started: " + line);
    }
    if (h.outcome == Handshake::Outcome::kStatus && h.status.started) {
        *child = mca_plm_base_child_t{};
        child->id = started.pid;
        child->stdout_fd = -1;
        if (spec.flags & MCA_PLM_SPAWN_PIPE_STDOUT) {
            child->stdout_fd = out.release();
        } else if (!relay_.add(out.get(), STDOUT_FILENO)) {
            report(Severity::Warning, "plm ssh: cannot relay the output of '" + launch.argv[0] + "' on host '" +
                                          host + "' (no relay thread); it is discarded");
        } else {
            out.release();
        }
        child->stderr_fd = err.release();
        child->exit_fd = children_.add(started.pid, channel.release());
        if (input.get() >= 0) {
            if (input_.add(started.pid, input.get())) {
                input.release();
            } else {
                report(Severity::Warning, "plm ssh: cannot forward stdin to '" + launch.argv[0] + "' on host '" +
                                              host + "' (no relay thread); it reads an empty input");
                children_.send_to_agent(started.pid, agent::encode_input_end());
            }
        }
        return TESSERA_SUCCESS;
    }

    /* It did not start: close the channel, reap the ssh client, and say why. */
    channel.reset();
    const bool kill_now = h.outcome != Handshake::Outcome::kStatus && h.outcome != Handshake::Outcome::kClosed;
    mca_plm_base_exit_t ended = reap_failed(started.pid, kill_now);
    std::string ssh_said = drain_text(err.get());
    std::string said = ssh_said.empty() ? "" : ": " + ssh_said;
    const std::string where = "plm ssh: cannot start '" + launch.argv[0] + "' on host '" + host + "'";

    if (h.outcome == Handshake::Outcome::kAbandoned) {
        return TESSERA_ERR_TIMEOUT; /* the caller asked for it and knows why */
    }
    if (h.outcome == Handshake::Outcome::kTimedOut) {
        report(Severity::Error, where + ": the launch agent did not answer within " + seconds_text(settings_.start_timeout) +
                                    " s (plm_ssh_start_timeout)" + said);
        return TESSERA_ERR_TIMEOUT;
    }
    if (h.outcome == Handshake::Outcome::kStatus) {
        report(Severity::Error, where + ": " + h.status.message);
        return h.status.code;
    }
    if (h.outcome == Handshake::Outcome::kNoise) {
        report(Severity::Error, where + ": no answer from the launch agent among " + std::to_string(kMaxNoise) +
                                    " bytes the host printed");
        return TESSERA_ERROR;
    }
    if (h.outcome == Handshake::Outcome::kError) {
        report(Severity::Error, where + ": reading the ssh client's output: " + strerror(h.error));
        return TESSERA_ERROR;
    }
    if (ended.exited && ended.code == 255) {
        report(Severity::Error, where + ": '" + join(settings_.agent_words) + "' could not reach it (exit status 255)" +
                                    said);
        return TESSERA_ERR_UNREACH;
    }
    if (ended.exited && (ended.code == 126 || ended.code == 127)) {
        report(Severity::Error, where + ": the launch agent '" + settings_.remote_agent_path + "' " +
                                    (ended.code == 127 ? "is not there" : "cannot be executed there") +
                                    " (exit status " + std::to_string(ended.code) +
                                    "; see plm_ssh_remote_agent_path)" + said);
        return ended.code == 127 ? TESSERA_ERR_NOT_FOUND : TESSERA_ERROR;
    }
    report(Severity::Error, where + ": the launch agent did not answer ('" + join(command) + "' ended with " +
                                plm::describe_exit(ended) + ")" + said);
    return TESSERA_ERROR;
}

} // namespace tessera::orte::plm_ssh
