/* The handle pools under MPI_THREAD_MULTIPLE: eight threads allocate and free slots of every kind at
 * once, and look up their own handles and the freed handles of the others without a lock. */
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/group/group.h"
#include "ompi/info/info.h"
#include "ompi/op/op.h"
#include "ompi/pml/pml_request.h"
#include "ompi/runtime/user_handle.h"
#include "ompi/win/window.h"
#include "opal/threads.h"

namespace ompi = tessera::ompi;

namespace {

constexpr int kThreads = 8;
constexpr int kRounds = 3000;
constexpr std::size_t kKeepLive = 8;  /* per thread and kind */
constexpr std::size_t kFreedRing = 256; /* freed handles any thread may try, per kind */

/* Freed handles of one kind, for the other threads to try. */
struct FreedRing {
    std::array<std::atomic<std::uintptr_t>, kFreedRing> handles{};
    std::atomic<std::size_t> next{0};
};

struct Failures {
    std::atomic<int> live_refused{0};
    std::atomic<int> freed_accepted{0};
};

/* One thread's work on the pool of T (messages' type is private to the engine; its pool is this same
 * code). */
template <class T>
class Churn {
public:
    Churn(FreedRing &ring, Failures &failures) : ring_(ring), failures_(failures) {}

    void round(unsigned seed)
    {
        void *object = ompi::handle_pool<T>().allocate(sizeof(T), true);
        live_.push_back({object, ompi::user_handle_bits(object)});
        if (live_.size() > kKeepLive) {
            const auto [freed, handle] = live_.front();
            live_.pop_front();
            ompi::handle_pool<T>().release(freed);
            expect_refused(handle);
            const std::size_t at = ring_.next.fetch_add(1, std::memory_order_relaxed) % kFreedRing;
            ring_.handles[at].store(handle, std::memory_order_relaxed);
        }
        for (const auto &[address, handle] : live_) {
            if (ompi::user_slot_object<T>(reinterpret_cast<const void *>(handle)) != address) {
                failures_.live_refused.fetch_add(1, std::memory_order_relaxed);
            }
        }
        /* A handle another thread freed, whose slot may be in use again by now. */
        if (const std::uintptr_t other = ring_.handles[seed % kFreedRing].load(std::memory_order_relaxed)) {
            expect_refused(other);
        }
    }

    void finish()
    {
        for (const auto &[object, handle] : live_) {
            ompi::handle_pool<T>().release(object);
            expect_refused(handle);
        }
        live_.clear();
    }

private:
    void expect_refused(std::uintptr_t handle)
    {
        if (ompi::user_slot_object<T>(reinterpret_cast<const void *>(handle)) != nullptr) {
            failures_.freed_accepted.fetch_add(1, std::memory_order_relaxed);
        }
    }

    struct Live {
        void *object;
        std::uintptr_t handle;
    };
    FreedRing &ring_;
    Failures &failures_;
    std::deque<Live> live_;
};

template <class... Kinds, std::size_t... K>
void churn_every_kind(Failures &failures, std::index_sequence<K...>)
{
    std::array<FreedRing, sizeof...(Kinds)> rings;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&rings, &failures, t] {
            std::tuple<Churn<Kinds>...> churns{Churn<Kinds>(rings[K], failures)...};
            unsigned seed = 2654435761u * static_cast<unsigned>(t + 1);
            for (int i = 0; i < kRounds; ++i) {
                seed = seed * 1664525u + 1013904223u;
                std::apply([seed](auto &...c) { (c.round(seed), ...); }, churns);
            }
            std::apply([](auto &...c) { (c.finish(), ...); }, churns);
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
}

TEST(UserHandleThreads, EightThreadsAllocateAndFreeEveryKindWhileLookingUp)
{
    tessera::opal::set_using_threads(true);
    Failures failures;
    churn_every_kind<ompi::Communicator, ompi::Group, ompi::DerivedType, ompi::Op, ompi::Errhandler, ompi::Info,
                     ompi::pml::Request, ompi::Window>(failures, std::make_index_sequence<8>());
    tessera::opal::set_using_threads(false);
    EXPECT_EQ(failures.live_refused.load(), 0) << "live handles that lookup refused";
    EXPECT_EQ(failures.freed_accepted.load(), 0) << "freed handles that lookup accepted";
}

} // namespace
