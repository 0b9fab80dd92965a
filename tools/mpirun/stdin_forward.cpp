#include "stdin_forward.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tessera::mpirun {
namespace {

/* Bytes read from mpirun's stdin at once: what a pipe holds by default. */
constexpr size_t kChunk = 64 * 1024;

} // namespace

StdinForwarder::StdinForwarder(int source) : source_(source) {}

StdinForwarder::~StdinForwarder()
{
    for (Sink &s : sinks_) {
        close_sink(s);
    }
}

int StdinForwarder::add_rank(int rank, std::string *error)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        *error = std::string("cannot make the stdin pipe of rank ") + std::to_string(rank) + ": " + std::strerror(errno);
        return -1;
    }
    fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    Sink s;
    s.rank = rank;
    s.fd = fds[1];
    /* A rank that joins late gets the input from the chunk in hand on: what came before is gone. */
    s.done = chunk_.size();
    sinks_.push_back(s);
    if (!source_open_) {
        close_sink(sinks_.back());
    }
    return fds[0];
}

void StdinForwarder::rank_ended(int rank)
{
    for (Sink &s : sinks_) {
        if (s.rank == rank) {
            close_sink(s);
        }
    }
    next_chunk_if_done();
}

void StdinForwarder::append_pollfds(std::vector<pollfd> &fds) const
{
    const bool any_sink = std::any_of(sinks_.begin(), sinks_.end(), [](const Sink &s) { return s.fd >= 0; });
    if (source_open_ && chunk_.empty() && any_sink) {
        fds.push_back({source_, POLLIN, 0});
    }
    for (const Sink &s : sinks_) {
        if (s.fd >= 0 && s.done < chunk_.size()) {
            fds.push_back({s.fd, POLLOUT, 0});
        }
    }
}

void StdinForwarder::on_ready(const pollfd &p)
{
    if (p.revents == 0) {
        return;
    }
    if (p.fd == source_ && source_open_ && chunk_.empty()) {
        read_source();
        return;
    }
    for (Sink &s : sinks_) {
        if (s.fd == p.fd) {
            write_sink(s);
        }
    }
    next_chunk_if_done();
}

void StdinForwarder::read_source()
{
    char buf[kChunk];
    ssize_t n;
    do {
        n = ::read(source_, buf, sizeof buf);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return;
    }
    if (n <= 0) {
        /* End of input (or an unreadable stdin, which the ranks cannot read either): their end too. */
        source_open_ = false;
        for (Sink &s : sinks_) {
            close_sink(s);
        }
        return;
    }
    chunk_.assign(buf, static_cast<size_t>(n));
    for (Sink &s : sinks_) {
        s.done = 0;
        if (s.fd >= 0) {
            write_sink(s);
        }
    }
    next_chunk_if_done();
}

void StdinForwarder::write_sink(Sink &s)
{
    while (s.fd >= 0 && s.done < chunk_.size()) {
        const ssize_t n = ::write(s.fd, chunk_.data() + s.done, chunk_.size() - s.done);
        if (n > 0) {
            s.done += static_cast<size_t>(n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            close_sink(s); /* the rank closed its stdin (EPIPE: mpirun ignores SIGPIPE) */
        }
    }
}

void StdinForwarder::close_sink(Sink &s)
{
    if (s.fd >= 0) {
        ::close(s.fd);
        s.fd = -1;
    }
}

void StdinForwarder::next_chunk_if_done()
{
    for (const Sink &s : sinks_) {
        if (s.fd >= 0 && s.done < chunk_.size()) {
            return;
        }
    }
    chunk_.clear();
    if (!source_open_) {
        for (Sink &s : sinks_) {
            close_sink(s);
        }
    }
}

} // namespace tessera::mpirun
