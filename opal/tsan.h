/*
 * Ordering that passes through another process, told to ThreadSanitizer. Memory shared between
 * processes is handed back and forth with atomics whose other half runs in the peer process, which TSan
 * cannot see: to it, two threads of this process that write the same shared bytes one after the other
 * (each after the peer gave them back) race. `release` marks what this thread did to `object` before
 * handing it to the peer; `acquire` the moment it comes back. In other builds both are empty.
 * And a full memory fence that the TSan build compiles too.
 */
#ifndef TESSERA_OPAL_TSAN_H
#define TESSERA_OPAL_TSAN_H

#if defined(__SANITIZE_THREAD__)
#define TESSERA_OPAL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TESSERA_OPAL_TSAN 1
#endif
#endif

#include <atomic>

#ifdef TESSERA_OPAL_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace tessera::opal {

inline void tsan_release([[maybe_unused]] void *object)
{
#ifdef TESSERA_OPAL_TSAN
    __tsan_release(object);
#endif
}

inline void tsan_acquire([[maybe_unused]] void *object)
{
#ifdef TESSERA_OPAL_TSAN
    __tsan_acquire(object);
#endif
}

/* A full memory barrier (sequentially consistent). GCC refuses a bare atomic_thread_fence under
 * -fsanitize=thread; there a sequentially consistent read-modify-write stands in for it, which TSan
 * models and which x86 executes as a full barrier too. */
inline void full_fence()
{
#ifdef TESSERA_OPAL_TSAN
    static std::atomic<unsigned> word{0};
    word.fetch_add(1, std::memory_order_seq_cst);
#else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

} // namespace tessera::opal

#endif
