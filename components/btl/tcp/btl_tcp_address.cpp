/* btl tcp: which address a rank listens on (btl_tcp.h). */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>

#include <sstream>

#include "components/btl/tcp/btl_tcp.h"

namespace tessera::ompi::btl_tcp {

namespace {

std::vector<std::string> split(const char *list)
{
    std::vector<std::string> out;
    if (list == nullptr) {
        return out;
    }
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (!item.empty()) {
            out.push_back(item);
        }
    }
    return out;
}

/* An interface name, or a subnet "a.b.c.d/n". */
bool listed(const std::vector<std::string> &list, const char *name, in_addr_t addr)
{
    for (const std::string &item : list) {
        const auto slash = item.find('/');
        if (slash == std::string::npos) {
            if (item == name) {
                return true;
            }
            continue;
        }
        in_addr net{};
        const int bits = std::atoi(item.c_str() + slash + 1);
        if (inet_pton(AF_INET, item.substr(0, slash).c_str(), &net) != 1 || bits < 0 || bits > 32) {
            continue;
        }
        const uint32_t mask = bits == 0 ? 0 : htonl(~uint32_t{0} << (32 - bits));
        if ((addr & mask) == (net.s_addr & mask)) {
            return true;
        }
    }
    return false;
}

} // namespace

in_addr_t choose_address(const char *host, std::string *error)
{
    error->clear();
    in_addr literal{};
    if (host != nullptr && inet_pton(AF_INET, host, &literal) == 1) {
        return literal.s_addr;
    }
    const std::vector<std::string> include = split(params.if_include), exclude = split(params.if_exclude);
    ifaddrs *all = nullptr;
    if (getifaddrs(&all) != 0) {
        *error = "getifaddrs failed";
        return htonl(INADDR_LOOPBACK);
    }
    in_addr_t chosen = 0, loopback = 0;
    for (ifaddrs *i = all; i != nullptr; i = i->ifa_next) {
        if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET || (i->ifa_flags & IFF_UP) == 0) {
            continue;
        }
        const in_addr_t a = reinterpret_cast<sockaddr_in *>(i->ifa_addr)->sin_addr.s_addr;
        if (!include.empty() ? !listed(include, i->ifa_name, a) : listed(exclude, i->ifa_name, a)) {
            continue;
        }
        if ((i->ifa_flags & IFF_LOOPBACK) != 0) {
            loopback = loopback != 0 ? loopback : a;
            if (include.empty()) {
                continue; /* only when nothing else is there */
            }
        }
        chosen = a;
        break;
    }
    freeifaddrs(all);
    if (chosen == 0) {
        chosen = loopback;
    }
    if (chosen == 0) {
        *error = "no IPv4 interface is allowed by btl_tcp_if_include/btl_tcp_if_exclude";
    }
    return chosen;
}

} // namespace tessera::ompi::btl_tcp
