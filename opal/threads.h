/*
 * Whether this process runs MPI from several threads at once, and the locks that cost nothing when it
 * does not. The flag is set once, by MPI_Init_thread, before a second thread can enter the library: when
 * MPI_THREAD_MULTIPLE is provided or a progress thread runs. Below that every lock here is one
 * predictable branch, so a single-threaded program pays neither an atomic nor a fence (docs/threads.md).
 */
#ifndef TESSERA_OPAL_THREADS_H
#define TESSERA_OPAL_THREADS_H

#include <atomic>
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

/* A spinning waiter's hint to the core (x86 pause: the sibling hyperthread gets the pipeline). */
inline void cpu_relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

/*
 * A lock for short critical sections on hot paths (a communicator's matching): taking it is one atomic
 * exchange and letting go a plain store-release, where a pthread mutex costs two calls and two
 * read-modify-writes. A waiter spins with the CPU's pause hint and gives up the CPU every so often
 * (spin_contended), since the holder may be a preempted thread of the same core. Unconditional: callers
 * that must cost nothing below MULTIPLE use SpinMutex.
 */
class SpinLock {
public:
    void lock()
    {
        if (held_.exchange(true, std::memory_order_acquire)) [[unlikely]] {
            spin_contended();
        }
    }
    bool try_lock()
    {
        return !held_.load(std::memory_order_relaxed) && !held_.exchange(true, std::memory_order_acquire);
    }
    void unlock() { held_.store(false, std::memory_order_release); }

private:
    void spin_contended();
    std::atomic<bool> held_{false};
};

/* A SpinLock taken only when using_threads(), like Mutex. */
class SpinMutex {
public:
    void lock()
    {
        if (using_threads()) {
            lock_.lock();
        }
    }
    bool try_lock() { return !using_threads() || lock_.try_lock(); }
    void unlock()
    {
        if (using_threads()) {
            lock_.unlock();
        }
    }

private:
    SpinLock lock_;
};

} // namespace tessera::opal

#endif
