/* plm ssh: the stdin relay thread (see plm_ssh_input.h). */
#include "components/plm/ssh/plm_ssh_input.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "frameworks/plm/base/plm_base_agent_protocol.h"

namespace tessera::orte::plm_ssh {

namespace agent = plm::agent;
using AgentSend = plm::ChildTable::AgentSend;

InputRelay::~InputRelay()
{
    thread_.stop();
    for (Stream &s : pending_) {
        close(s.fd);
    }
}

bool InputRelay::add(pid_t pid, int from)
{
    std::lock_guard lock(mutex_);
    if (!thread_.start([this] { run(); })) {
        return false;
    }
    Stream s;
    s.pid = pid;
    s.fd = from;
    pending_.push_back(std::move(s));
    thread_.wake();
    return true;
}

bool InputRelay::push(Stream &s)
{
    switch (children_.send_to_agent(s.pid, s.record)) {
    case AgentSend::kSent:
        s.record.clear();
        s.waiting = false;
        return !s.ending;
    case AgentSend::kQueued:
        s.record.clear();
        s.waiting = true;
        return true;
    case AgentSend::kFull:
        s.waiting = true;
        return true;
    case AgentSend::kGone:
        break;
    }
    return false;
}

void InputRelay::run()
{
    std::vector<Stream> streams;
    std::string buf(agent::kMaxInputRecordBytes, '\0');
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (thread_.stopping()) {
                break;
            }
            for (Stream &s : pending_) {
                streams.push_back(std::move(s));
            }
            pending_.clear();
        }
        for (Stream &s : streams) {
            if ((s.waiting || !s.record.empty()) && !push(s)) {
                close(s.fd);
                s.fd = -1;
            }
        }
        std::erase_if(streams, [](const Stream &s) { return s.fd < 0; });

        std::vector<pollfd> fds;
        fds.push_back({thread_.wake_fd(), POLLIN, 0});
        std::vector<Stream *> polled;
        bool any_waiting = false;
        for (Stream &s : streams) {
            if (s.waiting) {
                any_waiting = true;
            } else {
                fds.push_back({s.fd, POLLIN, 0});
                polled.push_back(&s);
            }
        }
        if (poll(fds.data(), fds.size(), any_waiting ? retry_ms_ : -1) < 0 && errno != EINTR) {
            break;
        }
        if (fds[0].revents != 0) {
            thread_.drain();
        }
        for (size_t i = 1; i < fds.size(); ++i) {
            if (fds[i].revents == 0) {
                continue;
            }
            Stream &s = *polled[i - 1];
            ssize_t n = read(s.fd, buf.data(), buf.size());
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
                continue;
            }
            if (n > 0) {
                s.record = agent::encode_input(std::string_view(buf.data(), static_cast<size_t>(n)));
            } else {
                /* End of the caller's input (or an unreadable pipe): the program's end too. */
                s.record = agent::encode_input_end();
                s.ending = true;
            }
            if (!push(s)) {
                close(s.fd);
                s.fd = -1;
            }
        }
        std::erase_if(streams, [](const Stream &s) { return s.fd < 0; });
    }
    for (Stream &s : streams) {
        close(s.fd);
    }
}

} // namespace tessera::orte::plm_ssh
