/*
 * Schedules under MPI_THREAD_MULTIPLE: several threads each run collectives at once, and every schedule
 * takes its steps' memory, its scratch buffers and its object from pools all threads share. Each
 * thread's results must be its own, whole, however the pools were shared out.
 */
#include <atomic>
#include <thread>
#include <vector>

#include "ompi/coll/coll_schedule.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "opal/threads.h"
#include "pml_fixture.h"
#include "tests/unit/start_together.h"

namespace tessera::test {
namespace {

using ompi::coll::Schedule;

class CollScheduleThreads : public PmlTest {
protected:
    void SetUp() override { opal::set_using_threads(true); }
    void TearDown() override
    {
        opal::set_using_threads(false);
        PmlTest::TearDown();
    }
};

TEST_F(CollScheduleThreads, EightThreadsRunLocalSchedulesFromTheSharedPools)
{
    start(1, {{}});
    ompi::coll::clear_cache();
    const ompi::Datatype *int_type = ompi::datatype_lookup(MPI_INT);
    constexpr int kThreads = 8;
    constexpr int kRounds = 20000;
    std::atomic<int> wrong{0};
    std::atomic<int> done{0};
    testing_threads::StartTogether together(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            together.arrive_and_wait();
            for (int round = 0; round < kRounds; ++round) {
                const std::size_t n = 16 + static_cast<std::size_t>((t * 7 + round) % 200);
                std::vector<int> src(n), dst(n, -1);
                for (std::size_t i = 0; i < n; ++i) {
                    src[i] = t * 1000000 + round * 1000 + static_cast<int>(i % 1000);
                }
                /* Explicit tags: the schedules stay outside WORLD's collective numbering, which
                 * belongs to one thread at a time. Through a scratch buffer, in two rounds. */
                auto s = std::make_unique<Schedule>(&ompi::comm_world(), -1000 - t);
                void *tmp = s->scratch(n, int_type);
                s->copy(src.data(), n, int_type, tmp, n, int_type);
                s->round();
                s->copy(tmp, n, int_type, dst.data(), n, int_type);
                /* Local steps only: the schedule finishes without the engine's progress. */
                s->start();
                for (int pass = 0; pass < 10 && !s->progress(); ++pass) {
                }
                if (!s->complete() || s->error() != MPI_SUCCESS || dst != src) {
                    ++wrong;
                }
                ++done;
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(wrong.load(), 0) << "a thread's schedule lost or mixed up its data";
    EXPECT_EQ(done.load(), kThreads * kRounds);
    ompi::coll::clear_cache();
}

} // namespace
} // namespace tessera::test
