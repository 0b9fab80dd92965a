/*
 * Whether this process runs MPI from several threads at once, and the locks that cost nothing when it
 * does not. The flag is set once, by MPI_Init_thread, before a second thread can enter the library: when
 * MPI_THREAD_MULTIPLE is provided or a progress thread runs. Below that every lock here is one
 * predictable branch, so a single-threaded program pays neither an atomic nor a fence (docs/threads.md).
 */
#ifndef TESSERA_OPAL_THREADS_H
#define TESSERA_OPAL_THREADS_H

#include <mutex>

namespace tessera::opal {

namespace detail {
extern bool using_threads; /* opal/threads.cpp; written only by set_using_threads */
}

inline bool using_threads()
{
    return __builtin_expect(detail::using_threads, false);
}

/* Called by MPI_Init_thread before the application or a progress thread can call in concurrently, and by
 * MPI_Finalize after they have stopped. */
void set_using_threads(bool on);

/*
 * A mutex that is taken only when using_threads(): std::lock_guard, std::unique_lock and std::scoped_lock
 * work with it. The flag must not change while one is held (it changes only at initialization and
 * finalization, when no other thread is in the library).
 */
class Mutex {
public:
    void lock()
    {
        if (using_threads()) {
            mutex_.lock();
        }
    }
    bool try_lock()
    {
        return !using_threads() || mutex_.try_lock();
    }
    void unlock()
    {
        if (using_threads()) {
            mutex_.unlock();
        }
    }

private:
    std::mutex mutex_;
};

using LockGuard = std::lock_guard<Mutex>;

} // namespace tessera::opal

#endif
