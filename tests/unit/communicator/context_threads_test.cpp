/*
 * Context ids under MPI_THREAD_MULTIPLE: threads creating communicators on different parents offer,
 * hold, take and free ids at the same time. No id may ever be held or taken by two of them at once, and
 * a retry's starting point spreads agreements that keep colliding over the free ids.
 */
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <thread>
#include <vector>

#include "ompi/communicator/comm_context.h"
#include "opal/threads.h"
#include "tests/unit/start_together.h"

namespace cid = tessera::ompi::cid;

namespace {

class ContextIdsThreads : public ::testing::Test {
protected:
    void SetUp() override { tessera::opal::set_using_threads(true); }
    void TearDown() override
    {
        tessera::opal::set_using_threads(false);
        cid::reset(4096);
    }
};

TEST_F(ContextIdsThreads, AnIdIsNeverHeldByTwoThreadsAtOnce)
{
    constexpr std::size_t kIds = 128;
    constexpr int kThreads = 8;
    constexpr int kRounds = 200000;
    cid::reset(kIds);
    std::array<std::atomic<int>, kIds> owner{};
    std::atomic<int> doubles{0};
    std::atomic<int> taken{0};
    testing_threads::StartTogether together(kThreads);
    std::vector<std::thread> threads;
    for (int t = 1; t <= kThreads; ++t) {
        threads.emplace_back([&, t] {
            together.arrive_and_wait();
            for (int round = 0; round < kRounds; ++round) {
                cid::agreement_begin();
                /* Every thread looks where the others look: the lowest free ids (two, as an
                 * intercommunicator needs), or from a start of its own as a retry does. */
                const std::size_t start = round % 2 == 0 ? 0 : static_cast<std::size_t>(t * 13 + round);
                const std::vector<std::uint32_t> ids = cid::lowest(cid::offer(), 2, start);
                if (ids.size() == 2 && cid::hold(ids)) {
                    for (std::uint32_t id : ids) {
                        if (owner[id].exchange(t) != 0) {
                            ++doubles;
                        }
                    }
                    cid::take(ids);
                    ++taken;
                    for (std::uint32_t id : ids) {
                        owner[id].store(0);
                        cid::release(id);
                    }
                }
                cid::agreement_end();
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(doubles.load(), 0) << "two threads held the same context id";
    EXPECT_GT(taken.load(), 0);
    EXPECT_EQ(cid::used_count(), 2u) << "ids were lost or leaked (only WORLD's and SELF's should be left)";
    EXPECT_EQ(cid::agreements_running(), 0);
    const std::vector<std::uint64_t> mask = cid::offer();
    EXPECT_EQ(cid::lowest(mask, kIds).size(), kIds - 2) << "an id is still held";
}

TEST_F(ContextIdsThreads, GenerationFloorOnlyRisesUnderConcurrentTakes)
{
    cid::reset(64);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([t] {
            for (std::uint32_t g = 1; g <= 5000; ++g) {
                cid::generation_taken(g * 8 + static_cast<std::uint32_t>(t));
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(cid::generation_floor(), 5000u * 8 + 7 + 1);
}

TEST(ContextIdsStart, LowestFromAStartWrapsRound)
{
    cid::reset(128);
    const std::vector<std::uint64_t> mask = cid::offer();
    EXPECT_EQ(cid::lowest(mask, 3, 126), (std::vector<std::uint32_t>{126, 127, 2}));
    EXPECT_EQ(cid::lowest(mask, 2, 128 + 5), (std::vector<std::uint32_t>{5, 6})) << "the start is taken modulo the ids";
    EXPECT_EQ(cid::lowest(mask, 2, 1), (std::vector<std::uint32_t>{2, 3}));
}

} // namespace
