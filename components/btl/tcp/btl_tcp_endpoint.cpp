/* btl tcp: a peer's connection — opening it, the hello's reply, the send queue, failure (btl_tcp_endpoint.h). */
#include "components/btl/tcp/btl_tcp_endpoint.h"

#include <arpa/inet.h>
#include <endian.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "components/btl/tcp/btl_tcp_if.h"

namespace tessera::ompi::btl_tcp {

namespace {

/* The most iovecs one sendmsg of a queue gathers: enough to batch many small fragments. */
constexpr int kFlushIov = 64;

bool would_block(int err)
{
    return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

Entry *take_entry(Link *l)
{
    if (l->free_entries.empty()) {
        l->entries.push_back(std::make_unique<Entry>());
        return l->entries.back().get();
    }
    Entry *x = l->free_entries.back();
    l->free_entries.pop_back();
    return x;
}

void release_entry(Link *l, Entry *x)
{
    x->next = nullptr;
    x->iov_count = x->iov_at = 0;
    x->left = 0;
    x->done = nullptr;
    x->done_data = nullptr;
    l->free_entries.push_back(x);
}

Entry *pop_entry(Endpoint *e)
{
    Entry *x = e->head;
    e->head = x->next;
    if (e->head == nullptr) {
        e->tail = nullptr;
    }
    e->queued -= x->left;
    return x;
}

void start_flushing(Link *l, Endpoint *e)
{
    if (!e->flushing && e->head != nullptr && e->state == ConnState::Connected) {
        e->flushing = true;
        l->flushing.push_back(e);
    }
}

void become_connected(Link *l, Endpoint *e, uint32_t peer_max_frame)
{
    e->state = ConnState::Connected;
    e->retries = 0;
    e->peer_max_frame = peer_max_frame;
    /* Room for two of the largest frames either side sends, so that a frame that starts late in the
     * buffer still fits without moving it (btl_tcp_recv.cpp), plus room for a batch of small ones. */
    const std::size_t frame = sizeof(FrameHeader) + std::max<std::size_t>(params.common.max_send_size, peer_max_frame);
    const std::size_t size = 2 * frame + 65536;
    if (e->rx.buf.size() < size) {
        e->rx.buf.resize(size);
    }
    e->rx.at = e->rx.have = 0;
    l->connected.push_back(e);
    start_flushing(l, e);
}

/* The peer closes a connection whose hello it did not get within its btl_tcp_handshake_timeout: this
 * process may have been computing between its connect and the hello. Such a connection, closed before
 * any answer, is opened again (a peer that is gone refuses the new connect, which fails the endpoint). */
bool reopen(Link *l, Endpoint *e, int err)
{
    const bool unanswered = e->reply_got == 0 && (err == 0 || err == ECONNRESET || err == EPIPE);
    if (!unanswered || e->retries >= params.handshake_retries) {
        return false;
    }
    ++e->retries;
    close(e->fd);
    e->fd = -1;
    e->state = ConnState::Closed;
    start_connect(l, e);
    return true;
}

bool send_hello(Link *l, Endpoint *e)
{
    Hello h{};
    h.magic = htonl(kHelloMagic);
    h.version = htons(kProtocolVersion);
    h.link = htons(static_cast<uint16_t>(l->link));
    h.jobid = htonl(component->jobid);
    h.rank = htonl(component->rank);
    h.max_frame = htonl(static_cast<uint32_t>(params.common.max_send_size));
    std::memcpy(h.key, component->key.data(), std::min(component->key.size(), sizeof h.key));
    e->reply_got = 0;
    /* A fresh connection's send buffer is empty: 84 bytes go out whole or not at all. */
    if (::send(e->fd, &h, sizeof h, MSG_NOSIGNAL | MSG_DONTWAIT) != static_cast<ssize_t>(sizeof h)) {
        const int err = errno;
        if (reopen(l, e, err)) {
            return e->state != ConnState::Failed;
        }
        fail_endpoint(l, e, "cannot greet " + peer_text(e) + ": " + std::strerror(err));
        return false;
    }
    e->state = ConnState::AwaitReply;
    return true;
}

void on_reply(Link *l, Endpoint *e)
{
    while (e->reply_got < sizeof e->reply) {
        const ssize_t n = recv(e->fd, reinterpret_cast<char *>(&e->reply) + e->reply_got,
                               sizeof e->reply - e->reply_got, MSG_DONTWAIT);
        if (n > 0) {
            e->reply_got += static_cast<std::size_t>(n);
            continue;
        }
        const int err = n == 0 ? 0 : errno;
        if (n < 0 && would_block(err)) {
            return;
        }
        if (reopen(l, e, err)) {
            return;
        }
        fail_endpoint(l, e, peer_text(e) + " " + (n == 0 ? "closed the connection" : std::strerror(err)) +
                                " during the handshake");
        return;
    }
    const uint32_t verdict = ntohl(e->reply.verdict), max_frame = ntohl(e->reply.max_frame);
    if (ntohl(e->reply.magic) != kHelloMagic || (verdict != kHelloAccepted && verdict != kHelloDuplicate) ||
        max_frame == 0 || max_frame > kMaxAnnouncedFrame) {
        fail_endpoint(l, e, peer_text(e) + " answered the hello with something else");
        return;
    }
    if (verdict == kHelloDuplicate) {
        /* The peer's own connection wins the race; it arrives through the listener. */
        close(e->fd);
        e->fd = -1;
        e->state = ConnState::WaitPeer;
        return;
    }
    become_connected(l, e, max_frame);
    read_frames(l, e); /* fragments may have come right behind the reply */
}

void refuse_duplicate(int fd)
{
    const HelloReply r{htonl(kHelloMagic), htonl(kHelloDuplicate), htonl(static_cast<uint32_t>(params.common.max_send_size)), 0};
    /* The loser may already have closed its side: nothing to do if this fails. */
    (void)::send(fd, &r, sizeof r, MSG_NOSIGNAL | MSG_DONTWAIT);
    close(fd);
}

} // namespace

std::string peer_text(const Endpoint *e)
{
    return "rank " + std::to_string(e->rank) + " (" + address_text(e->peer.sin_addr.s_addr) + ":" +
           std::to_string(ntohs(e->peer.sin_port)) + ")";
}

void set_socket_options(int fd)
{
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    /* 0 keeps the kernel's default, which grows the buffers by itself. */
    if (params.sndbuf != 0) {
        const int v = static_cast<int>(std::min<std::size_t>(params.sndbuf, 1u << 30));
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof v);
    }
    if (params.rcvbuf != 0) {
        const int v = static_cast<int>(std::min<std::size_t>(params.rcvbuf, 1u << 30));
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof v);
    }
}

bool start_connect(Link *l, Endpoint *e)
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        fail_endpoint(l, e, std::string("cannot open a socket: ") + std::strerror(errno));
        return false;
    }
    set_socket_options(fd);
    /* From this rank's own address, so that ranks on different (loopback) hosts talk between their
     * own addresses; the port is picked at connect time, so binding reserves none. */
    const int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    sockaddr_in me{};
    me.sin_family = AF_INET;
    me.sin_addr.s_addr = component->addr;
    (void)bind(fd, reinterpret_cast<const sockaddr *>(&me), sizeof me);
    e->fd = fd;
    if (connect(fd, reinterpret_cast<const sockaddr *>(&e->peer), sizeof e->peer) == 0) {
        watch(EPOLL_CTL_ADD, fd, EPOLLIN, &e->watch);
        return send_hello(l, e);
    }
    if (errno == EINPROGRESS) {
        e->state = ConnState::Connecting;
        watch(EPOLL_CTL_ADD, fd, EPOLLOUT, &e->watch);
        return true;
    }
    fail_endpoint(l, e, "cannot connect to " + peer_text(e) + ": " + std::strerror(errno));
    return false;
}

void on_connect_event(Link *l, Endpoint *e, uint32_t events)
{
    if (e->state == ConnState::Connecting) {
        if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) == 0) {
            return;
        }
        int err = 0;
        socklen_t len = sizeof err;
        if (getsockopt(e->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) {
            err = errno;
        }
        if (err != 0) {
            fail_endpoint(l, e, "cannot connect to " + peer_text(e) + ": " + std::strerror(err));
            return;
        }
        watch(EPOLL_CTL_MOD, e->fd, EPOLLIN, &e->watch);
        send_hello(l, e);
        return;
    }
    if (e->state == ConnState::AwaitReply) {
        on_reply(l, e);
    }
}

void adopt(Link *l, Endpoint *e, int fd, uint32_t peer_max_frame)
{
    switch (e->state) {
    case ConnState::Closed:
    case ConnState::WaitPeer:
        break;
    case ConnState::Connecting:
    case ConnState::AwaitReply:
        /* Both opened a connection: the lower rank's is kept, on both sides alike. */
        if (e->rank > component->rank) {
            refuse_duplicate(fd);
            return;
        }
        close(e->fd);
        e->fd = -1;
        break;
    case ConnState::Connected:
    case ConnState::Failed:
        refuse_duplicate(fd);
        return;
    }
    const HelloReply r{htonl(kHelloMagic), htonl(kHelloAccepted), htonl(static_cast<uint32_t>(params.common.max_send_size)), 0};
    e->fd = fd;
    if (::send(fd, &r, sizeof r, MSG_NOSIGNAL | MSG_DONTWAIT) != static_cast<ssize_t>(sizeof r)) {
        fail_endpoint(l, e, peer_text(e) + " went away during the handshake: " + std::strerror(errno));
        return;
    }
    watch(EPOLL_CTL_MOD, fd, EPOLLIN, &e->watch);
    become_connected(l, e, peer_max_frame);
}

void fail_endpoint(Link *l, Endpoint *e, const std::string &why)
{
    if (e->state == ConnState::Failed) {
        return;
    }
    std::erase(l->connected, e);
    if (e->fd >= 0) {
        close(e->fd); /* leaves the epoll set with it */
        e->fd = -1;
    }
    e->state = ConnState::Failed;
    if (e->head != nullptr && !e->failing) {
        e->failing = true;
        l->failed.push_back(e);
    }
    mca_btl_base_report_error(&l->module, e->proc, TESSERA_ERR_UNREACH, why.c_str());
}

int send_fragment(Link *l, Endpoint *e, mca_btl_base_tag_t tag, const mca_btl_base_segment_t *segments,
                  std::size_t segment_count, mca_btl_base_send_done_fn_t done, void *done_data)
{
    if (segment_count > kMaxSegments) {
        return TESSERA_ERR_BAD_PARAM;
    }
    std::size_t total = 0;
    for (std::size_t i = 0; i < segment_count; ++i) {
        total += segments[i].seg_len;
    }
    if (total > params.common.max_send_size) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (e->state == ConnState::Failed) {
        return TESSERA_ERR_UNREACH;
    }
    const FrameHeader header{htole32(static_cast<uint32_t>(total)), tag, {}};
    std::size_t written = 0;
    if (e->state == ConnState::Connected && e->head == nullptr) {
        iovec iov[kMaxSegments + 1];
        iov[0] = {const_cast<FrameHeader *>(&header), sizeof header};
        for (std::size_t i = 0; i < segment_count; ++i) {
            iov[i + 1] = {const_cast<void *>(segments[i].seg_addr), segments[i].seg_len};
        }
        msghdr msg{};
        msg.msg_iov = iov;
        msg.msg_iovlen = segment_count + 1;
        const ssize_t n = sendmsg(e->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n == static_cast<ssize_t>(sizeof header + total)) {
            return MCA_BTL_SEND_COMPLETE;
        }
        if (n < 0 && !would_block(errno)) {
            fail_endpoint(l, e, "sending to " + peer_text(e) + " failed: " + std::strerror(errno));
            return TESSERA_ERR_UNREACH;
        }
        written = n > 0 ? static_cast<std::size_t>(n) : 0;
        if (written == 0 && done == nullptr) {
            return TESSERA_ERR_OUT_OF_RESOURCE; /* see below */
        }
    } else if (e->queued >= params.queue_limit || (done == nullptr && e->state == ConnState::Connected)) {
        /* Nothing of it went out. A send without a done callback would be finished for the caller
         * while its bytes wait here, and a caller that then blocks elsewhere without progressing
         * (the fence in MPI_Finalize) would strand them: the caller keeps it and retries. */
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    if (e->state == ConnState::Closed && !start_connect(l, e)) {
        return TESSERA_ERR_UNREACH;
    }

    /* The rest waits in the queue, in order behind what is there. With a done callback the send
     * stays the caller's until written (so that the pml does not finalize with bytes still here);
     * its small segments are copied all the same, since headers often live on the caller's stack. */
    const bool copy_all = done == nullptr;
    Entry *x = take_entry(l);
    x->header = header;
    const std::size_t skip = written > sizeof header ? written - sizeof header : 0;
    std::size_t copy_bytes = 0;
    for (std::size_t i = 0, s = skip; i < segment_count; ++i) {
        const std::size_t len = segments[i].seg_len, from = std::min(s, len);
        s -= from;
        if (copy_all || len <= params.copy_limit) {
            copy_bytes += len - from;
        }
    }
    if (copy_bytes > x->copy.size()) {
        x->copy.resize(std::max(copy_bytes, 2 * x->copy.size()));
    }
    char *to = x->copy.data();
    int n = 0;
    if (written < sizeof header) {
        x->iov[n++] = {reinterpret_cast<char *>(&x->header) + written, sizeof header - written};
    }
    for (std::size_t i = 0, s = skip; i < segment_count; ++i) {
        const std::size_t len = segments[i].seg_len, from = std::min(s, len);
        s -= from;
        if (len - from == 0) {
            continue;
        }
        const char *p = static_cast<const char *>(segments[i].seg_addr) + from;
        if (copy_all || len <= params.copy_limit) {
            std::memcpy(to, p, len - from);
            x->iov[n++] = {to, len - from};
            to += len - from;
        } else {
            x->iov[n++] = {const_cast<char *>(p), len - from};
        }
    }
    x->iov_count = n;
    x->iov_at = 0;
    x->left = sizeof header + total - written;
    x->done = done;
    x->done_data = done_data;
    if (e->tail != nullptr) {
        e->tail->next = x;
    } else {
        e->head = x;
    }
    e->tail = x;
    e->queued += x->left;
    start_flushing(l, e);
    return done != nullptr ? TESSERA_SUCCESS : MCA_BTL_SEND_COMPLETE;
}

int flush(Link *l, Endpoint *e, bool call_done)
{
    int completed = 0;
    while (e->head != nullptr && e->state == ConnState::Connected) {
        iovec iov[kFlushIov];
        int count = 0;
        std::size_t offered = 0;
        for (Entry *x = e->head; x != nullptr && count < kFlushIov; x = x->next) {
            for (int i = x->iov_at; i < x->iov_count && count < kFlushIov; ++i) {
                iov[count++] = x->iov[i];
                offered += x->iov[i].iov_len;
            }
        }
        msghdr msg{};
        msg.msg_iov = iov;
        msg.msg_iovlen = static_cast<std::size_t>(count);
        const ssize_t n = sendmsg(e->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (!would_block(errno)) {
                fail_endpoint(l, e, "sending to " + peer_text(e) + " failed: " + std::strerror(errno));
            }
            break;
        }
        std::size_t wrote = static_cast<std::size_t>(n);
        while (wrote > 0) {
            Entry *x = e->head;
            iovec &v = x->iov[x->iov_at];
            const std::size_t k = std::min(wrote, v.iov_len);
            v.iov_base = static_cast<char *>(v.iov_base) + k;
            v.iov_len -= k;
            x->left -= k;
            e->queued -= k;
            wrote -= k;
            if (v.iov_len == 0) {
                ++x->iov_at;
            }
            if (x->left == 0) {
                pop_entry(e);
                const mca_btl_base_send_done_fn_t fn = x->done;
                void *data = x->done_data;
                release_entry(l, x);
                ++completed;
                /* Popped first: the callback may send again on this endpoint. */
                if (fn != nullptr && call_done) {
                    fn(&l->module, reinterpret_cast<mca_btl_base_endpoint_t *>(e), data, TESSERA_SUCCESS);
                }
            }
        }
        if (static_cast<std::size_t>(n) < offered) {
            break; /* the socket is full */
        }
    }
    return completed;
}

int drain_failed(Link *l, Endpoint *e)
{
    int completed = 0;
    while (e->head != nullptr) {
        Entry *x = pop_entry(e);
        const mca_btl_base_send_done_fn_t fn = x->done;
        void *data = x->done_data;
        release_entry(l, x);
        ++completed;
        if (fn != nullptr) {
            fn(&l->module, reinterpret_cast<mca_btl_base_endpoint_t *>(e), data, TESSERA_ERR_UNREACH);
        }
    }
    e->queued = 0;
    return completed;
}

void discard_queue(Link *l, Endpoint *e)
{
    while (e->head != nullptr) {
        release_entry(l, pop_entry(e));
    }
    e->queued = 0;
}

} // namespace tessera::ompi::btl_tcp
