#include "iof.h"

#include "signal_watch.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace tessera::mpirun {
namespace {

/* Bytes of one unfinished line kept before it is forwarded anyway (a rank printing without newlines). */
constexpr size_t kMaxPending = 64 * 1024;
constexpr size_t kReadChunk = 64 * 1024;

/* Whether a signal that ends the job waits to be read: mpirun's signals are blocked (signal_watch.h),
 * so they stay pending until the event loop reads them. */
bool ending_signal_pending()
{
    sigset_t pending;
    if (sigpending(&pending) != 0) {
        return false;
    }
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        if (sigismember(&pending, sig) == 1 && SignalWatch::ends_job(sig)) {
            return true;
        }
    }
    return false;
}

/* Writes everything, waiting while the reader does not read. Gives up on a closed reader (EPIPE:
 * mpirun ignores SIGPIPE) and then drops further output to that descriptor. A stalled reader (a
 * paused pager) must not make mpirun deaf to signals: it waits in poll() a second at a time and
 * writes at most PIPE_BUF bytes once the descriptor is writable, which a pipe takes without blocking
 * even when the descriptor is a blocking one; a signal that ends the job drops the rest of the
 * output to that descriptor. */
void write_all(int fd, const std::string &data)
{
    static bool dead[3] = {false, false, false};
    if (fd < 0 || fd > 2 || dead[fd]) {
        return;
    }
    size_t done = 0;
    while (done < data.size()) {
        pollfd p{fd, POLLOUT, 0};
        if (poll(&p, 1, 1000) == 0) {
            if (ending_signal_pending()) {
                dead[fd] = true; /* the job ends: the rest of its output would wait the same way */
                return;
            }
            continue;
        }
        const ssize_t n = ::write(fd, data.data() + done, std::min<size_t>(data.size() - done, PIPE_BUF));
        if (n > 0) {
            done += static_cast<size_t>(n);
        } else if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            continue;
        } else {
            dead[fd] = true;
            return;
        }
    }
}

/* A regular file takes what it is given; an error (disk full) drops the rest of that rank's output. */
void write_file(int &fd, const std::string &data)
{
    size_t done = 0;
    while (fd >= 0 && done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n > 0) {
            done += static_cast<size_t>(n);
        } else if (!(n < 0 && errno == EINTR)) {
            ::close(fd);
            fd = -1;
        }
    }
}

std::string rank_dir(const std::string &dir, int rank) { return dir + "/1/rank." + std::to_string(rank); }

} // namespace

OutputForwarder::OutputForwarder(uint32_t jobid, bool tag_output, std::string output_dir)
    : jobid_(jobid), tag_(tag_output), output_dir_(std::move(output_dir))
{
}

OutputForwarder::~OutputForwarder() { close_all(); }

bool OutputForwarder::prepare_output_dir(const std::string &dir, int nranks, std::string *error)
{
    for (int r = 0; r < nranks; ++r) {
        std::error_code ec;
        std::filesystem::create_directories(rank_dir(dir, r), ec);
        if (ec) {
            *error = "--output-filename " + dir + ": cannot create " + rank_dir(dir, r) + ": " + ec.message();
            return false;
        }
    }
    return true;
}

void OutputForwarder::add(int rank, Kind kind, int fd)
{
    if (fd < 0) {
        return;
    }
    Stream s;
    s.rank = rank;
    s.kind = kind;
    s.fd = fd;
    if (!output_dir_.empty()) {
        const std::string path = rank_dir(output_dir_, rank) + (kind == Kind::Stdout ? "/stdout" : "/stderr");
        s.file_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (s.file_fd < 0) {
            message("mpirun: warning: --output-filename: cannot open " + path + ": " + std::strerror(errno) +
                    "; that output is dropped");
        }
    }
    streams_.push_back(std::move(s));
}

void OutputForwarder::append_pollfds(std::vector<pollfd> &fds) const
{
    for (const Stream &s : streams_) {
        if (s.fd >= 0) {
            fds.push_back({s.fd, POLLIN, 0});
        }
    }
}

void OutputForwarder::on_ready(int fd)
{
    for (Stream &s : streams_) {
        if (s.fd == fd) {
            read_some(s);
            return;
        }
    }
}

void OutputForwarder::drain_rank(int rank)
{
    for (Stream &s : streams_) {
        if (s.rank == rank) {
            while (s.fd >= 0 && read_some(s)) {
            }
        }
    }
}

void OutputForwarder::drain_all()
{
    for (Stream &s : streams_) {
        while (s.fd >= 0 && read_some(s)) {
        }
    }
}

bool OutputForwarder::any_open() const
{
    return std::any_of(streams_.begin(), streams_.end(), [](const Stream &s) { return s.fd >= 0; });
}

void OutputForwarder::close_all()
{
    for (Stream &s : streams_) {
        if (s.fd >= 0) {
            forward(s, true);
            close_stream(s);
        }
    }
}

void OutputForwarder::message(const std::string &line)
{
    write_all(STDERR_FILENO, line.back() == '\n' ? line : line + "\n");
}

bool OutputForwarder::read_some(Stream &s)
{
    char buf[kReadChunk];
    for (;;) {
        ssize_t n = ::read(s.fd, buf, sizeof buf);
        if (n > 0) {
            s.pending.append(buf, static_cast<size_t>(n));
            forward(s, false);
            return true;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return false; /* nothing more for now; the stream stays open */
        }
        forward(s, true); /* end-of-file or a broken pipe: the rank has said all it will */
        close_stream(s);
        return false;
    }
}

std::string OutputForwarder::prefix(const Stream &s) const
{
    return "[" + std::to_string(jobid_) + "," + std::to_string(s.rank) + "]" +
           (s.kind == Kind::Stdout ? "<stdout>: " : "<stderr>: ");
}

void OutputForwarder::forward(Stream &s, bool at_eof)
{
    const int out = s.kind == Kind::Stdout ? STDOUT_FILENO : STDERR_FILENO;
    size_t end = s.pending.rfind('\n');
    size_t complete = end == std::string::npos ? 0 : end + 1;
    /* A line that does not end goes out once it is too long to keep, or when the stream ends. */
    bool flush_rest = at_eof || s.pending.size() - complete >= kMaxPending;
    if (complete == 0 && !(flush_rest && !s.pending.empty())) {
        return;
    }
    std::string data;
    if (!output_dir_.empty()) {
        data = flush_rest ? std::move(s.pending) : s.pending.substr(0, complete);
        s.pending = flush_rest ? std::string() : s.pending.substr(complete);
        write_file(s.file_fd, data);
        return;
    }
    if (!tag_) {
        data = flush_rest ? std::move(s.pending) : s.pending.substr(0, complete);
    } else {
        const std::string pre = prefix(s);
        size_t pos = 0;
        while (pos < complete) {
            size_t nl = s.pending.find('\n', pos);
            data += pre;
            data.append(s.pending, pos, nl + 1 - pos);
            pos = nl + 1;
        }
        if (flush_rest && complete < s.pending.size()) {
            data += pre;
            data.append(s.pending, complete, std::string::npos);
            data += '\n';
        }
    }
    s.pending = flush_rest ? std::string() : s.pending.substr(complete);
    write_all(out, data);
}

void OutputForwarder::close_stream(Stream &s)
{
    if (s.fd >= 0) {
        ::close(s.fd);
        s.fd = -1;
    }
    if (s.file_fd >= 0) {
        ::close(s.file_fd);
        s.file_fd = -1;
    }
}

} // namespace tessera::mpirun
