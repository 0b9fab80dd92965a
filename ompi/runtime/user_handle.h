/*
 * Handles of the objects an application creates (communicators, groups, derived datatypes, ops,
 * error handlers, info objects, requests, messages, windows): the object's address with a generation
 * count in the bits above it. The MPI 5.0 ABI keeps every predefined handle below 0x1000, so a value
 * there is never a created object.
 *
 * Each such object lives in a slot of its kind's pool (HandlePool): a 16-byte header, then the object.
 * A pool never gives a slot back to malloc, so the header a stale handle points at stays readable,
 * and a new object of the same kind may reuse the slot. The header's stamp says which kind the slot
 * holds, the slot's generation and the state of the application's handle: open (valid), pending (an
 * MPI_Comm_idup result, whose handler, name and attributes only may be used) or closed (no valid
 * handle: no object, an object not yet handed out, or one whose handle was freed while the library
 * still holds it). Destroying the object (or, for requests, giving it back to the engine's free list)
 * moves the generation on. A handle carries the generation of its object in bits 48-63 (user addresses
 * on x86-64 and AArch64 are below 2^48), so a freed handle, or a copy of it, no longer matches its slot
 * even after a new object took the slot: lookup refuses it instead of reaching the new object.
 *
 * The generation has 16 bits (1 to 65535). A slot whose last generation has been used is retired: it
 * never holds an object again, so a stale handle can never name a later object of its slot. That costs
 * one slot per 65535 objects that came and went through it.
 *
 * Lookup is lock-free, one load and one compare of the stamp: the engine's fast path looks up the
 * communicator of every send and the request of every wait. Creating and destroying take the pool's
 * mutex when the process runs MPI from several threads (opal::using_threads).
 */
#ifndef TESSERA_OMPI_RUNTIME_USER_HANDLE_H
#define TESSERA_OMPI_RUNTIME_USER_HANDLE_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "opal/threads.h"

namespace tessera::ompi {

inline constexpr std::uintptr_t kFirstUserHandle = 4096;

namespace handle_bits {
inline constexpr unsigned kGenerationShift = 48;
inline constexpr std::uintptr_t kAddressMask = (std::uintptr_t{1} << kGenerationShift) - 1;
/* stamp = tag << 32 | generation << 16 | state. The state fills the 16 bits below the generation, so
 * that moving the generation on and closing the handle is one add: (stamp | kStateMask) + 1. */
inline constexpr unsigned kStampGenerationShift = 16;
inline constexpr std::uint64_t kStateMask = 0xffff;
inline constexpr std::uint64_t kGenerationMask = std::uint64_t{0xffff} << kStampGenerationShift;
inline constexpr std::uint64_t kLastGeneration = 0xffff; /* generation 0 is never used: a raw address is no handle */
inline constexpr std::uint64_t kClosed = 0;
inline constexpr std::uint64_t kOpen = 1;
inline constexpr std::uint64_t kPending = 2;
} // namespace handle_bits

struct alignas(16) HandleSlotHeader {
    std::atomic<std::uint64_t> stamp{0};
};

/* The slots of one kind of object. Safe to call from several threads at once. */
class HandlePool {
public:
    explicit HandlePool(std::uint32_t tag) : tag_(tag) {}
    /* A slot for an object of `size` bytes (a reused one if any): the object's address. Its handle is
     * open, or closed when `open` is false (a kind whose handle becomes valid later: handle_open). */
    void *allocate(std::size_t size, bool open);
    /* The object at `object` is gone: its handles go stale and the slot waits for the next object,
     * unless its generations are used up. */
    void release(void *object);
    /* Slots retired because their generations were used up. */
    std::size_t retired();

private:
    opal::Mutex mutex_;
    std::uint32_t tag_;
    std::size_t size_ = 0;
    std::vector<HandleSlotHeader *> free_;
    std::vector<HandleSlotHeader *> retired_; /* kept so that the memory stays reachable */
};

/* The pool of T (T::kHandleTag names its kind). Never destroyed: objects may die after static
 * destructors ran. */
template <class T>
HandlePool &handle_pool()
{
    static HandlePool *pool = new HandlePool(T::kHandleTag);
    return *pool;
}

inline std::atomic<std::uint64_t> &handle_stamp(const void *object)
{
    auto *header = reinterpret_cast<HandleSlotHeader *>(
        const_cast<char *>(static_cast<const char *>(object)) - sizeof(HandleSlotHeader));
    return header->stamp;
}

/* For T's class-specific operator new and delete: every object of T gets a slot of T's pool. A kind
 * whose handle is valid only from some point after construction (a communicator once its creation
 * completed) declares kHandleOpensLater and calls handle_open then. */
template <class T>
void *handle_slot_new(std::size_t size)
{
    static_assert(alignof(T) <= alignof(HandleSlotHeader), "a slot aligns its object to 16 bytes only");
    constexpr bool opens_later = requires { T::kHandleOpensLater; };
    return handle_pool<T>().allocate(size, !opens_later);
}
template <class T>
void handle_slot_delete(void *object)
{
    if (object != nullptr) {
        handle_pool<T>().release(object);
    }
}

/* The state of the application's handle of a pooled object. Only the thread that owns the object
 * writes its stamp; lookups only load it. */
inline void handle_set_state(const void *object, std::uint64_t state)
{
    auto &stamp = handle_stamp(object);
    stamp.store((stamp.load(std::memory_order_relaxed) & ~handle_bits::kStateMask) | state, std::memory_order_release);
}
inline void handle_open(const void *object)
{
    handle_set_state(object, handle_bits::kOpen);
}
inline void handle_close(const void *object)
{
    handle_set_state(object, handle_bits::kClosed);
}
inline std::uint64_t handle_state(const void *object)
{
    return handle_stamp(object).load(std::memory_order_relaxed) & handle_bits::kStateMask;
}

/* Makes every handle of the object stale and closes the slot: the generation moves on. Returns false
 * when the slot's last generation was in use: the slot then stays closed on that generation and must
 * never hold an object again (HandlePool::release keeps it aside; the engine's request free list
 * deletes such a request instead of keeping it). */
inline bool handle_retire(const void *object)
{
    auto &stamp = handle_stamp(object);
    const std::uint64_t s = stamp.load(std::memory_order_relaxed);
    if ((s & handle_bits::kGenerationMask) == handle_bits::kGenerationMask) [[unlikely]] {
        stamp.store(s & ~handle_bits::kStateMask, std::memory_order_release);
        return false;
    }
    stamp.store((s | handle_bits::kStateMask) + 1, std::memory_order_release);
    return true;
}

/* The application's handle of a pooled object: its address and its generation. */
inline std::uintptr_t user_handle_bits(const void *object)
{
    const std::uint64_t s = handle_stamp(object).load(std::memory_order_relaxed);
    /* Two shifts: the first drops the state, the second the kind. */
    return reinterpret_cast<std::uintptr_t>(object) |
           static_cast<std::uintptr_t>(s >> handle_bits::kStampGenerationShift) << handle_bits::kGenerationShift;
}
template <class Handle>
Handle user_handle(const void *object)
{
    return reinterpret_cast<Handle>(user_handle_bits(object));
}

/* The address a handle names, without any check (for a handle already looked up). */
template <class T>
T *user_address(const void *handle)
{
    return reinterpret_cast<T *>(reinterpret_cast<std::uintptr_t>(handle) & handle_bits::kAddressMask);
}

/* The T in the slot `handle` names while the handle is current and in `state`, or nullptr: below the
 * first page, misaligned, a slot of another kind, a freed object (its generation moved on), a slot
 * without an object or a handle in another state. */
template <class T>
T *user_slot_object(const void *handle, std::uint64_t state = handle_bits::kOpen)
{
    const auto v = reinterpret_cast<std::uintptr_t>(handle);
    const std::uintptr_t address = v & handle_bits::kAddressMask;
    if (address < kFirstUserHandle || address % alignof(HandleSlotHeader) != 0) {
        return nullptr;
    }
    const std::uint64_t expected = std::uint64_t{T::kHandleTag} << 32 |
                                   static_cast<std::uint64_t>(v >> handle_bits::kGenerationShift)
                                       << handle_bits::kStampGenerationShift |
                                   state;
    if (handle_stamp(reinterpret_cast<const void *>(address)).load(std::memory_order_acquire) != expected) {
        return nullptr;
    }
    return reinterpret_cast<T *>(address);
}

/* The live T of `handle`, or nullptr. The stamp alone decides: destroying an object retires its slot's
 * generation before anything else can reuse the memory, so no mark in the object is needed. */
template <class T>
T *user_object(const void *handle)
{
    return user_slot_object<T>(handle);
}

} // namespace tessera::ompi

#endif
