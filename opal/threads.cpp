#include "opal/threads.h"

#include <sched.h>

namespace tessera::opal {

namespace detail {
bool using_threads = false;
}

void set_using_threads(bool on)
{
    detail::using_threads = on;
}

void SpinLock::spin_contended()
{
    /* Pauses between looks (read-only, so that waiters do not take the line from the holder), and every
     * 64 looks the CPU: critical sections under this lock are a few hundred instructions, so a holder that
     * has not let go after that many is most likely descheduled, and may be waiting for this very core. */
    constexpr int kLooksBeforeYield = 64;
    int looks = 0;
    for (;;) {
        while (held_.load(std::memory_order_relaxed)) {
            cpu_relax();
            if (++looks >= kLooksBeforeYield) {
                looks = 0;
                sched_yield();
            }
        }
        if (!held_.exchange(true, std::memory_order_acquire)) {
            return;
        }
    }
}

} // namespace tessera::opal
