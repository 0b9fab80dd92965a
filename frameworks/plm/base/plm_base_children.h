/*
 * plm base: the children of one launcher, from spawn to the report of their exit — the module's wait,
 * signal and terminate_all, shared by the launchers whose children are local processes (fork, and ssh,
 * whose children are the local ssh clients).
 *
 * A child may have a control channel: the launcher's end of a socket that is the stdin of a remote
 * tessera_launch_agent (see plm_base_agent_protocol.h). Signals then travel through it to the remote
 * program, and the teardown closes it, which makes the agent stop the program with its own grace period.
 */
#ifndef TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_CHILDREN_H
#define TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_CHILDREN_H

#include <sys/types.h>

#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "frameworks/plm/plm.h"

namespace tessera::orte::plm {

class ChildTable {
public:
    /* kill_grace: seconds between SIGTERM and SIGKILL in terminate_all. */
    explicit ChildTable(double kill_grace) : kill_grace_(kill_grace) {}
    ChildTable(const ChildTable &) = delete;
    ChildTable &operator=(const ChildTable &) = delete;
    /* Terminates the children still running and closes every descriptor the table owns. */
    ~ChildTable();

    /*
     * Takes a started child (the leader of its own process group) into the table. control_fd, owned
     * from here on, is a socket to the child's launch agent, or -1. Returns the exit fd for
     * mca_plm_base_child_t.exit_fd (a pidfd owned by the table, or -1).
     */
    int add(pid_t pid, int control_fd = -1);

    /* The module's entry points (plm.h). */
    int wait(double timeout, mca_plm_base_exit_t *exit);
    int signal(int64_t id, int sig);
    int terminate_all();

    /* Input for a child's launch agent (plm ssh's stdin relay). Never blocks. */
    enum class AgentSend {
        kSent,   /* taken and all of it written to the channel */
        kQueued, /* taken; part of it waits for room in the channel (retry with an empty record) */
        kFull,   /* not taken: an earlier record still waits (what could be written of it was) */
        kGone,   /* no such child, or it has no open channel any more */
    };
    /* Writes `record` (a whole protocol record; empty: only push on what waits) behind what is still
     * unsent. Records are never interleaved with the signal records signal() sends. */
    AgentSend send_to_agent(pid_t pid, std::string_view record);

    /* Extra time a child behind a launch agent gets at teardown, beyond the grace period: the agent
     * applies the grace period itself on the other host, and its exit must still travel back. */
    static constexpr double kAgentMargin = 2.0;

private:
    struct Child {
        pid_t pid = -1;
        int exit_fd = -1;    /* pidfd, or -1 */
        int control_fd = -1; /* launch agent channel, or -1 (also once closed for the teardown) */
        bool behind_agent = false;
        std::string unsent; /* the rest of an input record the channel had no room for */
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
    void kill_groups_locked(int sig);
    /* Writes what is unsent of the child's last input record; false while some of it remains. */
    bool flush_locked(Child &c);

    const double kill_grace_;
    std::mutex mutex_;
    std::vector<Child> running_;
    std::deque<Exited> exited_; /* reaped, not yet reported by wait() */
};

} // namespace tessera::orte::plm

#endif
