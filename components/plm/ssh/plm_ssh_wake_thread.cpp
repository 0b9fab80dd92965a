/* plm ssh: the wake-pipe thread of the relays (see plm_ssh_wake_thread.h). */
#include "components/plm/ssh/plm_ssh_wake_thread.h"

#include <fcntl.h>
#include <unistd.h>

#include <system_error>

namespace tessera::orte::plm_ssh {

WakeThread::~WakeThread()
{
    stop();
    for (int fd : {wake_read_, wake_write_}) {
        if (fd >= 0) {
            close(fd);
        }
    }
}

bool WakeThread::start(std::function<void()> run)
{
    if (thread_.joinable()) {
        return true;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        return false;
    }
    wake_read_ = fds[0];
    wake_write_ = fds[1];
    try {
        thread_ = std::thread(std::move(run));
    } catch (const std::system_error &) {
        close(wake_read_);
        close(wake_write_);
        wake_read_ = wake_write_ = -1;
        return false;
    }
    return true;
}

void WakeThread::wake()
{
    /* Non-blocking: a full pipe already holds a wake-up the thread has not read. */
    char byte = 1;
    ssize_t ignored = write(wake_write_, &byte, 1);
    (void)ignored;
}

void WakeThread::stop()
{
    stopping_.store(true, std::memory_order_release);
    if (thread_.joinable()) {
        wake();
        thread_.join();
    }
}

void WakeThread::drain()
{
    char bytes[64];
    while (read(wake_read_, bytes, sizeof bytes) > 0) {
    }
}

} // namespace tessera::orte::plm_ssh
