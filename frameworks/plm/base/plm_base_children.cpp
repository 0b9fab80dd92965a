/* plm base: bookkeeping of a launcher's children. Only our own children are reaped (waitid on each pid,
 * never on "any child"): mpirun and the tests have children of their own. */
#include "frameworks/plm/base/plm_base_children.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "frameworks/plm/base/plm_base_agent_protocol.h"

namespace tessera::orte::plm {
namespace {

using Clock = std::chrono::steady_clock;

int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    long fd = syscall(SYS_pidfd_open, pid, 0);
    return fd < 0 ? -1 : static_cast<int>(fd);
#else
    (void)pid;
    return -1;
#endif
}

mca_plm_base_exit_t exit_from(const siginfo_t &info)
{
    mca_plm_base_exit_t e{};
    e.id = info.si_pid;
    switch (info.si_code) {
    case CLD_EXITED:
        e.exited = 1;
        e.code = info.si_status;
        break;
    case CLD_DUMPED:
        e.core_dumped = 1;
        [[fallthrough]];
    default: /* CLD_KILLED */
        e.signaled = 1;
        e.signal = info.si_status;
        break;
    }
    return e;
}

Clock::time_point deadline_after(double seconds)
{
    auto d = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    return Clock::now() + d;
}

void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* MSG_NOSIGNAL: an agent whose connection died must not take the launcher down with SIGPIPE. */
bool send_all(int fd, const std::string &bytes)
{
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

} // namespace

ChildTable::~ChildTable()
{
    terminate_all();
    for (Exited &e : exited_) {
        close_fd(&e.exit_fd);
    }
}

int ChildTable::add(pid_t pid, int control_fd)
{
    Child c{pid, open_pidfd(pid), control_fd, control_fd >= 0, {}};
    std::lock_guard lock(mutex_);
    running_.push_back(c);
    return c.exit_fd;
}

void ChildTable::reap_locked()
{
    for (auto it = running_.begin(); it != running_.end();) {
        siginfo_t info{};
        int rc = waitid(P_PID, static_cast<id_t>(it->pid), &info, WEXITED | WNOHANG);
        if (rc == 0 && info.si_pid == it->pid) {
            exited_.push_back({exit_from(info), it->exit_fd});
            close_fd(&it->control_fd);
            it = running_.erase(it);
        } else if (rc != 0 && errno == ECHILD) {
            /* Someone else reaped it (a waitpid(-1) elsewhere in the process): its status is lost. */
            Exited e;
            e.exit.id = it->pid;
            e.exit_fd = it->exit_fd;
            exited_.push_back(e);
            close_fd(&it->control_fd);
            it = running_.erase(it);
        } else {
            ++it;
        }
    }
}

bool ChildTable::all_exited_locked()
{
    for (const Child &c : running_) {
        siginfo_t info{};
        int rc = waitid(P_PID, static_cast<id_t>(c.pid), &info, WEXITED | WNOHANG | WNOWAIT);
        if (rc == 0 && info.si_pid == 0) {
            return false;
        }
    }
    return true;
}

void ChildTable::kill_groups_locked(int sig)
{
    for (const Child &c : running_) {
        kill(-c.pid, sig);
    }
}

int ChildTable::wait(double timeout, mca_plm_base_exit_t *exit)
{
    const bool forever = timeout < 0 || std::isinf(timeout);
    const auto deadline = forever ? Clock::time_point::max() : deadline_after(timeout);
    for (;;) {
        std::vector<pollfd> fds;
        bool all_have_fds = true;
        {
            std::lock_guard lock(mutex_);
            reap_locked();
            if (!exited_.empty()) {
                Exited e = exited_.front();
                exited_.pop_front();
                close_fd(&e.exit_fd);
                *exit = e.exit;
                return TESSERA_SUCCESS;
            }
            if (running_.empty()) {
                return TESSERA_ERR_NOT_FOUND;
            }
            for (const Child &c : running_) {
                if (c.exit_fd < 0) {
                    all_have_fds = false;
                }
                fds.push_back({c.exit_fd, POLLIN, 0});
            }
        }
        auto now = Clock::now();
        if (now >= deadline) {
            return TESSERA_ERR_TIMEOUT;
        }
        /* Without pidfds (old kernels) we look again every few milliseconds; with them poll() wakes
         * us at the exit. The slice also bounds the wait for a child spawned by another thread. */
        auto slice = std::chrono::milliseconds(all_have_fds ? 100 : 5);
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) +
                    std::chrono::milliseconds(1);
        int ms = static_cast<int>(std::min(slice, left).count());
        if (all_have_fds) {
            poll(fds.data(), fds.size(), ms);
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        }
    }
}

int ChildTable::signal(int64_t id, int sig)
{
    std::lock_guard lock(mutex_);
    auto it = std::find_if(running_.begin(), running_.end(), [id](const Child &c) { return c.pid == id; });
    if (it == running_.end()) {
        return TESSERA_ERR_NOT_FOUND;
    }
    if (sig <= 0 || sig >= NSIG) {
        return TESSERA_ERR_BAD_PARAM;
    }
    /* Behind a launch agent the signal is for the remote program, not for the local ssh client. Only
     * when the channel is closed or full (or for SIGKILL, which must act even if the agent does not) is
     * the local group signalled: that ends the ssh client, and the agent, seeing its channel end, stops
     * the program. */
    if (it->control_fd >= 0) {
        /* Behind a partly sent input record the channel counts as full. */
        bool sent = flush_locked(*it) && send_all(it->control_fd, agent::encode_signal(sig));
        if (sent && sig != SIGKILL) {
            return TESSERA_SUCCESS;
        }
    }
    /* The child is at worst a zombie here (not reaped), so its pid still names its group. */
    if (kill(-it->pid, sig) != 0 && kill(it->pid, sig) != 0) {
        return errno == EINVAL ? TESSERA_ERR_BAD_PARAM : TESSERA_ERROR;
    }
    return TESSERA_SUCCESS;
}

bool ChildTable::flush_locked(Child &c)
{
    while (!c.unsent.empty()) {
        ssize_t n = send(c.control_fd, c.unsent.data(), c.unsent.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        c.unsent.erase(0, static_cast<size_t>(n));
    }
    return true;
}

ChildTable::AgentSend ChildTable::send_to_agent(pid_t pid, std::string_view record)
{
    std::lock_guard lock(mutex_);
    auto it = std::find_if(running_.begin(), running_.end(), [pid](const Child &c) { return c.pid == pid; });
    if (it == running_.end() || it->control_fd < 0) {
        return AgentSend::kGone;
    }
    /* flush_locked fails with EAGAIN when the channel is full; anything else means the ssh client
     * is gone (its exit is reported through wait()). */
    if (!flush_locked(*it)) {
        return errno == EAGAIN || errno == EWOULDBLOCK ? AgentSend::kFull : AgentSend::kGone;
    }
    if (record.empty()) {
        return AgentSend::kSent;
    }
    it->unsent.assign(record);
    if (flush_locked(*it)) {
        return AgentSend::kSent;
    }
    return errno == EAGAIN || errno == EWOULDBLOCK ? AgentSend::kQueued : AgentSend::kGone;
}

int ChildTable::terminate_all()
{
    bool any_agent = false;
    {
        std::lock_guard lock(mutex_);
        if (running_.empty()) {
            return TESSERA_SUCCESS;
        }
        for (Child &c : running_) {
            if (c.behind_agent) {
                /* End-of-file on the agent's stdin: it sends SIGTERM, then SIGKILL after the grace
                 * period it was given, and exits with the program's status. */
                close_fd(&c.control_fd);
                any_agent = true;
            } else {
                kill(-c.pid, SIGTERM);
                /* A stopped process handles SIGTERM only once it runs again. */
                kill(-c.pid, SIGCONT);
            }
        }
    }
    const auto local_deadline = deadline_after(kill_grace_);
    const auto last_deadline = deadline_after(kill_grace_ + (any_agent ? kAgentMargin : 0.0));
    bool locals_killed = false;
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            auto now = Clock::now();
            if (all_exited_locked() || now >= last_deadline) {
                /* Leaders are zombies or alive, never reaped yet: the group ids are still theirs.
                 * SIGKILL also reaches what a rank started and left behind in its group, and an ssh
                 * client whose agent did not answer (its end of the connection then closes). */
                kill_groups_locked(SIGKILL);
                break;
            }
            if (!locals_killed && now >= local_deadline) {
                for (const Child &c : running_) {
                    if (!c.behind_agent) {
                        kill(-c.pid, SIGKILL);
                    }
                }
                locals_killed = true;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            reap_locked();
            if (running_.empty()) {
                return TESSERA_SUCCESS;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

} // namespace tessera::orte::plm
