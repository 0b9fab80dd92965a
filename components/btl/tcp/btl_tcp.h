/*
 * btl tcp (docs/btl-tcp.md): fragments over TCP sockets, between hosts and (when shm is not used) on
 * one host. btl_tcp_links modules, each listening on its own port and holding one connection per
 * peer, so that the pml stripes large messages over them as over any modules. Sockets are
 * non-blocking; one epoll set serves the whole component and progress() polls it with a zero
 * timeout. A connection starts with a hello that proves the job key; strangers are refused.
 *
 * Files: _component (parameters, query, listeners, card), _if (interface choice), _hdr (wire
 * format), _endpoint (per-peer connection: connect, send queue, frames in), _handshake (accepting
 * and checking hellos), _module (the module's function table).
 */
#ifndef TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_H
#define TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_H

#include <netinet/in.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "frameworks/btl/base/base.h"
#include "frameworks/btl/btl.h"

extern "C" mca_btl_base_component_t mca_btl_tcp_component;

namespace tessera::ompi::btl_tcp {

/* Parameter storage: btl_tcp_<name>; the defaults and ranges are in the rows of register_params. */
struct Params {
    mca_btl_base_common_params_t common; /* eager_limit, max_send_size, latency, bandwidth */
    int links;
    const char *if_include;
    const char *if_exclude;
    std::size_t queue_limit;
    std::size_t copy_limit;
    std::size_t sndbuf;
    std::size_t rcvbuf;
    double handshake_timeout;
    int handshake_limit;
    int handshake_retries;
    double close_linger;
    int direct_reads;
    int poll_every;
};
extern Params params;

struct Link;

/* What an epoll event points to: a listener, a connection still in its handshake, or a peer's
 * endpoint (owner: the Link, Pending or Endpoint). Pending slots live as long as their module, so an
 * event that was already fetched for a slot since reused finds it in a state it can check. */
enum class WatchKind : uint8_t { Listener, Pending, Endpoint };
struct Watch {
    WatchKind kind;
    Link *link;
    void *owner;
};

/* The state the component's modules share. */
struct Component {
    int epfd = -1;
    bool threaded = false; /* enable_mpi_threads: `lock` is taken */
    /* One lock for all links rather than one per module: any module's progress handles every
     * link's events (one epoll set), and a receive or done callback may send on any link, so
     * per-module locks would be taken in no fixed order. Recursive: callbacks run under it. */
    std::recursive_mutex lock;
    uint32_t jobid = 0;
    uint32_t rank = 0;
    uint32_t size = 0;
    std::string key; /* the job key: compared, sent in hellos, never printed */
    in_addr_t addr = 0;
    std::vector<std::unique_ptr<Link>> links;
    std::atomic<uint64_t> refused{0}; /* connections refused in their handshake */
};

/* Plain pointer, created by btl_init: the framework may be closed by an exit handler after this
 * DSO's static objects are gone. */
extern Component *component;

/* Adds, changes or removes (events 0 with EPOLL_CTL_DEL) a descriptor in the component's set. */
int watch(int op, int fd, uint32_t events, Watch *w);

/* The module of link `link`, listening on listen_fd; named "tcp:<address>:<link>". */
mca_btl_base_module_t *module_create(int link, int listen_fd);
void modules_destroy();

} // namespace tessera::ompi::btl_tcp

#endif
