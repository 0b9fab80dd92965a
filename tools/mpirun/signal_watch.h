/*
 * mpirun's signals, read from a signalfd in the event loop instead of handlers: SIGINT, SIGTERM and
 * SIGHUP end the job, SIGUSR1/SIGUSR2 are forwarded to the ranks, SIGCHLD only wakes the loop. They are
 * blocked from the start of main, before any thread exists, so every thread inherits the mask and none
 * takes them; the plm unblocks and resets all signals in each child before exec. SIGPIPE is ignored
 * (a closed stdout must not kill mpirun and leave the ranks behind).
 */
#ifndef TESSERA_TOOLS_MPIRUN_SIGNAL_WATCH_H
#define TESSERA_TOOLS_MPIRUN_SIGNAL_WATCH_H

#include <vector>

namespace tessera::mpirun {

class SignalWatch {
public:
    /* Blocks the signals and opens the signalfd; fd() is -1 if that failed (then only the mask holds). */
    SignalWatch();
    SignalWatch(const SignalWatch &) = delete;
    SignalWatch &operator=(const SignalWatch &) = delete;
    ~SignalWatch();

    int fd() const { return fd_; }
    /* The signals received since the last call, in order. */
    std::vector<int> take();

    static bool ends_job(int sig);
    static bool is_forwarded(int sig);

private:
    int fd_ = -1;
};

} // namespace tessera::mpirun

#endif
