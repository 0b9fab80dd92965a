/* btl tcp: connections accepted by a link's listener, until their hello is checked (btl_tcp_endpoint.h). */
#include <arpa/inet.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "components/btl/tcp/btl_tcp_endpoint.h"
#include "components/btl/tcp/btl_tcp_if.h"
#include "mca/report.h"
#include "orte/kv/job_key.h"

namespace tessera::ompi::btl_tcp {

namespace {

void release_slot(Link *l, Pending *p)
{
    p->fd = -1;
    p->in_use = false;
    p->checked = false;
    --l->pending_count;
}

/* Refuses a connection: closed without an answer, counted, and said on stderr for the 1st, 2nd,
 * 4th, 8th... one, so that a flood of strangers cannot flood the output. */
void refuse(Link *l, Pending *p, const std::string &why)
{
    const uint64_t count = ++component->refused;
    if ((count & (count - 1)) == 0) {
        tessera::mca::report(tessera::mca::Severity::Warning,
                             "btl tcp: refused a connection from " + address_text(p->from.sin_addr.s_addr) + ":" +
                                 std::to_string(ntohs(p->from.sin_port)) + " on " + l->name + ": " + why + " (" +
                                 std::to_string(count) + " refused so far)");
    }
    close_pending(l, p);
}

Pending *take_slot(Link *l)
{
    if (l->pending_count >= static_cast<std::size_t>(params.handshake_limit)) {
        /* Full: the oldest waiting hello goes, so that idle sockets cannot lock peers out. */
        Pending *oldest = nullptr;
        for (auto &p : l->pending) {
            if (p->in_use && (oldest == nullptr || p->since < oldest->since)) {
                oldest = p.get();
            }
        }
        refuse(l, oldest, "too many connections are waiting for their handshake");
    }
    for (auto &p : l->pending) {
        if (!p->in_use) {
            return p.get();
        }
    }
    l->pending.push_back(std::make_unique<Pending>());
    Pending *p = l->pending.back().get();
    p->watch = Watch{WatchKind::Pending, l, p};
    return p;
}

void check_hello(Link *l, Pending *p)
{
    const Hello &h = p->hello;
    const uint32_t rank = ntohl(h.rank), link = ntohs(h.link), max_frame = ntohl(h.max_frame);
    if (ntohl(h.magic) != kHelloMagic) {
        refuse(l, p, "it does not speak the Tessera tcp protocol");
    } else if (ntohs(h.version) != kProtocolVersion) {
        refuse(l, p, "it speaks protocol version " + std::to_string(ntohs(h.version)) + ", this process " +
                         std::to_string(kProtocolVersion));
    } else if (ntohl(h.jobid) != component->jobid) {
        refuse(l, p, "it belongs to job " + std::to_string(ntohl(h.jobid)));
    } else if (!tessera::orte::job_key_equal(std::string_view(h.key, sizeof h.key), component->key)) {
        refuse(l, p, "it does not know the job key");
    } else if (rank >= component->size || rank == component->rank) {
        refuse(l, p, "it claims rank " + std::to_string(rank) + ", which is no peer of rank " +
                         std::to_string(component->rank));
    } else if (link != static_cast<uint32_t>(l->link)) {
        refuse(l, p, "it is meant for link " + std::to_string(link));
    } else if (max_frame == 0 || max_frame > kMaxAnnouncedFrame) {
        refuse(l, p, "it announces frames of " + std::to_string(max_frame) + " bytes");
    } else if (Endpoint *e = l->by_rank[rank].get(); e != nullptr) {
        const int fd = p->fd;
        release_slot(l, p);
        adopt(l, e, fd, max_frame);
    } else {
        p->checked = true; /* its endpoint comes with add_procs */
    }
}

} // namespace

void close_pending(Link *l, Pending *p)
{
    close(p->fd);
    release_slot(l, p);
}

void accept_connections(Link *l)
{
    for (;;) {
        sockaddr_in from{};
        socklen_t len = sizeof from;
        const int fd = accept4(l->listen_fd, reinterpret_cast<sockaddr *>(&from), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            return; /* EAGAIN; or out of descriptors: the listener stays readable and is tried again */
        }
        set_socket_options(fd);
        Pending *p = take_slot(l);
        p->fd = fd;
        p->in_use = true;
        p->checked = false;
        p->from = from;
        p->got = 0;
        p->since = std::chrono::steady_clock::now();
        ++l->pending_count;
        watch(EPOLL_CTL_ADD, fd, EPOLLIN, &p->watch);
    }
}

void on_pending_event(Link *l, Pending *p)
{
    if (!p->in_use) {
        return;
    }
    if (p->checked) {
        /* Its sender waits for our reply and sends nothing: this is the end of the connection. */
        char c;
        const ssize_t n = recv(p->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n > 0) {
            refuse(l, p, "it sent fragments before its hello was answered");
        } else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            close_pending(l, p);
        }
        return;
    }
    while (p->got < sizeof p->hello) {
        const ssize_t n =
            recv(p->fd, reinterpret_cast<char *>(&p->hello) + p->got, sizeof p->hello - p->got, MSG_DONTWAIT);
        if (n > 0) {
            p->got += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            return;
        }
        /* Closed before a whole hello: a peer whose own connection lost a simultaneous connect
         * (it closes the socket it no longer needs), or a port scanner. Nothing to say. */
        close_pending(l, p);
        return;
    }
    check_hello(l, p);
}

void adopt_waiting(Link *l, Endpoint *e)
{
    for (auto &slot : l->pending) {
        Pending *p = slot.get();
        if (p->in_use && p->checked && ntohl(p->hello.rank) == e->rank) {
            const int fd = p->fd;
            const uint32_t max_frame = ntohl(p->hello.max_frame);
            release_slot(l, p);
            adopt(l, e, fd, max_frame);
        }
    }
}

void expire_pending(Link *l)
{
    const auto now = std::chrono::steady_clock::now();
    const auto limit = std::chrono::duration<double>(params.handshake_timeout);
    for (auto &slot : l->pending) {
        Pending *p = slot.get();
        /* A valid hello waits for add_procs however long the application takes to get there. */
        if (!p->in_use || p->checked || now - p->since < limit) {
            continue;
        }
        /* The deadline may have passed while this process was out of MPI, with the hello waiting
         * in the socket: only a connection that has not sent it by now is refused. */
        on_pending_event(l, p);
        if (p->in_use && !p->checked) {
            refuse(l, p, "no complete hello within btl_tcp_handshake_timeout");
        }
    }
}

} // namespace tessera::ompi::btl_tcp
