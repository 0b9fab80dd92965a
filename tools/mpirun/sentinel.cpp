#include "sentinel.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

#include "proc_state.h"
#include "shm_sweep.h"

namespace tessera::mpirun {
namespace {

constexpr std::chrono::milliseconds kPoll{10};

/* Killed: no member left, or the leader already exiting or dead but not reaped (its parent, mpirun,
 * is gone, and init has not reaped it yet); a process that far in its exit creates no segment. */
bool group_gone(pid_t pgid)
{
    return (kill(-pgid, 0) != 0 && errno == ESRCH) || process_dying(pgid);
}

[[noreturn]] void watch(int fd, uint32_t jobid, std::chrono::duration<double> settle)
{
    std::set<pid_t> groups;
    std::string line;
    bool goodbye = false;
    char buf[256];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        for (ssize_t i = 0; i < n; ++i) {
            if (buf[i] != '\n') {
                line.push_back(buf[i]);
                continue;
            }
            if (line == "end") {
                goodbye = true;
            } else if (line.size() > 1) {
                const pid_t pgid = static_cast<pid_t>(std::strtol(line.c_str() + 1, nullptr, 10));
                if (pgid > 1 && line[0] == '+') {
                    groups.insert(pgid);
                } else if (pgid > 1) {
                    groups.erase(pgid);
                }
            }
            line.clear();
        }
    }
    if (goodbye) {
        _exit(0);
    }
    for (pid_t g : groups) {
        kill(-g, SIGKILL);
    }
    const auto until = std::chrono::steady_clock::now() + settle;
    for (auto it = groups.begin(); it != groups.end() && std::chrono::steady_clock::now() < until;) {
        if (group_gone(*it)) {
            it = groups.erase(it);
        } else {
            std::this_thread::sleep_for(kPoll);
        }
    }
    sweep_shm(jobid);
    _exit(0);
}

} // namespace

std::unique_ptr<Sentinel> Sentinel::start(uint32_t jobid, double settle_seconds, std::string *error)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        *error = std::string("cannot start the job's sentinel: pipe: ") + std::strerror(errno);
        return nullptr;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        *error = std::string("cannot start the job's sentinel: fork: ") + std::strerror(errno);
        close(fds[0]);
        close(fds[1]);
        return nullptr;
    }
    if (pid == 0) {
        /* Its own process group: a Ctrl-C at the terminal is mpirun's to handle, not the sentinel's
         * (mpirun's blocked signals stay blocked here, too). Nothing of mpirun's stays open but the
         * pipe: a socket of the wire-up service held here would outlive mpirun. */
        setpgid(0, 0);
        close(fds[1]);
        if (fds[0] != 3 && dup2(fds[0], 3) != 3) {
            _exit(1);
        }
        close_range(4, ~0U, 0);
        /* Nor mpirun's output: a pipe held here would keep mpirun's reader waiting. */
        const int null = open("/dev/null", O_RDWR);
        for (int std_fd = 0; null >= 0 && std_fd <= 2; ++std_fd) {
            dup2(null, std_fd);
        }
        watch(3, jobid, std::chrono::duration<double>(settle_seconds));
    }
    close(fds[0]);
    return std::unique_ptr<Sentinel>(new Sentinel(pid, fds[1], settle_seconds));
}

void Sentinel::tell(char what, int64_t pgid)
{
    const std::string line = what + std::to_string(pgid) + "\n";
    /* A line is far below PIPE_BUF: written whole or not at all. */
    (void)!write(fd_, line.data(), line.size());
}

Sentinel::~Sentinel()
{
    (void)!write(fd_, "end\n", 4);
    close(fd_);
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(settle_);
    while (waitpid(pid_, nullptr, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= until) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
            break;
        }
        std::this_thread::sleep_for(kPoll);
    }
}

} // namespace tessera::mpirun
