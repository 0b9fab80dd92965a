/*
 * A rank's wire-up client (kv_client.h). Strictly request/response on one TCP connection, with a
 * non-blocking socket driven by poll(2) so every wait has a deadline and survives EINTR (an
 * application's signal handlers are installed before MPI_Init).
 *
 * Deadlines: connecting, the handshake, ABORT and FINALIZE use the connect timeout. A fence has none:
 * it lasts until the slowest rank arrives, which is mpirun's to bound (--timeout); if mpirun goes
 * away the connection closes and the fence fails.
 */
#include "orte/kv/kv_client.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <utility>

#include "mca/constants.h"
#include "orte/kv/kv_protocol.h"

namespace tessera::orte {

namespace {

using kv::Bytes, kv::Frame, kv::FrameReader, kv::MsgType, kv::UniqueFd;
using Clock = std::chrono::steady_clock;

constexpr Clock::time_point kNoDeadline = Clock::time_point::max();
constexpr size_t kReadChunkBytes = 64u << 10;
/* An abort message is one line for a human; the cap keeps it far below any frame limit. */
constexpr size_t kMaxAbortMessageBytes = 4096;

Clock::time_point deadline_after(double seconds)
{
    if (!std::isfinite(seconds) || seconds > 1e9) {
        return kNoDeadline;
    }
    if (seconds < 0) {
        seconds = 0;
    }
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

/* Waits for `events` on fd; TESSERA_ERR_TIMEOUT once the deadline has passed. */
int wait_for(int fd, short events, Clock::time_point deadline)
{
    for (;;) {
        int timeout_ms = -1;
        if (deadline != kNoDeadline) {
            auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) {
                return TESSERA_ERR_TIMEOUT;
            }
            timeout_ms = left > 60000 ? 60000 : static_cast<int>(left);
        }
        pollfd p{fd, events, 0};
        int r = ::poll(&p, 1, timeout_ms);
        if (r > 0) {
            return TESSERA_SUCCESS; /* errors and hang-ups show in the recv/send that follows */
        }
        if (r < 0 && errno != EINTR) {
            return TESSERA_ERR_IO;
        }
    }
}

/* "host:port" or "[v6 address]:port". */
bool split_uri(const std::string &uri, std::string *host, std::string *port)
{
    size_t colon;
    if (!uri.empty() && uri[0] == '[') {
        size_t close = uri.find(']');
        if (close == std::string::npos || close + 1 >= uri.size() || uri[close + 1] != ':') {
            return false;
        }
        *host = uri.substr(1, close - 1);
        colon = close + 1;
    } else {
        colon = uri.rfind(':');
        if (colon == std::string::npos) {
            return false;
        }
        *host = uri.substr(0, colon);
    }
    *port = uri.substr(colon + 1);
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port->data(), port->data() + port->size(), value);
    return !host->empty() && ec == std::errc() && end == port->data() + port->size() && value >= 1 &&
           value <= 65535;
}

class Client final : public KvClient {
public:
    Client(UniqueFd fd, double timeout) : fd_(std::move(fd)), timeout_(timeout) {}

    int put(std::string_view key, std::span<const std::byte> value) override
    {
        if (broken_) {
            return TESSERA_ERR_IO;
        }
        return kv::encode_put(pending_, key, value) ? TESSERA_SUCCESS : TESSERA_ERR_BAD_PARAM;
    }

    int fence() override
    {
        if (broken_) {
            return TESSERA_ERR_IO;
        }
        kv::encode_empty(pending_, MsgType::Fence);
        Bytes out;
        out.swap(pending_);
        int rc = send_all(out, kNoDeadline);
        if (rc != TESSERA_SUCCESS) {
            return rc;
        }
        Frame f;
        rc = read_frame(&f, kNoDeadline);
        if (rc != TESSERA_SUCCESS) {
            return rc;
        }
        if (f.type != static_cast<uint8_t>(MsgType::FenceDone)) {
            return fail(TESSERA_ERR_IO);
        }
        auto entries = kv::decode_fence_done(f.payload, nullptr);
        if (!entries) {
            return fail(TESSERA_ERR_IO);
        }
        /* In arrival order, so a key put twice keeps its last value. */
        for (auto &e : *entries) {
            store_[{static_cast<int>(e.rank), std::move(e.key)}] = std::move(e.value);
        }
        return TESSERA_SUCCESS;
    }

    std::optional<std::vector<std::byte>> get(int rank, std::string_view key) const override
    {
        auto it = store_.find(std::pair<int, std::string>(rank, std::string(key)));
        if (it == store_.end()) {
            return std::nullopt;
        }
        return it->second;
    }

    int abort(int exit_code, std::string_view message) override
    {
        Bytes out;
        kv::encode_abort(out, exit_code, message.substr(0, kMaxAbortMessageBytes));
        return request(out);
    }

    int finalize() override
    {
        Bytes out;
        kv::encode_empty(out, MsgType::Finalize);
        return request(out);
    }

    /* The handshake: HELLO, answered by ACK; the server closes instead when it refuses. */
    int hello(int rank, const std::string &job_key, Clock::time_point deadline)
    {
        Bytes out;
        if (!kv::encode_hello(out, static_cast<uint32_t>(rank), job_key)) {
            return TESSERA_ERR_BAD_PARAM;
        }
        return request(out, deadline);
    }

private:
    int fail(int rc)
    {
        broken_ = true;
        return rc;
    }

    /* Sends a frame and waits for the ACK. */
    int request(const Bytes &frame, Clock::time_point deadline)
    {
        if (broken_) {
            return TESSERA_ERR_IO;
        }
        int rc = send_all(frame, deadline);
        Frame f;
        if (rc == TESSERA_SUCCESS) {
            rc = read_frame(&f, deadline);
        }
        if (rc == TESSERA_SUCCESS && (f.type != static_cast<uint8_t>(MsgType::Ack) || !f.payload.empty())) {
            rc = fail(TESSERA_ERR_IO);
        }
        return rc;
    }
    int request(const Bytes &frame) { return request(frame, deadline_after(timeout_)); }

    int send_all(const Bytes &data, Clock::time_point deadline)
    {
        size_t off = 0;
        while (off < data.size()) {
            ssize_t r = ::send(fd_.get(), data.data() + off, data.size() - off, MSG_NOSIGNAL);
            if (r > 0) {
                off += static_cast<size_t>(r);
            } else if (r < 0 && errno == EINTR) {
                continue;
            } else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                int rc = wait_for(fd_.get(), POLLOUT, deadline);
                if (rc != TESSERA_SUCCESS) {
                    return fail(rc); /* part of a frame may be out: the stream is unusable */
                }
            } else {
                return fail(TESSERA_ERR_IO);
            }
        }
        return TESSERA_SUCCESS;
    }

    int read_frame(Frame *frame, Clock::time_point deadline)
    {
        for (;;) {
            std::string error;
            switch (reader_.next(frame, &error)) {
            case FrameReader::Status::Frame: return TESSERA_SUCCESS;
            case FrameReader::Status::Error: return fail(TESSERA_ERR_IO);
            case FrameReader::Status::NeedMore: break;
            }
            auto room = reader_.prepare(kReadChunkBytes);
            ssize_t r = ::recv(fd_.get(), room.data(), room.size(), 0);
            if (r > 0) {
                reader_.commit(static_cast<size_t>(r));
            } else if (r == 0) {
                return fail(TESSERA_ERR_IO); /* mpirun closed the connection */
            } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                int rc = wait_for(fd_.get(), POLLIN, deadline);
                if (rc != TESSERA_SUCCESS) {
                    return fail(rc);
                }
            } else {
                return fail(TESSERA_ERR_IO);
            }
        }
    }

    UniqueFd fd_;
    double timeout_;
    FrameReader reader_{kv::kMaxPayloadBytes};
    Bytes pending_; /* PUT frames waiting for the fence */
    std::map<std::pair<int, std::string>, Bytes> store_;
    bool broken_ = false;
};

/* One address: a non-blocking connect that finishes within the deadline. */
UniqueFd connect_to(const addrinfo *ai, Clock::time_point deadline, std::string *why)
{
    UniqueFd s(::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol));
    if (!s) {
        *why = std::strerror(errno);
        return {};
    }
    if (::connect(s.get(), ai->ai_addr, ai->ai_addrlen) != 0) {
        /* EINTR: the connect carries on in the background, exactly as EINPROGRESS. */
        if (errno != EINPROGRESS && errno != EINTR) {
            *why = std::strerror(errno);
            return {};
        }
        if (wait_for(s.get(), POLLOUT, deadline) != TESSERA_SUCCESS) {
            *why = "timed out";
            return {};
        }
        int err = 0;
        socklen_t len = sizeof err;
        if (::getsockopt(s.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0) {
            err = errno;
        }
        if (err != 0) {
            *why = std::strerror(err);
            return {};
        }
    }
    int one = 1;
    ::setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return s;
}

} // namespace

std::unique_ptr<KvClient> KvClient::connect(const std::string &uri, const std::string &job_key, int rank,
                                            std::string *error, double timeout_seconds)
{
    std::string ignored;
    std::string &err = error != nullptr ? *error : ignored;
    std::string host;
    std::string port;
    if (!split_uri(uri, &host, &port)) {
        err = "wire-up: '" + uri + "' is not address:port";
        return nullptr;
    }
    if (rank < 0) {
        err = "wire-up: rank " + std::to_string(rank) + " is negative";
        return nullptr;
    }
    Clock::time_point deadline = deadline_after(timeout_seconds);

    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *res = nullptr;
    int gai = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &res);
    if (gai != 0) {
        err = "wire-up: cannot resolve '" + host + "': " + gai_strerror(gai);
        return nullptr;
    }
    UniqueFd fd;
    std::string why = "no address";
    for (const addrinfo *ai = res; ai != nullptr && !fd; ai = ai->ai_next) {
        fd = connect_to(ai, deadline, &why);
    }
    ::freeaddrinfo(res);
    if (!fd) {
        err = "wire-up: cannot connect to mpirun at " + uri + ": " + why;
        return nullptr;
    }

    auto client = std::make_unique<Client>(std::move(fd), timeout_seconds);
    int rc = client->hello(rank, job_key, deadline);
    if (rc == TESSERA_ERR_TIMEOUT) {
        err = "wire-up: mpirun at " + uri + " did not answer the handshake in time";
        return nullptr;
    }
    if (rc != TESSERA_SUCCESS) {
        err = "wire-up: mpirun at " + uri + " refused rank " + std::to_string(rank) +
              " (wrong job key, rank out of range or already connected; mpirun's output says which)";
        return nullptr;
    }
    return client;
}

} // namespace tessera::orte
