/* Run-delay sampling behind cpu_contended() (pml_contention.h). */
#include "ompi/pml/pml_contention.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "ompi/pml/pml_engine.h"

namespace tessera::ompi::pml {

namespace {

struct Sampler {
    int fd = -1;
    int64_t window_start_ns = 0;
    uint64_t delay_at_start = 0;
    double share = 0.0;
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
    if (sampler.fd >= 0 && !read_delay(sampler.fd, &sampler.delay_at_start)) {
        close(sampler.fd);
        sampler.fd = -1;
    }
    sampler.window_start_ns = now_ns();
}

void contention_finalize()
{
    if (sampler.fd >= 0) {
        close(sampler.fd);
    }
    sampler = Sampler{};
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
    const int64_t elapsed = now - sampler.window_start_ns;
    if (static_cast<double>(elapsed) < params.contention_window * 1e9) {
        return sampler.share;
    }
    uint64_t delay = 0;
    if (!read_delay(sampler.fd, &delay)) {
        return sampler.share;
    }
    sampler.share = static_cast<double>(delay - sampler.delay_at_start) / static_cast<double>(elapsed);
    sampler.window_start_ns = now;
    sampler.delay_at_start = delay;
    return sampler.share;
}

bool cpu_contended()
{
    if (oversubscribed || params.contention_threshold <= 0.0) {
        return true;
    }
    return run_delay_share() >= params.contention_threshold;
}

} // namespace tessera::ompi::pml
