#include "signal_watch.h"

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>

namespace tessera::mpirun {

SignalWatch::SignalWatch()
{
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2}) {
        sigaddset(&set, sig);
    }
    /* Under nohup SIGHUP is ignored on purpose: keep it so. */
    struct sigaction old {};
    if (sigaction(SIGHUP, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) {
        sigaddset(&set, SIGHUP);
    }
    /* A background job of a non-interactive shell starts with SIGINT ignored; mpirun still wants it
     * (blocked signals are queued whatever their disposition, but say so explicitly). */
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &dfl, nullptr);
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, nullptr);

    sigprocmask(SIG_BLOCK, &set, nullptr);
    fd_ = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

SignalWatch::~SignalWatch()
{
    if (fd_ >= 0) {
        close(fd_);
    }
}

std::vector<int> SignalWatch::take()
{
    std::vector<int> out;
    if (fd_ < 0) {
        return out;
    }
    signalfd_siginfo info[16];
    for (;;) {
        ssize_t n = read(fd_, info, sizeof info);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        for (size_t i = 0; i < static_cast<size_t>(n) / sizeof info[0]; ++i) {
            out.push_back(static_cast<int>(info[i].ssi_signo));
        }
    }
    return out;
}

bool SignalWatch::ends_job(int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP; }

bool SignalWatch::is_forwarded(int sig) { return sig == SIGUSR1 || sig == SIGUSR2; }

} // namespace tessera::mpirun
