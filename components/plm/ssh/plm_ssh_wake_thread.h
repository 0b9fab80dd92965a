/* plm ssh: a thread that sleeps in poll() and is woken through a pipe, started on first use and stopped
 * by its owner. The output relay (plm_ssh_relay) and the input relay (plm_ssh_input) are both one. */
#ifndef TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_WAKE_THREAD_H
#define TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_WAKE_THREAD_H

#include <atomic>
#include <functional>
#include <thread>

namespace tessera::orte::plm_ssh {

class WakeThread {
public:
    WakeThread() = default;
    WakeThread(const WakeThread &) = delete;
    WakeThread &operator=(const WakeThread &) = delete;
    ~WakeThread();

    /* Starts `run` on a thread, the first time only; the owner calls it under its own lock. False when
     * the wake pipe or the thread cannot be made (then a later call tries again). */
    bool start(std::function<void()> run);
    /* Makes the thread's poll() return. */
    void wake();
    /* Asks the thread to stop, wakes it and waits for it. The owner calls this before its members go,
     * since the thread uses them. */
    void stop();

    /* For the thread: whether stop() was called; the fd to poll for POLLIN among its own; and what
     * to call when that fd is readable. */
    bool stopping() const { return stopping_.load(std::memory_order_acquire); }
    int wake_fd() const { return wake_read_; }
    void drain();

private:
    std::atomic<bool> stopping_{false};
    int wake_read_ = -1;
    int wake_write_ = -1;
    std::thread thread_;
};

} // namespace tessera::orte::plm_ssh

#endif
