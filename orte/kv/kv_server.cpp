/*
 * mpirun's wire-up service (kv_server.h). One epoll set holds the listening socket, a timerfd for
 * handshake deadlines and every connection, so mpirun can poll fd() among its other descriptors and
 * a silent connection still expires without help from the caller.
 *
 * A connection starts in the handshake: it may send one small HELLO frame and nothing else until the
 * key and rank have been checked. Only then does it get the full frame limit. Any protocol error
 * closes just that connection; the job's state (puts, fence count) is never rolled back or blocked by
 * a stranger.
 *
 * Longer than most files here because the connection state machine, the fence and the rank tables
 * change together on every frame; split, each half would need the other's internals.
 */
#include "orte/kv/kv_server.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <set>
#include <unordered_map>
#include <vector>

#include "orte/kv/job_key.h"
#include "orte/kv/kv_protocol.h"

namespace tessera::orte {

namespace {

using kv::Bytes, kv::Frame, kv::FrameReader, kv::MsgType, kv::UniqueFd;
using Clock = std::chrono::steady_clock;

constexpr uint64_t kListenId = 0;
constexpr uint64_t kTimerId = 1;
/* Connections still in their handshake beyond this evict the oldest: a flood of idle sockets must
 * not starve mpirun of file descriptors. */
constexpr size_t kMaxPendingHandshakes = 128;
constexpr size_t kHandshakeReadBytes = 4096;
constexpr size_t kReadChunkBytes = 64u << 10;
constexpr size_t kMaxReadChunkBytes = 4u << 20;
/* Per readiness event, so that one rank streaming a large put does not starve the others. */
constexpr size_t kMaxReadPerEvent = 8u << 20;
constexpr int kMaxEvents = 64;
constexpr int kMaxAcceptsPerEvent = 64;
constexpr size_t kMinFrameBytes = 8u << 10;

std::string errno_text(int err) { return std::strerror(err); }

/* "1.2.3.4:5" or "[::1]:5"; with_port=false gives the bare address. */
std::string format_address(const sockaddr *sa, bool with_port)
{
    char text[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    bool v6 = false;
    if (sa->sa_family == AF_INET) {
        const auto *in = reinterpret_cast<const sockaddr_in *>(sa);
        inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
        port = ntohs(in->sin_port);
    } else if (sa->sa_family == AF_INET6) {
        const auto *in6 = reinterpret_cast<const sockaddr_in6 *>(sa);
        inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
        port = ntohs(in6->sin6_port);
        v6 = true;
    }
    std::string addr = v6 && with_port ? "[" + std::string(text) + "]" : std::string(text);
    return with_port ? addr + ":" + std::to_string(port) : addr;
}

bool is_wildcard(const sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        return reinterpret_cast<const sockaddr_in *>(sa)->sin_addr.s_addr == htonl(INADDR_ANY);
    }
    if (sa->sa_family == AF_INET6) {
        return IN6_IS_ADDR_UNSPECIFIED(&reinterpret_cast<const sockaddr_in6 *>(sa)->sin6_addr);
    }
    return false;
}

const std::shared_ptr<const Bytes> &ack_frame()
{
    static const std::shared_ptr<const Bytes> frame = [] {
        Bytes b;
        kv::encode_empty(b, MsgType::Ack);
        return std::make_shared<const Bytes>(std::move(b));
    }();
    return frame;
}

struct Conn {
    uint64_t id = 0;
    UniqueFd fd;
    std::string peer;
    FrameReader reader{kv::kMaxHelloPayloadBytes};
    Clock::time_point deadline;
    bool ready = false; /* handshake done */
    bool closed = false;
    int rank = -1;
    std::deque<std::shared_ptr<const Bytes>> out;
    size_t out_offset = 0;
    bool want_write = false;
};

class Server final : public KvServer {
public:
    Server(const KvServerOptions &options, KvServerEvents events)
        : options_(options), events_(std::move(events)),
          rank_conn_(static_cast<size_t>(options.nranks), 0),
          rank_seen_(static_cast<size_t>(options.nranks), 0),
          rank_fenced_(static_cast<size_t>(options.nranks), 0),
          rank_finalized_(static_cast<size_t>(options.nranks), 0)
    {
    }

    bool init(std::string *error);

    std::string uri() const override { return uri_; }
    int fd() const override { return epoll_.get(); }
    void progress(int timeout_ms) override;
    int connected_ranks() const override { return connected_; }
    bool rank_finalized(int rank) const override
    {
        return rank >= 0 && rank < options_.nranks && rank_finalized_[static_cast<size_t>(rank)] != 0;
    }
    bool rank_seen(int rank) const override
    {
        return rank >= 0 && rank < options_.nranks && rank_seen_[static_cast<size_t>(rank)] != 0;
    }

private:
    void accept_all();
    void refuse_accept_overflow();
    void on_event(Conn &c, uint32_t events);
    void read_from(Conn &c);
    bool drain_frames(Conn &c);
    void on_end_of_stream(Conn &c, const std::string &cause);
    bool handle_frame(Conn &c, const Frame &f);
    bool handle_hello(Conn &c, const Frame &f);
    void complete_fence();
    void send(Conn &c, std::shared_ptr<const Bytes> frame);
    void flush(Conn &c);
    void set_want_write(Conn &c, bool on);
    void reject(Conn &c, const std::string &reason);
    void close_conn(Conn &c);
    void expire_handshakes();
    void arm_timer();

    KvServerOptions options_;
    KvServerEvents events_;
    std::string uri_;
    UniqueFd listen_;
    UniqueFd epoll_;
    UniqueFd timer_;
    UniqueFd spare_; /* given up to accept-and-close when out of descriptors */
    uint64_t next_id_ = 2;
    std::unordered_map<uint64_t, std::unique_ptr<Conn>> conns_;
    std::set<uint64_t> handshaking_; /* ids in accept order = deadline order */
    std::vector<uint64_t> dead_;
    std::vector<uint64_t> rank_conn_; /* 0: not connected */
    std::vector<char> rank_seen_;     /* a rank may say HELLO once per job */
    std::vector<char> rank_fenced_;
    std::vector<char> rank_finalized_;
    int connected_ = 0;
    int fenced_count_ = 0;
    kv::FenceDoneBuilder epoch_;
};

bool Server::init(std::string *error)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo *res = nullptr;
    int gai = getaddrinfo(options_.bind_address.c_str(), "0", &hints, &res);
    if (gai != 0) {
        *error = "wire-up service: cannot resolve bind address '" + options_.bind_address + "': " +
                 gai_strerror(gai);
        return false;
    }
    std::string last_error = "no usable address";
    for (addrinfo *ai = res; ai != nullptr && !listen_; ai = ai->ai_next) {
        UniqueFd s(::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol));
        if (!s) {
            last_error = errno_text(errno);
            continue;
        }
        if (::bind(s.get(), ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(s.get(), SOMAXCONN) != 0) {
            last_error = errno_text(errno);
            continue;
        }
        listen_ = std::move(s);
    }
    freeaddrinfo(res);
    if (!listen_) {
        *error = "wire-up service: cannot listen on '" + options_.bind_address + "': " + last_error;
        return false;
    }

    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    if (::getsockname(listen_.get(), reinterpret_cast<sockaddr *>(&ss), &len) != 0) {
        *error = "wire-up service: getsockname: " + errno_text(errno);
        return false;
    }
    const auto *sa = reinterpret_cast<const sockaddr *>(&ss);
    if (is_wildcard(sa)) {
        /* Listening on every interface: the ranks reach it through this host's name. */
        char host[256] = {};
        if (::gethostname(host, sizeof host - 1) != 0) {
            *error = "wire-up service: gethostname: " + errno_text(errno);
            return false;
        }
        unsigned port = ntohs(sa->sa_family == AF_INET ? reinterpret_cast<const sockaddr_in *>(sa)->sin_port
                                                       : reinterpret_cast<const sockaddr_in6 *>(sa)->sin6_port);
        uri_ = std::string(host) + ":" + std::to_string(port);
    } else {
        uri_ = format_address(sa, true);
    }

    epoll_.reset(::epoll_create1(EPOLL_CLOEXEC));
    timer_.reset(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
    if (!epoll_ || !timer_) {
        *error = "wire-up service: epoll/timerfd: " + errno_text(errno);
        return false;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = kListenId;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, listen_.get(), &ev) != 0) {
        *error = "wire-up service: epoll_ctl: " + errno_text(errno);
        return false;
    }
    ev.data.u64 = kTimerId;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, timer_.get(), &ev) != 0) {
        *error = "wire-up service: epoll_ctl: " + errno_text(errno);
        return false;
    }
    spare_.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    return true;
}

void Server::progress(int timeout_ms)
{
    epoll_event events[kMaxEvents];
    int n = ::epoll_wait(epoll_.get(), events, kMaxEvents, timeout_ms);
    for (int i = 0; i < n; ++i) {
        uint64_t id = events[i].data.u64;
        if (id == kListenId) {
            accept_all();
        } else if (id == kTimerId) {
            uint64_t expirations;
            while (::read(timer_.get(), &expirations, sizeof expirations) > 0) {
            }
        } else if (auto it = conns_.find(id); it != conns_.end() && !it->second->closed) {
            on_event(*it->second, events[i].events);
        }
    }
    /* n < 0 is EINTR (or a bug that would repeat forever): the caller's loop comes back either way. */
    expire_handshakes();
    for (uint64_t id : dead_) {
        conns_.erase(id);
    }
    dead_.clear();
    arm_timer();
}

void Server::accept_all()
{
    for (int i = 0; i < kMaxAcceptsPerEvent; ++i) {
        sockaddr_storage ss{};
        socklen_t len = sizeof ss;
        int fd = ::accept4(listen_.get(), reinterpret_cast<sockaddr *>(&ss), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) {
                continue;
            }
            if (errno == EMFILE || errno == ENFILE) {
                refuse_accept_overflow();
            }
            return; /* EAGAIN, or an error the next readiness will show again */
        }
        auto conn = std::make_unique<Conn>();
        conn->id = next_id_++;
        conn->fd.reset(fd);
        conn->peer = format_address(reinterpret_cast<const sockaddr *>(&ss), true);
        if (handshaking_.size() >= kMaxPendingHandshakes) {
            /* The oldest goes, not the newcomer: a real rank says HELLO at once, so a flood of idle
             * connections can delay it by no more than one round of evictions. */
            auto oldest = conns_.find(*handshaking_.begin());
            if (oldest != conns_.end()) {
                reject(*oldest->second, "evicted: too many connections waiting for their handshake");
            }
        }
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLRDHUP;
        ev.data.u64 = conn->id;
        if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) != 0) {
            if (events_.on_rejected) {
                events_.on_rejected(conn->peer, "epoll_ctl: " + errno_text(errno));
            }
            continue;
        }
        conn->deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(options_.handshake_timeout));
        handshaking_.insert(conn->id);
        conns_.emplace(conn->id, std::move(conn));
    }
}

/* Out of descriptors, the pending connection would keep the listener readable forever: free the
 * spare descriptor, take the connection and close it, then keep a spare again. */
void Server::refuse_accept_overflow()
{
    if (!spare_) {
        return;
    }
    spare_.reset();
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    UniqueFd fd(::accept4(listen_.get(), reinterpret_cast<sockaddr *>(&ss), &len, SOCK_CLOEXEC));
    if (fd && events_.on_rejected) {
        events_.on_rejected(format_address(reinterpret_cast<const sockaddr *>(&ss), true),
                            "mpirun is out of file descriptors");
    }
    fd.reset();
    spare_.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
}

void Server::on_event(Conn &c, uint32_t events)
{
    if ((events & EPOLLOUT) != 0) {
        flush(c);
    }
    if (!c.closed && (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) {
        read_from(c);
    }
}

void Server::read_from(Conn &c)
{
    size_t total = 0;
    while (!c.closed && total < kMaxReadPerEvent) {
        size_t want = c.ready ? kReadChunkBytes : kHandshakeReadBytes;
        size_t expected = c.reader.expected_frame_bytes();
        if (c.ready && expected > c.reader.buffered()) {
            want = std::max(want, std::min(expected - c.reader.buffered(), kMaxReadChunkBytes));
        }
        auto room = c.reader.prepare(want);
        ssize_t r = ::recv(c.fd.get(), room.data(), room.size(), 0);
        if (r > 0) {
            c.reader.commit(static_cast<size_t>(r));
            total += static_cast<size_t>(r);
            if (!drain_frames(c)) {
                return;
            }
        } else if (r == 0) {
            on_end_of_stream(c, "closed the connection");
            return;
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return;
        } else {
            on_end_of_stream(c, "connection error: " + errno_text(errno));
            return;
        }
    }
}

bool Server::drain_frames(Conn &c)
{
    for (;;) {
        Frame f;
        std::string error;
        switch (c.reader.next(&f, &error)) {
        case FrameReader::Status::NeedMore: return true;
        case FrameReader::Status::Error: reject(c, error); return false;
        case FrameReader::Status::Frame:
            if (!handle_frame(c, f)) {
                return false;
            }
            break;
        }
    }
}

void Server::on_end_of_stream(Conn &c, const std::string &cause)
{
    if (c.reader.mid_frame()) {
        size_t expected = c.reader.expected_frame_bytes();
        reject(c, "truncated frame: " + cause + " after " + std::to_string(c.reader.buffered()) + " of " +
                      (expected != 0 ? std::to_string(expected) + " bytes" : "a 5-byte frame header"));
    } else if (!c.ready) {
        reject(c, cause + " before the handshake");
    } else {
        /* A rank going away is mpirun's to notice (the process exits); here it only frees the slot. */
        close_conn(c);
    }
}

bool Server::handle_frame(Conn &c, const Frame &f)
{
    if (!c.ready) {
        if (f.type != static_cast<uint8_t>(MsgType::Hello)) {
            reject(c, "expected HELLO as the first message, got " + kv::type_name(f.type));
            return false;
        }
        return handle_hello(c, f);
    }
    auto rank = static_cast<size_t>(c.rank);
    std::string error;
    switch (static_cast<MsgType>(f.type)) {
    case MsgType::Put: {
        if (rank_fenced_[rank] != 0) {
            reject(c, "PUT while its FENCE is pending");
            return false;
        }
        auto put = kv::decode_put(f.payload, &error);
        if (!put) {
            reject(c, "malformed PUT: " + error);
            return false;
        }
        if (!epoch_.add(static_cast<uint32_t>(c.rank), put->key, put->value)) {
            reject(c, "the data put before this fence exceeds the 4 GiB a FENCE_DONE frame can carry");
            return false;
        }
        return true;
    }
    case MsgType::Fence:
        if (!f.payload.empty() || rank_fenced_[rank] != 0) {
            reject(c, !f.payload.empty() ? "FENCE with a payload" : "second FENCE before FENCE_DONE");
            return false;
        }
        rank_fenced_[rank] = 1;
        if (++fenced_count_ == options_.nranks) {
            complete_fence();
        }
        return !c.closed;
    case MsgType::Abort: {
        auto msg = kv::decode_abort(f.payload, &error);
        if (!msg) {
            reject(c, "malformed ABORT: " + error);
            return false;
        }
        if (events_.on_abort) {
            events_.on_abort(c.rank, msg->exit_code, msg->message);
        }
        send(c, ack_frame());
        return !c.closed;
    }
    case MsgType::Finalize:
        if (!f.payload.empty()) {
            reject(c, "FINALIZE with a payload");
            return false;
        }
        if (rank_finalized_[rank] == 0) {
            rank_finalized_[rank] = 1;
            if (events_.on_finalize) {
                events_.on_finalize(c.rank);
            }
        }
        send(c, ack_frame());
        return !c.closed;
    case MsgType::Hello:
    case MsgType::FenceDone:
    case MsgType::Ack: break;
    }
    reject(c, "unexpected " + kv::type_name(f.type) + " from a connected rank");
    return false;
}

bool Server::handle_hello(Conn &c, const Frame &f)
{
    std::string error;
    auto hello = kv::decode_hello(f.payload, &error);
    if (!hello) {
        reject(c, "malformed HELLO: " + error);
        return false;
    }
    if (hello->version != kv::kProtocolVersion) {
        reject(c, "protocol version " + std::to_string(hello->version) + " (this mpirun speaks " +
                      std::to_string(kv::kProtocolVersion) + ")");
        return false;
    }
    /* The key is checked before the rank, so that a stranger learns nothing about the job. */
    if (!job_key_equal(hello->key, options_.job_key)) {
        reject(c, "wrong job key");
        return false;
    }
    if (hello->rank >= static_cast<uint32_t>(options_.nranks)) {
        reject(c, "rank " + std::to_string(hello->rank) + " is out of range (the job has " +
                      std::to_string(options_.nranks) + " ranks)");
        return false;
    }
    auto rank = static_cast<size_t>(hello->rank);
    if (rank_seen_[rank] != 0) {
        reject(c, "rank " + std::to_string(rank) +
                      (rank_conn_[rank] != 0 ? " is already connected" : " already connected once and left"));
        return false;
    }
    c.ready = true;
    c.rank = static_cast<int>(rank);
    c.peer += " (rank " + std::to_string(rank) + ")";
    c.reader.set_max_payload(options_.max_frame_bytes);
    handshaking_.erase(c.id);
    rank_seen_[rank] = 1;
    rank_conn_[rank] = c.id;
    ++connected_;
    send(c, ack_frame());
    return !c.closed;
}

void Server::complete_fence()
{
    auto frame = std::make_shared<const Bytes>(epoch_.finish());
    fenced_count_ = 0;
    for (size_t r = 0; r < rank_fenced_.size(); ++r) {
        rank_fenced_[r] = 0;
        if (rank_conn_[r] == 0) {
            continue; /* fenced, then left: nothing to deliver */
        }
        auto it = conns_.find(rank_conn_[r]);
        if (it != conns_.end() && !it->second->closed) {
            send(*it->second, frame);
        }
    }
}

void Server::send(Conn &c, std::shared_ptr<const Bytes> frame)
{
    if (c.closed) {
        return;
    }
    c.out.push_back(std::move(frame));
    if (!c.want_write) {
        flush(c);
    }
}

void Server::flush(Conn &c)
{
    while (!c.closed && !c.out.empty()) {
        const Bytes &front = *c.out.front();
        ssize_t r = ::send(c.fd.get(), front.data() + c.out_offset, front.size() - c.out_offset,
                           MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r > 0) {
            c.out_offset += static_cast<size_t>(r);
            if (c.out_offset == front.size()) {
                c.out.pop_front();
                c.out_offset = 0;
            }
        } else if (r < 0 && errno == EINTR) {
            continue;
        } else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            set_want_write(c, true);
            return;
        } else {
            /* The peer is gone (EPIPE, ECONNRESET): as with end-of-file, not an attack. */
            close_conn(c);
            return;
        }
    }
    set_want_write(c, false);
}

void Server::set_want_write(Conn &c, bool on)
{
    if (c.closed || c.want_write == on) {
        return;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | (on ? EPOLLOUT : 0u);
    ev.data.u64 = c.id;
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, c.fd.get(), &ev);
    c.want_write = on;
}

void Server::reject(Conn &c, const std::string &reason)
{
    std::string peer = c.peer;
    close_conn(c);
    if (events_.on_rejected) {
        events_.on_rejected(peer, reason);
    }
}

/* The Conn stays in the map (callers hold references) until progress() ends. */
void Server::close_conn(Conn &c)
{
    if (c.closed) {
        return;
    }
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, c.fd.get(), nullptr);
    c.fd.reset();
    c.closed = true;
    c.out.clear();
    if (c.ready) {
        rank_conn_[static_cast<size_t>(c.rank)] = 0;
        --connected_;
    } else {
        handshaking_.erase(c.id);
    }
    dead_.push_back(c.id);
}

void Server::expire_handshakes()
{
    auto now = Clock::now();
    while (!handshaking_.empty()) {
        auto it = conns_.find(*handshaking_.begin());
        if (it == conns_.end()) {
            handshaking_.erase(handshaking_.begin());
            continue;
        }
        Conn &c = *it->second;
        if (c.deadline > now) {
            break;
        }
        char secs[32];
        std::snprintf(secs, sizeof secs, "%g", options_.handshake_timeout);
        reject(c, std::string("no HELLO within the handshake timeout of ") + secs + " s");
    }
}

void Server::arm_timer()
{
    itimerspec spec{};
    if (!handshaking_.empty()) {
        auto it = conns_.find(*handshaking_.begin());
        if (it != conns_.end()) {
            auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(it->second->deadline - Clock::now())
                          .count();
            if (ns < 1) {
                ns = 1; /* zero would disarm the timer */
            }
            spec.it_value.tv_sec = static_cast<time_t>(ns / 1000000000);
            spec.it_value.tv_nsec = static_cast<long>(ns % 1000000000);
        }
    }
    ::timerfd_settime(timer_.get(), 0, &spec, nullptr);
}

} // namespace

std::unique_ptr<KvServer> KvServer::start(const KvServerOptions &options, KvServerEvents events, std::string *error)
{
    std::string ignored;
    std::string &err = error != nullptr ? *error : ignored;
    if (options.nranks < 1) {
        err = "wire-up service: nranks must be at least 1, not " + std::to_string(options.nranks);
        return nullptr;
    }
    if (options.job_key.empty()) {
        /* An empty key would let anyone in. */
        err = "wire-up service: no job key";
        return nullptr;
    }
    /* The floor leaves room for any ABORT a client sends (its message is capped at 4 KiB). */
    if (options.max_frame_bytes < kMinFrameBytes || options.max_frame_bytes > kv::kMaxPayloadBytes) {
        err = "wire-up service: max_frame_bytes must be between " + std::to_string(kMinFrameBytes) + " and " +
              std::to_string(kv::kMaxPayloadBytes) +
              ", not " + std::to_string(options.max_frame_bytes);
        return nullptr;
    }
    if (!std::isfinite(options.handshake_timeout) || options.handshake_timeout <= 0 ||
        options.handshake_timeout > 86400.0) {
        err = "wire-up service: handshake_timeout must be a number of seconds in (0, 86400]";
        return nullptr;
    }
    auto server = std::make_unique<Server>(options, std::move(events));
    if (!server->init(&err)) {
        return nullptr;
    }
    return server;
}

} // namespace tessera::orte
