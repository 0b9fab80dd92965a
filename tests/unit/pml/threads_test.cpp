/* The engine under MPI_THREAD_MULTIPLE on the fake btl: several application threads send, receive,
 * wait, probe, cancel and free requests at once, while whichever thread holds the progress gate hands
 * the fake wire back (a progress hook). What a user would notice is checked: every message arrives once,
 * in its sender's order per (source, tag, communicator), with its data; nothing hangs. The tests are
 * named PmlThreads* so that the ThreadSanitizer run can pick them. */
#include <atomic>
#include <chrono>
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

#include "ompi/pml/p2p_functions.h"
#include "ompi/pml/pml_internal.h"
#include "ompi/runtime/native_api.h"
#include "opal/threads.h"
#include "pml_fixture.h"

namespace tessera::test {
namespace {

namespace native = ompi::native;

FakeBtl *wire_of_test = nullptr;

int deliver_wire()
{
    return wire_of_test->deliver_some();
}

class PmlThreads : public PmlTest {
protected:
    void start_threaded(int ranks)
    {
        start(ranks, {{}});
        wire_of_test = btl.get();
        ompi::pml::progress_hook_add(deliver_wire);
        opal::set_using_threads(true);
    }
    void TearDown() override
    {
        opal::set_using_threads(false);
        if (wire_of_test != nullptr) {
            ompi::pml::progress_hook_remove(deliver_wire);
            wire_of_test = nullptr;
        }
        PmlTest::TearDown();
    }
};

/* Threads started at once: each waits for all the others before its first call, so that they overlap
 * even on a loaded machine. */
class Starting {
public:
    explicit Starting(std::ptrdiff_t n) : latch_(n) {}
    void go() { latch_.arrive_and_wait(); }

private:
    std::latch latch_;
};

/* A message's payload: who sent it and its number in that sender's sequence. */
struct Payload {
    int thread;
    int index;
};

constexpr int kMessages = 10000;

TEST_F(PmlThreads, SendersAndReceiversLoseDuplicateAndReorderNothing)
{
    /* Threads 0..3 send kMessages each to rank 1 + i % 2 on their own tag of MPI_COMM_WORLD; a receiver
     * thread per tag takes them from that rank. On MPI_COMM_SELF two more senders send to this rank and
     * one receiver takes them with MPI_ANY_SOURCE and MPI_ANY_TAG. The fake wire hands each message back
     * as sent by the rank it went to. */
    start_threaded(3);
    constexpr int kWorldSenders = 4, kSelfSenders = 2;
    std::atomic<int> errors{0};
    Starting together(11);
    std::vector<std::thread> threads;
    for (int t = 0; t < kWorldSenders; ++t) {
        threads.emplace_back([t, &errors, &together] {
            together.go();
            for (int i = 0; i < kMessages; ++i) {
                const Payload p{t, i};
                MPI_Request r;
                if (native::isend_c(&p, sizeof p, MPI_BYTE, 1 + t % 2, t, MPI_COMM_WORLD, &r) != MPI_SUCCESS ||
                    native::wait(&r, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                    ++errors;
                }
            }
        });
        threads.emplace_back([t, &errors, &together] {
            together.go();
            for (int i = 0; i < kMessages; ++i) {
                Payload p{-1, -1};
                MPI_Request r;
                MPI_Status status;
                if (native::irecv_c(&p, sizeof p, MPI_BYTE, 1 + t % 2, t, MPI_COMM_WORLD, &r) != MPI_SUCCESS ||
                    native::wait(&r, &status) != MPI_SUCCESS) {
                    ++errors;
                }
                if (p.thread != t || p.index != i || status.MPI_TAG != t || status.MPI_SOURCE != 1 + t % 2) {
                    ++errors; /* lost, duplicated, reordered or someone else's */
                }
            }
        });
    }
    for (int t = 0; t < kSelfSenders; ++t) {
        threads.emplace_back([t, &errors, &together] {
            together.go();
            for (int i = 0; i < kMessages; ++i) {
                const Payload p{t, i};
                if (native::send_c(&p, sizeof p, MPI_BYTE, 0, 100 + t, MPI_COMM_SELF) != MPI_SUCCESS) {
                    ++errors;
                }
            }
        });
    }
    std::vector<int> next(kSelfSenders, 0);
    threads.emplace_back([&next, &errors, &together] {
        together.go();
        for (int i = 0; i < kSelfSenders * kMessages; ++i) {
            Payload p{-1, -1};
            MPI_Status status;
            if (native::recv_c(&p, sizeof p, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &status) !=
                MPI_SUCCESS) {
                ++errors;
                continue;
            }
            if (p.thread < 0 || p.thread >= kSelfSenders || status.MPI_TAG != 100 + p.thread ||
                p.index != next[static_cast<std::size_t>(p.thread)]++) {
                ++errors;
            }
        }
    });
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(next, std::vector<int>(kSelfSenders, kMessages));
}

int quiet_hook()
{
    return 0;
}

TEST_F(PmlThreads, WaiterHoldingTheGateLetsAnotherThreadChangeTheHooks)
{
    /* One thread waits for a message that the other sends only after it has added and removed a
     * progress hook, which needs the progress gate: a waiter that kept the gate for its whole wait
     * without letting go for such a thread would wait forever (the ctest timeout). */
    start_threaded(2);
    std::atomic<bool> waiting{false};
    int got = -1;
    std::thread waiter([&got, &waiting] {
        MPI_Request r;
        native::irecv_c(&got, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
        waiting = true;
        native::wait(&r, MPI_STATUS_IGNORE);
    });
    while (!waiting.load()) {
        std::this_thread::yield();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); /* the waiter is in its passes now */
    for (int i = 0; i < 100; ++i) {
        ompi::pml::progress_hook_add(quiet_hook);
        ompi::pml::progress_hook_remove(quiet_hook);
    }
    const int value = 42;
    EXPECT_EQ(native::send_c(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD), MPI_SUCCESS);
    waiter.join();
    EXPECT_EQ(got, 42);
}

TEST(OpalSpinLockThreads, EightThreadsLoseNoIncrementAndTryLockFailsWhileHeld)
{
    opal::SpinLock lock;
    long counter = 0; /* plain: only the lock orders the threads' increments */
    constexpr int kThreads = 8, kEach = 20000;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&lock, &counter] {
            for (int i = 0; i < kEach; ++i) {
                std::lock_guard guard(lock);
                ++counter;
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(counter, long{kThreads} * kEach);
    lock.lock();
    std::atomic<bool> got{true};
    std::thread other([&lock, &got] { got = lock.try_lock(); });
    other.join();
    EXPECT_FALSE(got.load());
    lock.unlock();
    EXPECT_TRUE(lock.try_lock());
    lock.unlock();
}

TEST_F(PmlThreads, WaitersOnDifferentRequestsWhileOneProgresses)
{
    /* Every thread posts its receives first and then waits on them with a different completion call;
     * one thread sends everything. Only one of them makes each progress pass: the others must see their
     * requests complete by the pass another thread made. */
    start_threaded(2);
    constexpr int kWaiters = 4, kEach = 500;
    std::atomic<int> errors{0}, posted{0};
    Starting together(5);
    std::vector<std::thread> threads;
    for (int t = 0; t < kWaiters; ++t) {
        threads.emplace_back([t, &errors, &posted, &together] {
            together.go();
            std::vector<int> got(kEach, -1);
            std::vector<MPI_Request> reqs(kEach);
            for (int i = 0; i < kEach; ++i) {
                native::irecv_c(&got[static_cast<std::size_t>(i)], 1, MPI_INT, 1, t, MPI_COMM_WORLD,
                                &reqs[static_cast<std::size_t>(i)]);
            }
            ++posted;
            if (t % 2 == 0) {
                if (native::waitall(kEach, reqs.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS) {
                    ++errors;
                }
            } else {
                for (int done = 0; done < kEach; ++done) {
                    int index = -1;
                    if (native::waitany(kEach, reqs.data(), &index, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
                        index == MPI_UNDEFINED) {
                        ++errors;
                    }
                }
            }
            for (int i = 0; i < kEach; ++i) {
                if (got[static_cast<std::size_t>(i)] != t * kEach + i) {
                    ++errors;
                }
            }
        });
    }
    threads.emplace_back([&posted, &errors, &together] {
        together.go();
        while (posted.load() < kWaiters) {
            std::this_thread::yield();
        }
        for (int i = 0; i < kEach; ++i) {
            for (int t = 0; t < kWaiters; ++t) {
                const int value = t * kEach + i;
                if (native::send_c(&value, 1, MPI_INT, 1, t, MPI_COMM_WORLD) != MPI_SUCCESS) {
                    ++errors;
                }
            }
        }
    });
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(errors.load(), 0);
}

TEST_F(PmlThreads, FreeRacesCompletionAndEveryFreedSendStillArrives)
{
    /* Senders free their requests at once (MPI_Request_free), often while another thread's progress
     * pass completes them: each request is released exactly once, and every message still arrives. */
    start_threaded(2);
    constexpr int kSenders = 3;
    std::atomic<int> errors{0};
    Starting together(6);
    std::vector<std::thread> threads;
    for (int t = 0; t < kSenders; ++t) {
        threads.emplace_back([t, &errors, &together] {
            together.go();
            for (int i = 0; i < kMessages; ++i) {
                const int value = i;
                MPI_Request r;
                /* A buffer that outlives the send: the request is gone before the message may be. */
                static thread_local int kept[kMessages];
                kept[i] = value;
                if (native::isend_c(&kept[i], 1, MPI_INT, 1, t, MPI_COMM_WORLD, &r) != MPI_SUCCESS ||
                    native::request_free(&r) != MPI_SUCCESS || r != MPI_REQUEST_NULL) {
                    ++errors;
                }
            }
        });
        threads.emplace_back([t, &errors, &together] {
            together.go();
            for (int i = 0; i < kMessages; ++i) {
                int got = -1;
                if (native::recv_c(&got, 1, MPI_INT, 1, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
                    got != i) {
                    ++errors;
                }
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(errors.load(), 0);
}

TEST_F(PmlThreads, ProbesMatchedProbesAndCancelsFromOtherThreads)
{
    /* One thread sends on tags 7 and 8; one receives tag 7 after MPI_Iprobe found it, one takes tag 8 with
     * MPI_Improbe and MPI_Mrecv, and one posts receives on tag 9 (never sent) and cancels them. */
    start_threaded(2);
    std::atomic<int> errors{0};
    Starting together(4);
    std::vector<std::thread> threads;
    threads.emplace_back([&errors, &together] {
        together.go();
        for (int i = 0; i < kMessages; ++i) {
            if (native::send_c(&i, 1, MPI_INT, 1, 7 + i % 2, MPI_COMM_WORLD) != MPI_SUCCESS) {
                ++errors;
            }
        }
    });
    threads.emplace_back([&errors, &together] {
        together.go();
        for (int i = 0; i < kMessages; i += 2) {
            int flag = 0;
            MPI_Status status;
            while (flag == 0) {
                if (native::iprobe(1, 7, MPI_COMM_WORLD, &flag, &status) != MPI_SUCCESS) {
                    ++errors;
                    return;
                }
            }
            int got = -1;
            native::recv_c(&got, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            errors += got != i || status.MPI_TAG != 7;
        }
    });
    threads.emplace_back([&errors, &together] {
        together.go();
        for (int i = 1; i < kMessages; i += 2) {
            int flag = 0;
            MPI_Message message = MPI_MESSAGE_NULL;
            MPI_Status status;
            while (flag == 0) {
                if (native::improbe(1, 8, MPI_COMM_WORLD, &flag, &message, &status) != MPI_SUCCESS) {
                    ++errors;
                    return;
                }
            }
            int got = -1;
            native::mrecv_c(&got, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
            errors += got != i || message != MPI_MESSAGE_NULL;
        }
    });
    threads.emplace_back([&errors, &together] {
        together.go();
        for (int i = 0; i < kMessages / 4; ++i) {
            int never = 0;
            MPI_Request r;
            MPI_Status status;
            native::irecv_c(&never, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &r);
            native::cancel(&r);
            native::wait(&r, &status);
            int cancelled = 0;
            native::test_cancelled(&status, &cancelled);
            errors += cancelled == 0;
        }
    });
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(errors.load(), 0);
}

TEST_F(PmlThreads, CompoundAndGeneralizedRequestsCompleteFromOtherThreads)
{
    /* MPI_Isendrecv from several threads at once (its two children may complete in two threads), and
     * generalized requests completed by one thread while another waits on them. */
    start_threaded(2);
    constexpr int kThreads = 3, kEach = 500;
    std::atomic<int> errors{0};
    Starting together(5);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([t, &errors, &together] {
            together.go();
            for (int i = 0; i < kEach; ++i) {
                const int out = t * kEach + i;
                int in = -1;
                MPI_Request r;
                MPI_Status status;
                native::isendrecv_c(&out, 1, MPI_INT, 1, t, &in, 1, MPI_INT, 1, t, MPI_COMM_WORLD, &r);
                if (native::wait(&r, &status) != MPI_SUCCESS || in != out || status.MPI_SOURCE != 1) {
                    ++errors;
                }
            }
        });
    }
    std::atomic<MPI_Request> shared{MPI_REQUEST_NULL};
    std::atomic<int> waited{0}; /* generalized requests waited for */
    const auto query = [](void *, MPI_Status *s) {
        s->MPI_SOURCE = MPI_UNDEFINED;
        s->MPI_TAG = MPI_UNDEFINED;
        return MPI_SUCCESS;
    };
    threads.emplace_back([&] {
        together.go();
        for (int i = 0; i < kEach; ++i) {
            MPI_Request r;
            native::grequest_start(
                query, [](void *) { return MPI_SUCCESS; }, [](void *, int) { return MPI_SUCCESS; }, nullptr, &r);
            shared = r;
            if (native::wait(&r, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                ++errors;
            }
            ++waited;
        }
    });
    threads.emplace_back([&] {
        together.go();
        for (int i = 0; i < kEach; ++i) {
            MPI_Request r = MPI_REQUEST_NULL;
            while ((r = shared.exchange(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL) {
                std::this_thread::yield();
            }
            if (native::grequest_complete(r) != MPI_SUCCESS) {
                ++errors;
            }
            while (waited.load() <= i) {
                std::this_thread::yield();
            }
        }
    });
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(errors.load(), 0);
}

} // namespace
} // namespace tessera::test
