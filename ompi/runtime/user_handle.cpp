/* The pools of ompi/runtime/user_handle.h. */
#include "ompi/runtime/user_handle.h"

#include <cstdio>
#include <cstdlib>
#include <new>

namespace tessera::ompi {

void *HandlePool::allocate(std::size_t size, bool open)
{
    HandleSlotHeader *slot = nullptr;
    {
        const opal::LockGuard lock(mutex_);
        if (size_ == 0) {
            size_ = size;
        }
        if (size != size_) {
            /* Only T itself lives in T's pool (no subclasses): every slot has the same size. */
            std::fprintf(stderr, "tessera: internal error: an object of %zu bytes in a handle pool of %zu-byte slots\n",
                         size, size_);
            std::abort();
        }
        if (!free_.empty()) {
            slot = free_.back();
            free_.pop_back();
        }
    }
    if (slot == nullptr) {
        /* Never freed: a stale handle's stamp must stay readable (and ASan-clean) for ever. */
        void *raw = ::operator new(sizeof(HandleSlotHeader) + size, std::align_val_t{alignof(HandleSlotHeader)});
        slot = new (raw) HandleSlotHeader{};
        slot->stamp.store(std::uint64_t{tag_} << 32 | std::uint64_t{1} << handle_bits::kStampGenerationShift,
                          std::memory_order_relaxed);
    }
    void *object = slot + 1;
    if (open) {
        handle_open(object);
    }
    return object;
}

void HandlePool::release(void *object)
{
    /* Always a new generation, even for a handle already closed: a closed handle keeps its generation
     * (MPI_Comm_free while operations are pending), and the next object must not take it over. */
    const bool reusable = handle_retire(object);
    const opal::LockGuard lock(mutex_);
    (reusable ? free_ : retired_).push_back(static_cast<HandleSlotHeader *>(object) - 1);
}

std::size_t HandlePool::retired()
{
    const opal::LockGuard lock(mutex_);
    return retired_.size();
}

} // namespace tessera::ompi
