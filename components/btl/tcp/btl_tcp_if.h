/*
 * btl tcp: which IPv4 address a rank listens on (docs/btl-tcp.md, "Address"). Pure functions over a
 * list of interfaces, so that the rules can be tested without the machine's own interfaces.
 */
#ifndef TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_IF_H
#define TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_IF_H

#include <netinet/in.h>

#include <span>
#include <string>
#include <vector>

namespace tessera::ompi::btl_tcp {

struct Interface {
    std::string name;
    in_addr_t addr = 0;    /* network byte order */
    in_addr_t netmask = 0; /* network byte order */
    bool loopback = false;
    bool up = false;
};

/* A value of btl_tcp_if_include or btl_tcp_if_exclude: interface names and a.b.c.d/n subnets. */
struct IfList {
    std::vector<std::string> names;
    struct Subnet {
        in_addr_t net;  /* network byte order, host bits cleared */
        in_addr_t mask; /* network byte order */
    };
    std::vector<Subnet> subnets;
    bool empty() const { return names.empty() && subnets.empty(); }
    bool matches(const Interface &i) const;
    bool matches_addr(in_addr_t addr) const;
};

/* Parses `value` (NULL or "" is the empty list) of the parameter `param`. Returns "" or an error
 * that names the parameter, the value and the entry at fault. */
std::string parse_if_list(const char *param, const char *value, IfList *out);

/* The machine's IPv4 interfaces, in getifaddrs order; *error set when they cannot be listed. */
std::vector<Interface> system_interfaces(std::string *error);

/*
 * The address to listen on. `host` is the rank's host as mpirun was given it: a loopback literal
 * (127.x.y.z, the fake hosts of the tests) is used as it is, if the lists allow it. Otherwise the
 * first interface that is up and allowed, loopback only when no other is allowed. At most one of
 * include/exclude is non-empty. Returns 0 with *error set when nothing is allowed.
 */
in_addr_t choose_address(const char *host, const IfList &include, const IfList &exclude,
                         std::span<const Interface> interfaces, std::string *error);

/* "a.b.c.d" of an address in network byte order. */
std::string address_text(in_addr_t addr);

} // namespace tessera::ompi::btl_tcp

#endif
