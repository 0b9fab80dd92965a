/*
 * Handles of the objects an application creates (communicators, groups, derived datatypes, ops,
 * error handlers, info objects, requests, messages, windows): the object's address with a generation
 * count in the bits above it. The MPI 5.0 ABI keeps every predefined handle below 0x1000, so a value
 * there is never a created object.
 *
 * Each such object lives in a slot of its kind's pool (HandlePool): a 16-byte header, then the object.
 * A pool never gives a slot back to malloc, so the header a stale handle points at stays readable,
 * and a new object of the same kind may reuse the slot. The header's stamp says which kind the slot
 * holds, the slot's generation and whether an object lives there; destroying the object (or, for
 * requests, giving it back to the engine's free list) moves the generation on. A handle carries the
 * generation of its object in bits 48-63 (user addresses on x86-64 and AArch64 are below 2^48), so a
 * freed handle, or a copy of it, no longer matches its slot even after a new object took the slot:
 * lookup refuses it instead of reaching the new object. The generation has 16 bits: a stale handle is
 * only mistaken for a new object after 65535 objects came and went through the same slot.
 *
 * Lookup is lock-free (one load of the stamp, plus the kind's own mark check): the engine's fast path
 * looks up the communicator of every send and the request of every wait. Creating and destroying take
 * the pool's mutex.
 */
#ifndef TESSERA_OMPI_RUNTIME_USER_HANDLE_H
#define TESSERA_OMPI_RUNTIME_USER_HANDLE_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tessera::ompi {

inline constexpr std::uintptr_t kFirstUserHandle = 4096;

namespace handle_bits {
inline constexpr unsigned kGenerationShift = 48;
inline constexpr std::uintptr_t kAddressMask = (std::uintptr_t{1} << kGenerationShift) - 1;
inline constexpr std::uint64_t kGenerations = 0xffff; /* generation 0 is never used: see next_generation */
/* stamp = tag << 32 | generation << 1 | live */
inline constexpr std::uint64_t kLive = 1;
} // namespace handle_bits

struct alignas(16) HandleSlotHeader {
    std::atomic<std::uint64_t> stamp{0};
};

/* The slots of one kind of object. */
class HandlePool {
public:
    explicit HandlePool(std::uint32_t tag) : tag_(tag) {}
    /* A slot for an object of `size` bytes (a reused one if any), marked live: the object's address. */
    void *allocate(std::size_t size);
    /* The object at `object` is gone: its handles go stale and the slot waits for the next object. */
    void release(void *object);

private:
    std::mutex mutex_;
    std::uint32_t tag_;
    std::size_t size_ = 0;
    std::vector<HandleSlotHeader *> free_;
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

/* For T's class-specific operator new and delete: every object of T gets a slot of T's pool. */
template <class T>
void *handle_slot_new(std::size_t size)
{
    static_assert(alignof(T) <= alignof(HandleSlotHeader), "a slot aligns its object to 16 bytes only");
    return handle_pool<T>().allocate(size);
}
template <class T>
void handle_slot_delete(void *object)
{
    if (object != nullptr) {
        handle_pool<T>().release(object);
    }
}

/* The generation that follows g: 1..65535, then 1 again. */
constexpr std::uint64_t next_generation(std::uint64_t g)
{
    return g >= handle_bits::kGenerations ? 1 : g + 1;
}

/* Stale handles of an object that stays in its slot for reuse (requests on the engine's free list):
 * retire when the application's handle is done with, revive when the object is handed out again. */
inline void handle_retire(const void *object)
{
    auto &stamp = handle_stamp(object);
    const std::uint64_t s = stamp.load(std::memory_order_relaxed);
    const std::uint64_t g = next_generation((s >> 1) & handle_bits::kGenerations);
    stamp.store((s & ~std::uint64_t{0xffffffff}) | g << 1, std::memory_order_release);
}
inline void handle_revive(const void *object)
{
    auto &stamp = handle_stamp(object);
    stamp.store(stamp.load(std::memory_order_relaxed) | handle_bits::kLive, std::memory_order_release);
}

/* The application's handle of a pooled object: its address and its generation. */
inline std::uintptr_t user_handle_bits(const void *object)
{
    const std::uint64_t s = handle_stamp(object).load(std::memory_order_relaxed);
    return reinterpret_cast<std::uintptr_t>(object) |
           static_cast<std::uintptr_t>((s >> 1) & handle_bits::kGenerations) << handle_bits::kGenerationShift;
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

/* The T in the slot `handle` names while the handle is current, or nullptr: below the first page,
 * misaligned, a slot of another kind, a freed object (its generation moved on) or a slot without an
 * object. */
template <class T>
T *user_slot_object(const void *handle)
{
    const auto v = reinterpret_cast<std::uintptr_t>(handle);
    const std::uintptr_t address = v & handle_bits::kAddressMask;
    if (address < kFirstUserHandle || address % alignof(HandleSlotHeader) != 0) {
        return nullptr;
    }
    const std::uint64_t expected = std::uint64_t{T::kHandleTag} << 32 |
                                   static_cast<std::uint64_t>(v >> handle_bits::kGenerationShift) << 1 |
                                   handle_bits::kLive;
    if (handle_stamp(reinterpret_cast<const void *>(address)).load(std::memory_order_acquire) != expected) {
        return nullptr;
    }
    return reinterpret_cast<T *>(address);
}

/* The live T of `handle`, or nullptr: user_slot_object's, and a T with a `mark` (and `kMark`) must
 * carry it too: the mark is what tells a communicator whose handle was freed while its pending
 * operations keep the object. */
template <class T>
T *user_object(const void *handle)
{
    T *object = user_slot_object<T>(handle);
    if constexpr (requires { T::kMark; }) {
        if (object != nullptr && object->mark != T::kMark) {
            return nullptr;
        }
    }
    return object;
}

} // namespace tessera::ompi

#endif
