/* pml_single_copy=auto: the receiver reads a large contiguous message in one copy when the sender or
 * the receiver waits for its CPU, and streams it otherwise; the run-delay sampler behind it, and the
 * yield it drives under mpi_yield_when_idle=auto. */
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "ompi/pml/pml_contention.h"
#include "ompi/pml/pml_wire.h"
#include "opal/threads.h"
#include "pml_fixture.h"

namespace tessera::test {
namespace {

using ompi::pml::FragType;
using ompi::pml::Request;

class PmlSingleCopyAuto : public PmlTest {
protected:
    void start_auto(double threshold)
    {
        start(2, {{.eager_limit = 1024, .max_send_size = 1024, .get = true}});
        ASSERT_EQ(ompi::pml::params.single_copy, ompi::pml::kSingleCopyAuto); /* the default */
        ompi::pml::params.single_copy_min = 65536;
        ompi::pml::params.contention_threshold = threshold;
        btl->get_result = TESSERA_SUCCESS;
    }

    /* Sends n bytes to rank 1 and receives them back; returns how many gets the transfer took. */
    std::size_t transfer(std::size_t n, double threshold_at_receiver)
    {
        std::vector<char> data(n), got(n);
        for (std::size_t i = 0; i < n; ++i) {
            data[i] = static_cast<char>(i * 7 + 3);
        }
        const std::size_t before = btl->gets;
        Request *s = isend(1, 0, data.data(), n);
        ompi::pml::params.contention_threshold = threshold_at_receiver;
        Request *r = irecv(1, 0, got.data(), n);
        btl->deliver_all();
        EXPECT_TRUE(r->complete);
        EXPECT_TRUE(s->complete);
        EXPECT_EQ(got, data);
        release(r);
        release(s);
        return btl->gets - before;
    }
};

constexpr double kNever = 2.0; /* above 1: nobody counts as contended (unless oversubscribed) */

TEST_F(PmlSingleCopyAuto, StreamsWhileNobodyIsContended)
{
    start_auto(kNever);
    ASSERT_FALSE(ompi::pml::oversubscribed);
    EXPECT_EQ(transfer(70000, kNever), 0u);
}

TEST_F(PmlSingleCopyAuto, ReadsWhenTheReceiverIsContended)
{
    start_auto(kNever);
    EXPECT_EQ(transfer(70000, 0.0), 1u);
}

TEST_F(PmlSingleCopyAuto, ReadsWhenTheSenderSaysItIsContended)
{
    start_auto(0.0);
    EXPECT_EQ(transfer(70000, kNever), 1u);
}

TEST_F(PmlSingleCopyAuto, SmallMessagesStreamEvenWhenContended)
{
    start_auto(0.0);
    EXPECT_EQ(transfer(65535, 0.0), 0u);
    EXPECT_EQ(transfer(65536, 0.0), 1u);
}

TEST_F(PmlSingleCopyAuto, NonContiguousMessagesStream)
{
    start_auto(0.0);
    std::vector<int> data(40000), got(40000);
    for (std::size_t i = 0; i < data.size(); ++i) {
        data[i] = static_cast<int>(i);
    }
    MPI_Datatype every_other = MPI_DATATYPE_NULL;
    ASSERT_EQ(MPI_Type_vector(20000, 1, 2, MPI_INT, &every_other), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_commit(&every_other), MPI_SUCCESS);
    Request *s = isend(1, 0, data.data(), 1, every_other);
    Request *r = irecv(1, 0, got.data(), 1, every_other);
    btl->deliver_all();
    EXPECT_TRUE(r->complete);
    EXPECT_EQ(btl->gets, 0u);
    for (std::size_t i = 0; i < data.size(); i += 2) {
        ASSERT_EQ(got[i], data[i]) << i;
    }
    release(r);
    release(s);
    MPI_Type_free(&every_other);
}

/* Runs poll() for 300 ms on one CPU shared with a busy thread, with the sampler's window at 50 ms;
 * returns poll's last answer. */
template <typename Poll>
bool on_a_cpu_shared_with_a_busy_thread(Poll poll)
{
    cpu_set_t original;
    EXPECT_EQ(sched_getaffinity(0, sizeof original, &original), 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    int cpu = 0;
    while (!CPU_ISSET(cpu, &original)) {
        ++cpu;
    }
    CPU_SET(cpu, &one);
    EXPECT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    std::atomic<bool> stop{false};
    std::thread busy([&] {
        pthread_setaffinity_np(pthread_self(), sizeof one, &one);
        while (!stop.load(std::memory_order_relaxed)) {
        }
    });
    ompi::pml::params.contention_window = 0.05;
    ompi::pml::contention_init();
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    bool answer = false;
    while (std::chrono::steady_clock::now() < end) {
        answer = poll();
    }
    stop = true;
    busy.join();
    EXPECT_EQ(sched_setaffinity(0, sizeof original, &original), 0);
    return answer;
}

bool run_delay_readable()
{
    ompi::pml::contention_init();
    uint64_t delay = 0;
    const bool readable = ompi::pml::read_run_delay(&delay);
    ompi::pml::contention_finalize();
    return readable;
}

/* The sampler itself: a thread that shares its CPU with a busy thread waits for it about half the
 * time, far above the default threshold. */
TEST(PmlContention, ACpuSharedWithABusyThreadCountsAsContended)
{
    if (!run_delay_readable()) {
        GTEST_SKIP() << "no /proc/thread-self/schedstat on this kernel";
    }
    const ompi::pml::Params saved = ompi::pml::params;
    ompi::pml::params.contention_threshold = 0.1;
    ompi::pml::contention_init();
    uint64_t before = 0;
    ASSERT_TRUE(ompi::pml::read_run_delay(&before));
    EXPECT_TRUE(on_a_cpu_shared_with_a_busy_thread([] { return ompi::pml::cpu_contended(); }));
    uint64_t after = 0;
    EXPECT_TRUE(ompi::pml::read_run_delay(&after));
    EXPECT_GT(after, before);
    ompi::pml::contention_finalize();
    ompi::pml::params = saved;
}

/* mpi_yield_when_idle=auto on a core of its own (not oversubscribed): a waiter that shares its CPU
 * with a busy process yields, so that its time slices go to when its peer's data is there. */
TEST(PmlContention, AWaiterSharingItsCpuYieldsUnderAuto)
{
    if (!run_delay_readable()) {
        GTEST_SKIP() << "no /proc/thread-self/schedstat on this kernel";
    }
    const ompi::pml::Params saved = ompi::pml::params;
    const bool saved_oversubscribed = ompi::pml::oversubscribed;
    ompi::pml::oversubscribed = false;
    ompi::pml::params.yield_when_idle = ompi::pml::kYieldAuto;
    ompi::pml::params.yield_run_delay = 0.2;
    EXPECT_TRUE(on_a_cpu_shared_with_a_busy_thread([] { return ompi::pml::yield_wanted(); }));
    ompi::pml::params.yield_run_delay = 2.0; /* a share never reached: this reason is off */
    EXPECT_FALSE(on_a_cpu_shared_with_a_busy_thread([] { return ompi::pml::yield_wanted(); }));
    ompi::pml::params.yield_when_idle = ompi::pml::kYieldOff;
    ompi::pml::params.yield_run_delay = 0.0;
    EXPECT_FALSE(on_a_cpu_shared_with_a_busy_thread([] { return ompi::pml::yield_wanted(); }));
    ompi::pml::contention_finalize();
    ompi::pml::params = saved;
    ompi::pml::oversubscribed = saved_oversubscribed;
}

/* Under MPI_THREAD_MULTIPLE every waiting thread samples. With a window of a millisecond the threads
 * close windows all the time while the sampled thread (this one) waits for its CPU: no answer may mix
 * one thread's run delay with another's start of the window. Such a mix wraps the unsigned difference
 * (a share of 10^10 and more, which turns yielding and single-copy reads on for no reason); a share
 * above 1 by itself is only the noise of a thread preempted between its clock and run-delay reads. */
TEST(PmlContention, ThreadsSamplingAtOnceNeverMixTheirWindows)
{
    if (!run_delay_readable()) {
        GTEST_SKIP() << "no /proc/thread-self/schedstat on this kernel";
    }
    const ompi::pml::Params saved = ompi::pml::params;
    ompi::pml::params.contention_window = 1e-3;
    opal::set_using_threads(true);
    ompi::pml::contention_init();
    constexpr int kThreads = 8;
    std::atomic<bool> stop{false};
    std::vector<double> highest(kThreads, 0.0);
    std::vector<std::thread> samplers;
    for (int t = 0; t < kThreads; ++t) {
        samplers.emplace_back([&, t] {
            while (!stop.load(std::memory_order_relaxed)) {
                const double share = ompi::pml::run_delay_share();
                highest[t] = std::max(highest[t], share);
            }
        });
    }
    /* Busy, so that this thread's run delay grows while the samplers take its CPU. */
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (std::chrono::steady_clock::now() < end) {
    }
    stop = true;
    for (auto &s : samplers) {
        s.join();
    }
    ompi::pml::contention_finalize();
    opal::set_using_threads(false);
    ompi::pml::params = saved;
    EXPECT_LT(*std::max_element(highest.begin(), highest.end()), 1e6);
}

} // namespace
} // namespace tessera::test
