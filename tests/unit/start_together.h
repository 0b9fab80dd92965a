// For the thread tests: the threads start their work together, so that they overlap on a loaded
// machine too (a thread started first could otherwise be done before the last one is running).
#ifndef TESSERA_TESTS_UNIT_START_TOGETHER_H
#define TESSERA_TESTS_UNIT_START_TOGETHER_H

#include <atomic>
#include <thread>

namespace testing_threads {

class StartTogether {
public:
    explicit StartTogether(int threads) : threads_(threads) {}
    StartTogether(const StartTogether &) = delete;
    StartTogether &operator=(const StartTogether &) = delete;

    // Each of the threads calls it once; it returns once all have. It yields while it waits: the
    // tests run more threads than the machine has cores.
    void arrive_and_wait()
    {
        ++arrived_;
        while (arrived_.load() < threads_) {
            std::this_thread::yield();
        }
    }

private:
    std::atomic<int> arrived_{0};
    const int threads_;
};

} // namespace testing_threads

#endif
