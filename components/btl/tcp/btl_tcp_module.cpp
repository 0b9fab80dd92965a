/* btl tcp: a module per link — connections, hello, framing, send queue, epoll progress (btl_tcp.h). */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "components/btl/tcp/btl_tcp.h"
#include "ompi/proc/modex.h"
#include "orte/kv/job_key.h"

namespace tessera::ompi::btl_tcp {

namespace {

constexpr uint32_t kMagic = 0x54435031; /* "TCP1" */
constexpr std::size_t kDirectReads = 4;
constexpr unsigned kAcceptEvery = 64;

struct Hello {
    uint32_t magic;
    uint32_t jobid;
    uint32_t rank;
    uint32_t link;
    char key[64];
};

struct FrameHeader {
    uint32_t length;
    uint8_t tag;
    uint8_t reserved[3];
};

struct Endpoint {
    tessera_proc_t *proc;
    sockaddr_in peer{};
    int fd = -1;             /* the connection this process sends on */
    std::vector<char> queue; /* bytes the socket did not take yet */
    std::size_t queued_at = 0;
    bool failed = false;
};

struct Incoming {
    std::vector<char> buf;
    std::size_t have = 0;
    Endpoint *from = nullptr; /* set by a valid hello */
};

struct Link {
    mca_btl_base_module_t module{};
    int link = 0;
    int listen_fd = -1;
    int epfd = -1;
    std::string name;
    std::map<uint32_t, std::unique_ptr<Endpoint>> by_rank;
    std::map<int, Incoming> incoming;
    std::vector<Endpoint *> flushing; /* endpoints with a queue */
    unsigned passes = 0;
};

/* Plain pointers: the framework may be closed by an exit handler after this DSO's statics are gone. */
std::vector<Link *> *links = nullptr;

Link *as_link(mca_btl_base_module_t *m)
{
    return static_cast<Link *>(m->module_state);
}

void set_nonblocking(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void drop(Link *l, int fd);

void fail_endpoint(Link *l, Endpoint *e, const std::string &why)
{
    if (e->failed) {
        return;
    }
    e->failed = true;
    if (e->fd >= 0) {
        const int fd = e->fd;
        e->fd = -1;
        if (l->incoming.count(fd) != 0) {
            drop(l, fd);
        } else {
            close(fd);
        }
    }
    mca_btl_base_report_error(&l->module, e->proc, TESSERA_ERR_UNREACH, why.c_str());
}

std::string peer_text(const Endpoint *e)
{
    char addr[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &e->peer.sin_addr, addr, sizeof addr);
    return std::string(addr) + ":" + std::to_string(ntohs(e->peer.sin_port));
}

/* Opens the sending connection and says hello (blocking: a loopback or LAN connect is quick). */
bool connect_endpoint(Link *l, Endpoint *e)
{
    const tessera_job_info_t *job = tessera_job_info();
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return false;
    }
    if (connect(fd, reinterpret_cast<const sockaddr *>(&e->peer), sizeof e->peer) != 0) {
        close(fd);
        return false;
    }
    Hello h{kMagic, job->jobid, job->rank, static_cast<uint32_t>(l->link), {}};
    std::memcpy(h.key, job->job_key, std::min<std::size_t>(std::strlen(job->job_key), sizeof h.key));
    if (::send(fd, &h, sizeof h, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof h)) {
        close(fd);
        return false;
    }
    set_nonblocking(fd);
    e->fd = fd;
    /* The peer may answer on this connection (it adopts it for sending): read it like an accepted one. */
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &ev);
    Incoming in;
    in.from = e;
    l->incoming[fd] = std::move(in);
    return true;
}

/* Writes what the queue holds; false when the connection broke. */
bool flush(Endpoint *e)
{
    while (e->queued_at < e->queue.size()) {
        const ssize_t n = ::send(e->fd, e->queue.data() + e->queued_at, e->queue.size() - e->queued_at,
                                 MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        }
        e->queued_at += static_cast<std::size_t>(n);
    }
    e->queue.clear();
    e->queued_at = 0;
    return true;
}

int send(mca_btl_base_module_t *m, mca_btl_base_endpoint_t *endpoint, mca_btl_base_tag_t tag,
         const mca_btl_base_segment_t *segments, size_t segment_count, mca_btl_base_send_done_fn_t, void *)
{
    Link *l = as_link(m);
    auto *e = reinterpret_cast<Endpoint *>(endpoint);
    if (e == nullptr || segment_count > 4) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (e->failed) {
        return TESSERA_ERR_UNREACH;
    }
    if (e->fd < 0 && !connect_endpoint(l, e)) {
        fail_endpoint(l, e, "cannot connect to " + peer_text(e) + ": " + std::strerror(errno));
        return TESSERA_ERR_UNREACH;
    }
    FrameHeader fh{0, tag, {}};
    iovec iov[5];
    iov[0] = {&fh, sizeof fh};
    std::size_t total = 0;
    for (size_t i = 0; i < segment_count; ++i) {
        iov[i + 1] = {const_cast<void *>(segments[i].seg_addr), segments[i].seg_len};
        total += segments[i].seg_len;
    }
    if (total > params.max_send_size) {
        return TESSERA_ERR_BAD_PARAM;
    }
    fh.length = static_cast<uint32_t>(total);
    std::size_t written = 0;
    if (e->queue.empty()) {
        msghdr msg{};
        msg.msg_iov = iov;
        msg.msg_iovlen = segment_count + 1;
        const ssize_t n = sendmsg(e->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            fail_endpoint(l, e, "sending to " + peer_text(e) + " failed: " + std::strerror(errno));
            return TESSERA_ERR_UNREACH;
        }
        written = n > 0 ? static_cast<std::size_t>(n) : 0;
        if (written == sizeof fh + total) {
            return MCA_BTL_SEND_COMPLETE;
        }
    } else if (e->queue.size() - e->queued_at > params.queue_limit) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    /* The rest waits in the queue, copied: the caller may reuse its segments at once. */
    bool was_empty = e->queue.empty();
    for (size_t i = 0; i < segment_count + 1; ++i) {
        const auto *p = static_cast<const char *>(iov[i].iov_base);
        const std::size_t skip = std::min(written, iov[i].iov_len);
        written -= skip;
        e->queue.insert(e->queue.end(), p + skip, p + iov[i].iov_len);
    }
    if (was_empty) {
        l->flushing.push_back(e);
    }
    return MCA_BTL_SEND_COMPLETE;
}

void accept_all(Link *l)
{
    for (;;) {
        const int fd = accept4(l->listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            return;
        }
        set_nonblocking(fd);
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &ev);
        l->incoming[fd] = Incoming{};
    }
}

void drop(Link *l, int fd)
{
    auto it = l->incoming.find(fd);
    if (it != l->incoming.end() && it->second.from != nullptr && it->second.from->fd == fd) {
        it->second.from->fd = -1; /* the connection it sent on, too */
    }
    epoll_ctl(l->epfd, EPOLL_CTL_DEL, fd, nullptr);
    close(fd);
    l->incoming.erase(fd);
}

/* Reads what arrived on one connection and delivers every whole fragment; returns fragments. */
int read_incoming(Link *l, int fd)
{
    Incoming &in = l->incoming[fd];
    int events = 0;
    for (;;) {
        if (in.buf.size() - in.have < 65536) {
            in.buf.resize(std::max<std::size_t>(in.buf.size() * 2, in.have + 262144));
        }
        const ssize_t n = recv(fd, in.buf.data() + in.have, in.buf.size() - in.have, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            Endpoint *from = in.from;
            const std::string why = n == 0 ? "the connection was closed" : std::strerror(errno);
            drop(l, fd);
            if (from != nullptr) {
                fail_endpoint(l, from, "rank " + std::to_string(from->proc->proc_name.rank) + " (" + peer_text(from) +
                                           "): " + why);
            }
            return events;
        }
        if (n < 0) {
            break;
        }
        const bool drained = static_cast<std::size_t>(n) < in.buf.size() - in.have; /* a short read: nothing more now */
        in.have += static_cast<std::size_t>(n);
        std::size_t at = 0;
        if (in.from == nullptr) {
            if (in.have < sizeof(Hello)) {
                continue;
            }
            Hello h;
            std::memcpy(&h, in.buf.data(), sizeof h);
            const tessera_job_info_t *job = tessera_job_info();
            auto it = l->by_rank.find(h.rank);
            const std::string_view key(h.key, strnlen(h.key, sizeof h.key));
            if (h.magic != kMagic || h.jobid != job->jobid || h.link != static_cast<uint32_t>(l->link) ||
                it == l->by_rank.end() || !tessera::orte::job_key_equal(key, job->job_key)) {
                drop(l, fd); /* not one of this job's ranks: ignored */
                return events;
            }
            in.from = it->second.get();
            at = sizeof h;
            /* One connection per pair and direction would do, but a pure ACK per message on each of
             * two connections costs latency: a rank that has not opened its own connection to this
             * peer sends on this one, so replies carry the acknowledgements. */
            if (in.from->fd < 0 && !in.from->failed) {
                in.from->fd = fd;
            }
        }
        while (in.have - at >= sizeof(FrameHeader)) {
            FrameHeader fh;
            std::memcpy(&fh, in.buf.data() + at, sizeof fh);
            if (in.have - at < sizeof fh + fh.length) {
                break;
            }
            const mca_btl_base_segment_t segment{in.buf.data() + at + sizeof fh, fh.length};
            const mca_btl_base_recv_desc_t desc{reinterpret_cast<mca_btl_base_endpoint_t *>(in.from), in.from->proc,
                                                &segment, 1, fh.tag};
            mca_btl_base_deliver(&l->module, &desc);
            at += sizeof fh + fh.length;
            ++events;
        }
        if (at > 0) {
            std::memmove(in.buf.data(), in.buf.data() + at, in.have - at);
            in.have -= at;
        }
        if (drained) {
            break;
        }
    }
    return events;
}

int progress(mca_btl_base_module_t *m)
{
    Link *l = as_link(m);
    int events = 0;
    for (std::size_t i = 0; i < l->flushing.size();) {
        Endpoint *e = l->flushing[i];
        if (!e->failed && !flush(e)) {
            fail_endpoint(l, e, "sending to " + peer_text(e) + " failed: " + std::strerror(errno));
        }
        if (e->failed || e->queue.empty()) {
            l->flushing[i] = l->flushing.back();
            l->flushing.pop_back();
            ++events;
        } else {
            ++i;
        }
    }
    /* With few connections, reading each one directly costs one system call per connection and pass,
     * where epoll costs one more before any read; new connections are still looked for through epoll,
     * every kAcceptEvery passes. */
    if (l->incoming.size() <= kDirectReads && ++l->passes % kAcceptEvery != 0 && !l->incoming.empty()) {
        int fds[kDirectReads];
        std::size_t count = 0;
        for (const auto &entry : l->incoming) {
            fds[count++] = entry.first;
        }
        for (std::size_t i = 0; i < count; ++i) {
            events += read_incoming(l, fds[i]);
        }
        return events;
    }
    epoll_event ev[16];
    const int n = epoll_wait(l->epfd, ev, 16, 0);
    for (int i = 0; i < n; ++i) {
        if (ev[i].data.fd == l->listen_fd) {
            accept_all(l);
        } else if (l->incoming.count(ev[i].data.fd) != 0) {
            events += read_incoming(l, ev[i].data.fd);
        }
    }
    return events;
}

int add_procs(mca_btl_base_module_t *m, size_t nprocs, tessera_proc_t *const *procs,
              mca_btl_base_endpoint_t **endpoints)
{
    Link *l = as_link(m);
    for (size_t i = 0; i < nprocs; ++i) {
        endpoints[i] = nullptr;
        tessera_proc_t *p = procs[i];
        if (p == nullptr || (p->proc_flags & TESSERA_PROC_IS_SELF) != 0) {
            continue;
        }
        const void *data = nullptr;
        size_t len = 0;
        if (tessera_modex_get(p->proc_name.rank, "btl.tcp", &data, &len) != TESSERA_SUCCESS || len != sizeof(Card)) {
            continue;
        }
        Card card;
        std::memcpy(&card, data, sizeof card);
        if (static_cast<uint32_t>(l->link) >= card.links) {
            continue;
        }
        auto &e = l->by_rank[p->proc_name.rank];
        if (!e) {
            e = std::make_unique<Endpoint>();
            e->proc = p;
            e->peer.sin_family = AF_INET;
            e->peer.sin_addr.s_addr = card.addr;
            e->peer.sin_port = htons(card.ports[l->link]);
        }
        endpoints[i] = reinterpret_cast<mca_btl_base_endpoint_t *>(e.get());
    }
    return TESSERA_SUCCESS;
}

int del_procs(mca_btl_base_module_t *m, size_t nprocs, tessera_proc_t *const *procs, mca_btl_base_endpoint_t **endpoints)
{
    Link *l = as_link(m);
    for (size_t i = 0; i < nprocs; ++i) {
        auto it = endpoints[i] != nullptr ? l->by_rank.find(procs[i]->proc_name.rank) : l->by_rank.end();
        if (it == l->by_rank.end()) {
            continue;
        }
        Endpoint *e = it->second.get();
        if (e->fd >= 0) {
            /* What is still queued goes out first (the final fence comes after the engine quiesced). */
            for (int spins = 0; !e->queue.empty() && flush(e) && spins < 100000; ++spins) {
            }
        }
        /* Every connection of this peer, whichever side opened it. */
        for (auto in = l->incoming.begin(); in != l->incoming.end();) {
            const int fd = in->first;
            const bool mine = in->second.from == e;
            ++in;
            if (mine) {
                drop(l, fd);
            }
        }
        if (e->fd >= 0) {
            close(e->fd);
            e->fd = -1;
        }
        std::erase(l->flushing, e);
        l->by_rank.erase(it);
    }
    return TESSERA_SUCCESS;
}

int finalize(mca_btl_base_module_t *m)
{
    Link *l = as_link(m);
    for (auto &[fd, in] : l->incoming) {
        close(fd);
    }
    l->incoming.clear();
    if (l->listen_fd >= 0) {
        close(l->listen_fd);
        l->listen_fd = -1;
    }
    if (l->epfd >= 0) {
        close(l->epfd);
        l->epfd = -1;
    }
    return TESSERA_SUCCESS;
}

} // namespace

mca_btl_base_module_t *module_create(int link, int listen_fd, in_addr_t addr)
{
    if (links == nullptr) {
        links = new std::vector<Link *>();
    }
    auto *l = new Link();
    l->link = link;
    l->listen_fd = listen_fd;
    l->epfd = epoll_create1(EPOLL_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listen_fd;
    epoll_ctl(l->epfd, EPOLL_CTL_ADD, listen_fd, &ev);
    char text[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &addr, text, sizeof text);
    l->name = "tcp:" + std::string(text) + ":" + std::to_string(link);
    l->module = mca_btl_base_module_t{
        .btl_component = &mca_btl_tcp_component,
        .btl_name = l->name.c_str(),
        .btl_eager_limit = params.eager_limit,
        .btl_max_send_size = params.max_send_size,
        .btl_exclusivity = MCA_BTL_EXCLUSIVITY_LOW,
        .btl_latency = params.latency,
        .btl_bandwidth = params.bandwidth,
        .btl_flags = MCA_BTL_FLAG_SEND,
        .btl_add_procs = add_procs,
        .btl_del_procs = del_procs,
        .btl_send = send,
        .btl_progress = progress,
        .btl_finalize = finalize,
        .btl_get = nullptr,
        .btl_get_limit = 0,
        .module_state = l,
        .reserved = {},
    };
    links->push_back(l);
    return &l->module;
}

void modules_destroy()
{
    if (links == nullptr) {
        return;
    }
    for (Link *l : *links) {
        finalize(&l->module);
        delete l;
    }
    links->clear();
}

} // namespace tessera::ompi::btl_tcp
