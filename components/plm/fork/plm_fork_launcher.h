/* plm fork: the children of one launcher, from spawn to the report of their exit. */
#ifndef TESSERA_COMPONENTS_PLM_FORK_PLM_FORK_LAUNCHER_H
#define TESSERA_COMPONENTS_PLM_FORK_PLM_FORK_LAUNCHER_H

#include <sys/types.h>

#include <deque>
#include <mutex>
#include <vector>

#include "frameworks/plm/plm.h"

namespace tessera::orte::plm_fork {

class Launcher {
public:
    explicit Launcher(double kill_grace) : kill_grace_(kill_grace) {}
    Launcher(const Launcher &) = delete;
    Launcher &operator=(const Launcher &) = delete;
    /* Terminates the children still running and closes every descriptor the launcher owns. */
    ~Launcher();

    int spawn(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child);
    int wait(double timeout, mca_plm_base_exit_t *exit);
    int signal(int64_t id, int sig);
    int terminate_all();

private:
    struct Child {
        pid_t pid = -1;
        int exit_fd = -1; /* pidfd, or -1 */
    };
    struct Exited {
        mca_plm_base_exit_t exit{};
        int exit_fd = -1;
    };

    /* Reaps the running children that have exited (never blocks); caller holds mutex_. */
    void reap_locked();
    /* Whether every running child has exited, without reaping them (so their pids, which are also
     * their process group ids, cannot be reused while we still signal the groups). */
    bool all_exited_locked();
    void signal_groups_locked(int sig);

    const double kill_grace_;
    std::mutex mutex_;
    std::vector<Child> running_;
    std::deque<Exited> exited_; /* reaped, not yet reported by wait() */
};

} // namespace tessera::orte::plm_fork

#endif
