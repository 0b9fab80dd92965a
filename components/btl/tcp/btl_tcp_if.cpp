/* btl tcp: interface lists and the choice of the listening address (btl_tcp_if.h). */
#include "components/btl/tcp/btl_tcp_if.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>

#include "mca/report.h"

namespace tessera::ompi::btl_tcp {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

in_addr_t mask_of(int bits)
{
    return bits == 0 ? 0 : htonl(~uint32_t{0} << (32 - bits));
}

} // namespace

bool IfList::matches_addr(in_addr_t addr) const
{
    for (const Subnet &s : subnets) {
        if ((addr & s.mask) == s.net) {
            return true;
        }
    }
    return false;
}

bool IfList::matches(const Interface &i) const
{
    for (const std::string &n : names) {
        if (n == i.name) {
            return true;
        }
    }
    return matches_addr(i.addr);
}

std::string parse_if_list(const char *param, const char *value, IfList *out)
{
    *out = IfList{};
    if (value == nullptr) {
        return "";
    }
    const std::string_view all(value);
    std::size_t start = 0;
    while (start <= all.size()) {
        std::size_t comma = all.find(',', start);
        if (comma == std::string_view::npos) {
            comma = all.size();
        }
        const std::string_view item = trim(all.substr(start, comma - start));
        start = comma + 1;
        if (item.empty()) {
            continue; /* "eth0," and the empty list are harmless */
        }
        const auto bad = [&](std::string_view why) {
            return tessera::mca::bad_value(param, "\"" + std::string(value) + "\"",
                                           "has an entry \"" + std::string(item) + "\" that " + std::string(why));
        };
        const std::size_t slash = item.find('/');
        if (slash == std::string_view::npos) {
            if (item.size() >= IF_NAMESIZE) {
                return bad("is longer than an interface name can be");
            }
            out->names.emplace_back(item);
            continue;
        }
        const std::string addr(item.substr(0, slash));
        const std::string_view bits_text = item.substr(slash + 1);
        in_addr net{};
        if (inet_pton(AF_INET, addr.c_str(), &net) != 1) {
            return bad("is not a subnet a.b.c.d/n: \"" + addr + "\" is not an IPv4 address");
        }
        int bits = -1;
        const auto [end, ec] = std::from_chars(bits_text.data(), bits_text.data() + bits_text.size(), bits);
        if (ec != std::errc() || end != bits_text.data() + bits_text.size() || bits < 0 || bits > 32) {
            return bad("is not a subnet a.b.c.d/n: the prefix length must be 0..32");
        }
        const in_addr_t mask = mask_of(bits);
        out->subnets.push_back(IfList::Subnet{net.s_addr & mask, mask});
    }
    return "";
}

std::vector<Interface> system_interfaces(std::string *error)
{
    std::vector<Interface> out;
    error->clear();
    ifaddrs *all = nullptr;
    if (getifaddrs(&all) != 0) {
        *error = std::string("getifaddrs failed: ") + std::strerror(errno);
        return out;
    }
    for (ifaddrs *i = all; i != nullptr; i = i->ifa_next) {
        if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) {
            continue;
        }
        Interface itf;
        itf.name = i->ifa_name;
        itf.addr = reinterpret_cast<const sockaddr_in *>(i->ifa_addr)->sin_addr.s_addr;
        itf.netmask =
            i->ifa_netmask != nullptr ? reinterpret_cast<const sockaddr_in *>(i->ifa_netmask)->sin_addr.s_addr : 0;
        itf.loopback = (i->ifa_flags & IFF_LOOPBACK) != 0;
        itf.up = (i->ifa_flags & IFF_UP) != 0;
        out.push_back(std::move(itf));
    }
    freeifaddrs(all);
    return out;
}

std::string address_text(in_addr_t addr)
{
    char text[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &addr, text, sizeof text);
    return text;
}

in_addr_t choose_address(const char *host, const IfList &include, const IfList &exclude,
                         std::span<const Interface> interfaces, std::string *error)
{
    error->clear();
    const auto allowed = [&](const Interface &i) {
        return !include.empty() ? include.matches(i) : !exclude.matches(i);
    };
    in_addr literal{};
    if (host != nullptr && inet_pton(AF_INET, host, &literal) == 1 &&
        (ntohl(literal.s_addr) >> 24) == 127) {
        /* A loopback "host": the rank is that address, on whichever interface carries 127/8. */
        Interface as{.name = "", .addr = literal.s_addr, .netmask = 0, .loopback = true, .up = true};
        for (const Interface &i : interfaces) {
            if (i.loopback && (i.addr & i.netmask) == (literal.s_addr & i.netmask)) {
                as.name = i.name;
                break;
            }
        }
        if (!allowed(as)) {
            *error = std::string("the host ") + host + " is a loopback address, which " +
                     (!include.empty() ? "btl_tcp_if_include does not allow" : "btl_tcp_if_exclude excludes");
            return 0;
        }
        return literal.s_addr;
    }
    in_addr_t loopback = 0;
    for (const Interface &i : interfaces) {
        if (!i.up || i.addr == 0 || !allowed(i)) {
            continue;
        }
        if (!i.loopback) {
            return i.addr;
        }
        loopback = loopback != 0 ? loopback : i.addr;
    }
    if (loopback == 0) {
        *error = "no IPv4 interface is allowed by btl_tcp_if_include/btl_tcp_if_exclude";
    }
    return loopback;
}

} // namespace tessera::ompi::btl_tcp
