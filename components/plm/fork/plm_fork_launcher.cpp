/* plm fork: bookkeeping of the children. Only our own children are reaped (waitid on each pid, never
 * on "any child"): mpirun and the tests have children of their own. */
#include "components/plm/fork/plm_fork_launcher.h"

#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <thread>

#include "components/plm/fork/plm_fork_exec.h"

namespace tessera::orte::plm_fork {
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

} // namespace

Launcher::~Launcher()
{
    terminate_all();
    for (Exited &e : exited_) {
        if (e.exit_fd >= 0) {
            close(e.exit_fd);
        }
    }
}

int Launcher::spawn(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child)
{
    ExecPlan plan;
    int rc = prepare_exec(spec, &plan);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    Started started;
    rc = fork_exec(plan, &started);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    Child c{started.pid, open_pidfd(started.pid)};
    {
        std::lock_guard lock(mutex_);
        running_.push_back(c);
    }
    *child = mca_plm_base_child_t{};
    child->id = started.pid;
    child->stdout_fd = started.stdout_fd;
    child->stderr_fd = started.stderr_fd;
    child->exit_fd = c.exit_fd;
    return TESSERA_SUCCESS;
}

void Launcher::reap_locked()
{
    for (auto it = running_.begin(); it != running_.end();) {
        siginfo_t info{};
        int rc = waitid(P_PID, static_cast<id_t>(it->pid), &info, WEXITED | WNOHANG);
        if (rc == 0 && info.si_pid == it->pid) {
            exited_.push_back({exit_from(info), it->exit_fd});
            it = running_.erase(it);
        } else if (rc != 0 && errno == ECHILD) {
            /* Someone else reaped it (a waitpid(-1) elsewhere in the process): its status is lost. */
            Exited e;
            e.exit.id = it->pid;
            e.exit_fd = it->exit_fd;
            exited_.push_back(e);
            it = running_.erase(it);
        } else {
            ++it;
        }
    }
}

bool Launcher::all_exited_locked()
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

void Launcher::signal_groups_locked(int sig)
{
    for (const Child &c : running_) {
        kill(-c.pid, sig);
    }
}

int Launcher::wait(double timeout, mca_plm_base_exit_t *exit)
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
                if (e.exit_fd >= 0) {
                    close(e.exit_fd);
                }
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

int Launcher::signal(int64_t id, int sig)
{
    std::lock_guard lock(mutex_);
    auto it = std::find_if(running_.begin(), running_.end(), [id](const Child &c) { return c.pid == id; });
    if (it == running_.end()) {
        return TESSERA_ERR_NOT_FOUND;
    }
    /* The child is at worst a zombie here (not reaped), so its pid still names its group. */
    if (kill(-it->pid, sig) != 0 && kill(it->pid, sig) != 0) {
        return errno == EINVAL ? TESSERA_ERR_BAD_PARAM : TESSERA_ERROR;
    }
    return TESSERA_SUCCESS;
}

int Launcher::terminate_all()
{
    {
        std::lock_guard lock(mutex_);
        if (running_.empty()) {
            return TESSERA_SUCCESS;
        }
        signal_groups_locked(SIGTERM);
        /* A stopped process handles SIGTERM only once it runs again. */
        signal_groups_locked(SIGCONT);
    }
    const auto deadline = deadline_after(kill_grace_);
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (all_exited_locked() || Clock::now() >= deadline) {
                /* Leaders are zombies or alive, never reaped yet: the group ids are still theirs.
                 * SIGKILL also reaches what a rank started and left behind in its group. */
                signal_groups_locked(SIGKILL);
                break;
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

} // namespace tessera::orte::plm_fork
