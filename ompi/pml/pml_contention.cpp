/* Run-delay sampling behind cpu_contended() (pml_contention.h). */
#include "ompi/pml/pml_contention.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "ompi/pml/pml_engine.h"
#include "opal/threads.h"

namespace tessera::ompi::pml {

namespace {

/* Any waiting thread may sample (yield_wanted, the single-copy choice), so under MPI_THREAD_MULTIPLE
 * several at once: the window is refreshed by one thread at a time (a try-lock: the others use the
 * last share), and the fields are atomics that the others read relaxed, since a share a window old is
 * as good an answer. Below MULTIPLE the lock is a branch and the relaxed accesses plain moves. */
struct Sampler {
    int fd = -1; /* set by contention_init/finalize only, while no other thread is in the library */
    std::atomic<int64_t> window_start_ns{0};
    std::atomic<uint64_t> delay_at_start{0};
    std::atomic<double> share{0.0};
    opal::Mutex refreshing;
};
Sampler sampler;

int64_t now_ns()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

/* schedstat holds "<ns on cpu> <ns waiting on a runqueue> <timeslices>". */
bool read_delay(int fd, uint64_t *ns)
{
    char text[96];
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0) {
        return false;
    }
    text[n] = '\0';
    char *end = nullptr;
    std::strtoull(text, &end, 10);
    if (end == text || *end != ' ') {
        return false;
    }
    const char *second = end;
    *ns = std::strtoull(second, &end, 10);
    return end != second;
}

} // namespace

void contention_init()
{
    contention_finalize();
    /* Kernels without CONFIG_SCHED_INFO have no schedstat: then only oversubscription counts. */
    sampler.fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    uint64_t delay = 0;
    if (sampler.fd >= 0 && !read_delay(sampler.fd, &delay)) {
        close(sampler.fd);
        sampler.fd = -1;
    }
    sampler.delay_at_start.store(delay, std::memory_order_relaxed);
    sampler.window_start_ns.store(now_ns(), std::memory_order_relaxed);
}

void contention_finalize()
{
    if (sampler.fd >= 0) {
        close(sampler.fd);
    }
    sampler.fd = -1;
    sampler.window_start_ns.store(0, std::memory_order_relaxed);
    sampler.delay_at_start.store(0, std::memory_order_relaxed);
    sampler.share.store(0.0, std::memory_order_relaxed);
}

bool read_run_delay(uint64_t *ns)
{
    return sampler.fd >= 0 && read_delay(sampler.fd, ns);
}

double run_delay_share()
{
    if (sampler.fd < 0) {
        return 0.0;
    }
    const int64_t now = now_ns();
    const double window_ns = params.contention_window * 1e9;
    if (static_cast<double>(now - sampler.window_start_ns.load(std::memory_order_relaxed)) < window_ns) {
        return sampler.share.load(std::memory_order_relaxed);
    }
    const std::unique_lock refresh(sampler.refreshing, std::try_to_lock);
    /* Another thread is closing this window, or just did (its start is then later than our clock). */
    const int64_t elapsed = now - sampler.window_start_ns.load(std::memory_order_relaxed);
    uint64_t delay = 0;
    if (!refresh.owns_lock() || static_cast<double>(elapsed) < window_ns || !read_delay(sampler.fd, &delay)) {
        return sampler.share.load(std::memory_order_relaxed);
    }
    const double share =
        static_cast<double>(delay - sampler.delay_at_start.load(std::memory_order_relaxed)) / static_cast<double>(elapsed);
    sampler.share.store(share, std::memory_order_relaxed);
    sampler.window_start_ns.store(now, std::memory_order_relaxed);
    sampler.delay_at_start.store(delay, std::memory_order_relaxed);
    return share;
}

bool cpu_contended()
{
    if (oversubscribed || params.contention_threshold <= 0.0) {
        return true;
    }
    return run_delay_share() >= params.contention_threshold;
}

} // namespace tessera::ompi::pml
