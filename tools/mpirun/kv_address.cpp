#include "kv_address.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tessera::mpirun {
namespace {

constexpr const char *kLoopback = "127.0.0.1";

bool is_loopback(const in_addr &a) { return (ntohl(a.s_addr) >> 24) == 127; }

/* The local address the kernel would use to send to `host`, or nullopt and *error. */
std::optional<std::string> route_source_for(const std::string &host, std::string *error)
{
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_DGRAM;
    addrinfo *res = nullptr;
    if (int rc = getaddrinfo(host.c_str(), "9", &hints, &res); rc != 0 || res == nullptr) {
        *error = "cannot resolve host " + host + ": " + gai_strerror(rc);
        return std::nullopt;
    }
    sockaddr_in target{};
    std::memcpy(&target, res->ai_addr, sizeof target);
    freeaddrinfo(res);
    if (is_loopback(target.sin_addr)) {
        return std::string(kLoopback);
    }
    /* connect() on a UDP socket sends nothing; it only makes the kernel choose the route. */
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = std::string("socket: ") + std::strerror(errno);
        return std::nullopt;
    }
    sockaddr_in local{};
    socklen_t len = sizeof local;
    const bool ok = connect(fd, reinterpret_cast<sockaddr *>(&target), sizeof target) == 0 &&
                    getsockname(fd, reinterpret_cast<sockaddr *>(&local), &len) == 0;
    const int saved = errno;
    close(fd);
    if (!ok) {
        *error = "no route to host " + host + ": " + std::strerror(saved);
        return std::nullopt;
    }
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &local.sin_addr, text, sizeof text);
    return std::string(text);
}

} // namespace

std::optional<KvAddresses> kv_addresses(const std::vector<Host> &hosts, std::string *error)
{
    KvAddresses out;
    out.bind_address = kLoopback;
    for (const Host &h : hosts) {
        if (h.local) {
            out.connect_to.emplace_back(kLoopback);
            continue;
        }
        auto addr = route_source_for(h.name, error);
        if (!addr) {
            return std::nullopt;
        }
        if (*addr != kLoopback) {
            out.bind_address = "0.0.0.0";
        }
        out.connect_to.push_back(*addr);
    }
    return out;
}

std::string kv_uri_for(const std::string &address, const std::string &service_uri)
{
    const size_t colon = service_uri.rfind(':');
    return address + ":" + (colon == std::string::npos ? service_uri : service_uri.substr(colon + 1));
}

} // namespace tessera::mpirun
