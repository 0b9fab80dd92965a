#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include <mpi.h>

#include "ompi/runtime/native_api.h"

namespace native = tessera::ompi::native;

namespace {

/* toint and fromint take any address above the predefined values as a created object's handle: these
 * stand for objects without making them (8-byte steps, like real allocations). */
MPI_Info fake(std::uintptr_t n)
{
    return reinterpret_cast<MPI_Info>(std::uintptr_t{0x7f0000000000} + 8 * n);
}

TEST(HandleInts, ManyThreadsAgreeOnEveryObjectsInteger)
{
    constexpr int kThreads = 8;
    constexpr std::uintptr_t kShared = 3000; /* every thread converts these: they race for the first one */
    constexpr std::uintptr_t kOwn = 3000;    /* and these alone, while the tables grow under the others */
    std::vector<std::vector<int>> shared(kThreads, std::vector<int>(kShared));
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([t, &shared, &bad] {
            for (std::uintptr_t n = 0; n < kShared; ++n) {
                const int i = native::info_toint(fake(n));
                shared[static_cast<std::size_t>(t)][n] = i;
                if (i < 0x1000 || native::info_fromint(i) != fake(n)) {
                    ++bad;
                }
                const std::uintptr_t own = kShared + static_cast<std::uintptr_t>(t) * kOwn + n;
                const int j = native::info_toint(fake(own));
                if (j < 0x1000 || native::info_fromint(j) != fake(own) || native::info_toint(fake(own)) != j) {
                    ++bad;
                }
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(bad.load(), 0) << "an integer did not convert back to its object, or changed";
    for (int t = 1; t < kThreads; ++t) {
        EXPECT_EQ(shared[static_cast<std::size_t>(t)], shared[0]) << "thread " << t << " got other integers";
    }
    /* Every object has its own integer, dense from 0x1000 on, and the next one is new. */
    std::vector<bool> seen(kShared + kThreads * kOwn, false);
    for (std::uintptr_t n = 0; n < kShared + kThreads * kOwn; ++n) {
        const int i = native::info_toint(fake(n));
        ASSERT_GE(i, 0x1000);
        ASSERT_LT(static_cast<std::size_t>(i - 0x1000), seen.size());
        EXPECT_FALSE(seen[static_cast<std::size_t>(i - 0x1000)]) << "integer " << i << " given twice";
        seen[static_cast<std::size_t>(i - 0x1000)] = true;
    }
    EXPECT_EQ(native::info_fromint(0x1000 + static_cast<int>(seen.size())), MPI_INFO_NULL);
}

TEST(HandleInts, PredefinedHandlesAreTheirValuesInTheirClassOnly)
{
    EXPECT_EQ(native::comm_toint(MPI_COMM_WORLD), 0x101);
    EXPECT_EQ(native::comm_fromint(0x101), MPI_COMM_WORLD);
    EXPECT_EQ(native::type_fromint(static_cast<int>(reinterpret_cast<std::intptr_t>(MPI_INT))), MPI_INT);
    EXPECT_EQ(native::comm_fromint(0x103), MPI_COMM_NULL) << "no predefined communicator has 0x103";
    EXPECT_EQ(native::type_fromint(0x101), MPI_DATATYPE_NULL);
    EXPECT_EQ(native::op_fromint(-1), MPI_OP_NULL);
}

} // namespace
