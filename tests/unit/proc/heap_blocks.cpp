// Counts the heap blocks the process holds, by standing in for malloc and friends in this test
// executable (the dynamic linker binds libmpi's and libstdc++'s calls here too). mallinfo2() cannot
// answer "was everything freed?": blocks parked in glibc's per-thread cache count as in use.
#include "heap_blocks.h"

#include <atomic>
#include <cstddef>

#ifdef TESSERA_TEST_SANITIZER
// A sanitizer intercepts malloc itself and hands out blocks from its own allocator (strdup, operator
// new): a stand-in malloc here would free those with glibc's free. LeakSanitizer checks for leaks
// at exit instead, over the whole process.
long heap_blocks_live() { return 0; }
bool heap_blocks_counted() { return false; }
const char *heap_blocks_why_not()
{
    return "malloc belongs to the sanitizer of this build (TESSERA_SANITIZE=" TESSERA_TEST_SANITIZER
           "); LeakSanitizer checks for leaks at exit instead";
}
#else

extern "C" {
void *__libc_malloc(std::size_t size);
void *__libc_calloc(std::size_t count, std::size_t size);
void *__libc_realloc(void *block, std::size_t size);
void __libc_free(void *block);
}

namespace {
std::atomic<long> g_live_blocks{0};
}

long heap_blocks_live() { return g_live_blocks.load(); }
bool heap_blocks_counted() { return true; }
const char *heap_blocks_why_not() { return ""; }

extern "C" {

void *malloc(std::size_t size)
{
    void *block = __libc_malloc(size);
    if (block != nullptr) {
        g_live_blocks.fetch_add(1, std::memory_order_relaxed);
    }
    return block;
}

void *calloc(std::size_t count, std::size_t size)
{
    void *block = __libc_calloc(count, size);
    if (block != nullptr) {
        g_live_blocks.fetch_add(1, std::memory_order_relaxed);
    }
    return block;
}

void *realloc(void *old, std::size_t size)
{
    void *block = __libc_realloc(old, size);
    if (old == nullptr && block != nullptr) {
        g_live_blocks.fetch_add(1, std::memory_order_relaxed);
    } else if (old != nullptr && size == 0 && block == nullptr) {
        g_live_blocks.fetch_sub(1, std::memory_order_relaxed); // glibc frees on realloc(p, 0)
    }
    return block;
}

void free(void *block)
{
    if (block != nullptr) {
        g_live_blocks.fetch_sub(1, std::memory_order_relaxed);
    }
    __libc_free(block);
}

} // extern "C"
#endif
