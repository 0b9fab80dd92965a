/* plm ssh: the output relay thread (see plm_ssh_relay.h). */
#include "components/plm/ssh/plm_ssh_relay.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "frameworks/plm/base/plm_base_output.h"

namespace tessera::orte::plm_ssh {
namespace {

using Clock = std::chrono::steady_clock;

} // namespace

OutputRelay::~OutputRelay()
{
    thread_.stop();
    for (auto &[from, to] : pending_) {
        close(from);
    }
}

bool OutputRelay::add(int from, int to)
{
    std::lock_guard lock(mutex_);
    if (!thread_.start([this] { run(); })) {
        return false;
    }
    pending_.emplace_back(from, to);
    thread_.wake();
    return true;
}

void OutputRelay::run()
{
    std::vector<std::pair<int, int>> streams;
    Clock::time_point stop_by = Clock::time_point::max();
    char buf[65536];
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            for (auto &p : pending_) {
                streams.push_back(p);
            }
            pending_.clear();
            if (thread_.stopping() && stop_by == Clock::time_point::max()) {
                stop_by = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(kDrainSeconds));
            }
        }
        auto now = Clock::now();
        if (stop_by != Clock::time_point::max() && (streams.empty() || now >= stop_by)) {
            break;
        }
        std::vector<pollfd> fds;
        fds.push_back({thread_.wake_fd(), POLLIN, 0});
        for (auto &[from, to] : streams) {
            fds.push_back({from, POLLIN, 0});
        }
        int timeout = -1;
        if (stop_by != Clock::time_point::max()) {
            timeout = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(stop_by - now).count()) + 1;
        }
        if (poll(fds.data(), fds.size(), timeout) < 0 && errno != EINTR) {
            break;
        }
        if (fds[0].revents != 0) {
            thread_.drain();
        }
        for (size_t i = 1; i < fds.size(); ++i) {
            if (fds[i].revents == 0) {
                continue;
            }
            auto &[from, to] = streams[i - 1];
            ssize_t n = read(from, buf, sizeof buf);
            if (n > 0) {
                plm::write_all(to, buf, static_cast<size_t>(n));
            } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(from);
                from = -1;
            }
        }
        std::erase_if(streams, [](const std::pair<int, int> &s) { return s.first < 0; });
    }
    for (auto &[from, to] : streams) {
        close(from);
    }
}

} // namespace tessera::orte::plm_ssh
