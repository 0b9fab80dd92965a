/* Converted argument arrays a runtime may still read after the call that took them returned. */
#ifndef TESSERA_TRANSLATOR_KEPT_ARRAYS_H
#define TESSERA_TRANSLATOR_KEPT_ARRAYS_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera::ompi::translator {

/*
 * A thunk hands the runtime converted copies of the application's arrays (the datatypes of
 * MPI_Ialltoallw, MPI_Neighbor_alltoallw_init, ...). A blocking call is done with them when it returns,
 * but a non-blocking or persistent one may read them while it progresses: Open MPI 4.1's libnbc reads
 * MPI_Ineighbor_alltoallw's datatypes in later rounds. Such copies therefore live until the request
 * leaves the runtime: completed (non-blocking) or freed (persistent). The completion thunks ask any()
 * first, so programs that never make such a call pay one relaxed load per completion call.
 */
class KeptArrays {
public:
    /* The arrays of one call, allocated before the call has its request. */
    class Batch {
    public:
        template <typename T>
        T *alloc(int n)
        {
            /* Never NULL: a runtime may reject a NULL array even where it reads no element. */
            const std::size_t bytes = sizeof(T) * static_cast<std::size_t>(n > 0 ? n : 1);
            blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(bytes));
            return reinterpret_cast<T *>(blocks_.back().get());
        }

    private:
        friend class KeptArrays;
        std::vector<std::unique_ptr<std::byte[]>> blocks_;
    };

    bool any() const noexcept { return live_.load(std::memory_order_relaxed) != 0; }

    /* The batch now belongs to the runtime's request (its value as an integer). */
    void attach(std::uintptr_t request, Batch &&batch)
    {
        if (batch.blocks_.empty()) {
            return;
        }
        const std::lock_guard<std::mutex> lock(mutex_);
        auto &blocks = by_request_[request];
        for (auto &b : batch.blocks_) {
            blocks.push_back(std::move(b));
        }
        live_.store(by_request_.size(), std::memory_order_relaxed);
    }

    /* The request left the runtime: its arrays go (nothing when none were kept for it). */
    void release(std::uintptr_t request)
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (by_request_.erase(request) != 0) {
            live_.store(by_request_.size(), std::memory_order_relaxed);
        }
    }

    /* A completion call changed the request from `before` to `after`: a request the runtime set to its
     * null handle has completed and left. */
    void completed(std::uintptr_t before, std::uintptr_t after, std::uintptr_t null_request)
    {
        if (before != after && after == null_request) {
            release(before);
        }
    }

private:
    std::mutex mutex_;
    std::unordered_map<std::uintptr_t, std::vector<std::unique_ptr<std::byte[]>>> by_request_;
    std::atomic<std::size_t> live_{0};
};

} // namespace tessera::ompi::translator

#endif
