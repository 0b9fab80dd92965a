/*
 * btl tcp (docs/btl-tcp.md). Each of the btl_tcp_links modules listens on its own port and reaches
 * every peer through its own pair of connections: one this process opened and only sends on, one the
 * peer opened and this process only receives on — so two ranks never race to open the same
 * connection, and each direction keeps its fragments in order. A connection starts with a hello that
 * proves the job key; a stranger is dropped. Sockets are non-blocking, polled with epoll from
 * progress(); what a socket cannot take at once is copied to the connection's queue and written by
 * progress(), so send() returns MCA_BTL_SEND_COMPLETE or, when the queue is full, asks to be retried.
 */
#ifndef TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_H
#define TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_H

#include <netinet/in.h>

#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/btl/btl.h"

extern "C" mca_btl_base_component_t mca_btl_tcp_component;

namespace tessera::ompi::btl_tcp {

struct Params {
    int links = 1;
    const char *if_include = nullptr;
    const char *if_exclude = nullptr;
    std::size_t eager_limit = 65536;
    std::size_t max_send_size = 131072;
    std::size_t queue_limit = 8u << 20; /* bytes queued per connection before send() asks for a retry */
    unsigned latency = 10000;
    unsigned bandwidth = 2000;
};
extern Params params;

/* The IPv4 address this rank listens on: its "host" when that is an address (the loopback hosts of
 * the tests), else the first interface btl_tcp_if_include/exclude allow. Empty *error on success. */
in_addr_t choose_address(const char *host, std::string *error);

/* A module per link; the card lists every link's port. */
struct Card {
    uint32_t addr; /* network order */
    uint32_t links;
    uint16_t ports[16];
};

mca_btl_base_module_t *module_create(int link, int listen_fd, in_addr_t addr);
void modules_destroy();

} // namespace tessera::ompi::btl_tcp

#endif
