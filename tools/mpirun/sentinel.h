/*
 * The job's sentinel: a small process forked by mpirun before anything else of the job exists, which
 * outlives mpirun if it is killed outright (kill -9). mpirun tells it, through a pipe, the process
 * group of every rank it starts and of every rank it reaps; when the pipe closes without mpirun's
 * goodbye, the sentinel kills the groups still listed (the ranks' own children with them), waits for
 * them to go, and removes the job's /dev/shm entries — what mpirun's own teardown would have done.
 * The ranks also die with mpirun by themselves (MCA_PLM_SPAWN_DIE_WITH_LAUNCHER); the sentinel covers
 * what they started and the segments they leave.
 */
#ifndef TESSERA_TOOLS_MPIRUN_SENTINEL_H
#define TESSERA_TOOLS_MPIRUN_SENTINEL_H

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

namespace tessera::mpirun {

class Sentinel {
public:
    /* Forks the sentinel; must be called while mpirun has a single thread. nullptr and *error when it
     * cannot be started. settle_seconds (plm_base_sentinel_settle) bounds how long the sentinel waits
     * for killed groups to be gone before it sweeps /dev/shm anyway, and how long mpirun waits for a
     * sentinel told goodbye: waits that normally take milliseconds. */
    static std::unique_ptr<Sentinel> start(uint32_t jobid, double settle_seconds, std::string *error);
    Sentinel(const Sentinel &) = delete;
    Sentinel &operator=(const Sentinel &) = delete;
    /* Says goodbye (nothing to clean up) and reaps the sentinel. */
    ~Sentinel();

    void started(int64_t pgid) { tell('+', pgid); }
    void reaped(int64_t pgid) { tell('-', pgid); }

private:
    Sentinel(pid_t pid, int fd, double settle) : pid_(pid), fd_(fd), settle_(settle) {}
    void tell(char what, int64_t pgid);

    pid_t pid_;
    int fd_; /* write end; close-on-exec, so that no rank holds the pipe open */
    double settle_;
};

} // namespace tessera::mpirun

#endif
