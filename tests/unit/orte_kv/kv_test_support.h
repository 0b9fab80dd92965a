// Test support for the wire-up service: a server driven the way mpirun drives it (poll fd(), then
// progress()) on its own thread, the events it reported, the ranks of a job as client threads, and a
// raw TCP socket for hostile clients.
#ifndef TESSERA_TESTS_ORTE_KV_SUPPORT_H
#define TESSERA_TESTS_ORTE_KV_SUPPORT_H

#include <gtest/gtest.h>

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "orte/kv/kv_client.h"
#include "orte/kv/kv_protocol.h"
#include "orte/kv/kv_server.h"

namespace kvtest {

using Clock = std::chrono::steady_clock;

struct Rejection {
    std::string peer;
    std::string reason;
};
struct AbortEvent {
    int rank;
    int code;
    std::string message;
};

class ServerThread {
public:
    explicit ServerThread(tessera::orte::KvServerOptions options)
    {
        // The callbacks run inside progress(), which the server thread calls with mu_ held.
        tessera::orte::KvServerEvents events;
        events.on_abort = [this](int rank, int code, const std::string &msg) {
            aborts_.push_back({rank, code, msg});
            cv_.notify_all();
        };
        events.on_finalize = [this](int rank) {
            finalized_.push_back(rank);
            cv_.notify_all();
        };
        events.on_rejected = [this](const std::string &peer, const std::string &reason) {
            rejected_.push_back({peer, reason});
            cv_.notify_all();
        };
        std::string error;
        server_ = tessera::orte::KvServer::start(options, std::move(events), &error);
        if (!server_) {
            ADD_FAILURE() << error;
            return;
        }
        uri_ = server_->uri();
        // As mpirun does: wait on fd() without holding anything, then progress() without waiting.
        thread_ = std::thread([this] {
            while (!stop_) {
                pollfd p{server_->fd(), POLLIN, 0};
                ::poll(&p, 1, 20);
                std::lock_guard lock(mu_);
                server_->progress(0);
                cv_.notify_all();
            }
        });
    }
    ~ServerThread()
    {
        stop_ = true;
        if (thread_.joinable()) {
            thread_.join();
        }
    }

    bool ok() const { return server_ != nullptr; }
    const std::string &uri() const { return uri_; }

    /* Runs f under the server's lock (the server is single-threaded). */
    template <class F> auto with_server(F f)
    {
        std::lock_guard lock(mu_);
        return f(*server_);
    }

    /* Waits until pred() (called under the lock) holds; false on timeout. */
    bool wait_until(const std::function<bool()> &pred, double seconds = 10.0)
    {
        std::unique_lock lock(mu_);
        return cv_.wait_for(lock, std::chrono::duration<double>(seconds), pred);
    }

    std::vector<Rejection> rejected()
    {
        std::lock_guard lock(mu_);
        return rejected_;
    }
    std::vector<AbortEvent> aborts()
    {
        std::lock_guard lock(mu_);
        return aborts_;
    }
    std::vector<int> finalized()
    {
        std::lock_guard lock(mu_);
        return finalized_;
    }
    size_t rejected_count_locked() const { return rejected_.size(); }
    size_t finalized_count_locked() const { return finalized_.size(); }
    size_t aborts_count_locked() const { return aborts_.size(); }
    tessera::orte::KvServer &server_locked() { return *server_; }

private:
    std::unique_ptr<tessera::orte::KvServer> server_;
    std::string uri_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::mutex mu_;
    std::condition_variable cv_;
    std::vector<Rejection> rejected_;
    std::vector<AbortEvent> aborts_;
    std::vector<int> finalized_;
};

/* Ranks 0..nranks-1 of a job, each on a thread of its own with a client connected to the service (10 s
 * timeout) and running `body`, which returns "" when the rank saw what it should, else what went wrong. */
class RankThreads {
public:
    using Body = std::function<std::string(int rank, tessera::orte::KvClient &client)>;

    RankThreads(const std::string &uri, const std::string &key, int nranks, const Body &body)
        : failures_(static_cast<size_t>(nranks))
    {
        for (int r = 0; r < nranks; ++r) {
            threads_.emplace_back([this, uri, key, body, r] {
                std::string error;
                auto client = tessera::orte::KvClient::connect(uri, key, r, &error, 10.0);
                failures_[static_cast<size_t>(r)] = client ? body(r, *client) : "connect: " + error;
            });
        }
    }
    ~RankThreads() { join(); }
    RankThreads(const RankThreads &) = delete;
    RankThreads &operator=(const RankThreads &) = delete;

    /* Waits for every rank; returns what each one reported, by rank ("connect: <error>" when it could
     * not connect). */
    std::vector<std::string> join()
    {
        for (auto &t : threads_) {
            if (t.joinable()) {
                t.join();
            }
        }
        return failures_;
    }

private:
    std::vector<std::string> failures_; /* before the threads, which write it */
    std::vector<std::thread> threads_;
};

/* A plain TCP connection to the service, for speaking (or not) the protocol by hand. */
class RawConn {
public:
    explicit RawConn(const std::string &uri)
    {
        size_t colon = uri.rfind(':');
        addrinfo hints{};
        hints.ai_socktype = SOCK_STREAM;
        addrinfo *res = nullptr;
        if (::getaddrinfo(uri.substr(0, colon).c_str(), uri.substr(colon + 1).c_str(), &hints, &res) != 0) {
            ADD_FAILURE() << "cannot resolve " << uri;
            return;
        }
        fd_ = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (::connect(fd_, res->ai_addr, res->ai_addrlen) != 0) {
            ADD_FAILURE() << "cannot connect to " << uri;
        }
        ::freeaddrinfo(res);
        sockaddr_storage ss{};
        socklen_t len = sizeof ss;
        ::getsockname(fd_, reinterpret_cast<sockaddr *>(&ss), &len);
        char host[NI_MAXHOST];
        char serv[NI_MAXSERV];
        ::getnameinfo(reinterpret_cast<sockaddr *>(&ss), len, host, sizeof host, serv, sizeof serv,
                      NI_NUMERICHOST | NI_NUMERICSERV);
        local_ = std::string(host) + ":" + serv;
    }
    ~RawConn() { close(); }
    RawConn(const RawConn &) = delete;
    RawConn &operator=(const RawConn &) = delete;

    /* The server's name for this connection ("127.0.0.1:port"). */
    const std::string &local() const { return local_; }

    void send(const void *data, size_t n)
    {
        ASSERT_EQ(::send(fd_, data, n, MSG_NOSIGNAL), static_cast<ssize_t>(n));
    }
    void send(const tessera::orte::kv::Bytes &b) { send(b.data(), b.size()); }
    void send(const std::string &s) { send(s.data(), s.size()); }
    void shutdown_write() { ::shutdown(fd_, SHUT_WR); }
    void close()
    {
        if (fd_ >= 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }

    /* Reads until the server closes the connection; true when it did within the time. Anything it
     * sent first is returned in *received. */
    bool wait_closed_by_peer(double seconds, std::string *received = nullptr)
    {
        auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
        for (;;) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) {
                return false;
            }
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(left)) <= 0) {
                continue;
            }
            char buf[4096];
            ssize_t r = ::recv(fd_, buf, sizeof buf, 0);
            if (r <= 0) {
                return true; /* end of file, or reset */
            }
            if (received != nullptr) {
                received->append(buf, static_cast<size_t>(r));
            }
        }
    }

    /* Reads exactly n bytes within the time. */
    bool read_exact(size_t n, std::string *out, double seconds = 5.0)
    {
        auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
        while (out->size() < n) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            pollfd p{fd_, POLLIN, 0};
            if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) {
                return false;
            }
            char buf[4096];
            size_t want = std::min(sizeof buf, n - out->size());
            ssize_t r = ::recv(fd_, buf, want, 0);
            if (r <= 0) {
                return false;
            }
            out->append(buf, static_cast<size_t>(r));
        }
        return true;
    }

private:
    int fd_ = -1;
    std::string local_;
};

inline tessera::orte::kv::Bytes bytes_of(const std::string &s)
{
    const auto *p = reinterpret_cast<const std::byte *>(s.data());
    return tessera::orte::kv::Bytes(p, p + s.size());
}

} // namespace kvtest

#endif
