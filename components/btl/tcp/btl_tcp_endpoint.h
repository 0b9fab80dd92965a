/*
 * btl tcp: a module's per-peer state and the module itself (btl_tcp.h). One connection per
 * (module, peer) pair: either side may open it when it first sends; if both do at once, the
 * connection opened by the lower rank is kept (the acceptor answers the other with "duplicate"), and
 * fragments wait in the endpoint's queue until the pair's connection is accepted.
 */
#ifndef TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_ENDPOINT_H
#define TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_ENDPOINT_H

#include <sys/uio.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "components/btl/tcp/btl_tcp.h"
#include "components/btl/tcp/btl_tcp_hdr.h"

namespace tessera::ompi::btl_tcp {

/* The most segments one send() takes (the pml gives two: header and payload). */
constexpr std::size_t kMaxSegments = 8;

/* A fragment in a send queue. Pooled per module: the steady state allocates nothing. Every segment
 * of a send without a done callback, and segments of at most btl_tcp_copy_limit bytes (headers,
 * often on the caller's stack), are copied into `copy`; larger ones are written from the caller's
 * memory. A send with a done callback hears from it once the fragment is written. */
struct Entry {
    Entry *next = nullptr;
    FrameHeader header{};
    iovec iov[kMaxSegments + 1]{};
    int iov_count = 0;
    int iov_at = 0;   /* first iov not yet written completely */
    std::size_t left = 0; /* bytes not yet written */
    mca_btl_base_send_done_fn_t done = nullptr;
    void *done_data = nullptr;
    std::vector<char> copy; /* capacity kept across uses */
};

enum class ConnState : uint8_t {
    Closed,     /* no connection; the first send opens one */
    Connecting, /* our connect() in progress */
    AwaitReply, /* our hello sent; nothing goes out before the peer accepts */
    WaitPeer,   /* the peer's own connection wins the race; it is on its way */
    Connected,
    Failed, /* reported; sends answer TESSERA_ERR_UNREACH */
};

/* Bytes that arrived on a connection: whole frames are delivered from here in place. */
struct RecvBuffer {
    std::vector<char> buf; /* sized once, when the connection is accepted */
    std::size_t at = 0;    /* start of the first frame not yet delivered */
    std::size_t have = 0;  /* end of the bytes read */
};

struct Endpoint {
    Watch watch;
    tessera_proc_t *proc = nullptr;
    uint32_t rank = 0;
    sockaddr_in peer{}; /* the peer's listener for this link */
    int fd = -1;
    ConnState state = ConnState::Closed;
    bool flushing = false; /* on the module's flushing list */
    bool failing = false;  /* on the module's failed list: queued dones still to call */
    Entry *head = nullptr;
    Entry *tail = nullptr;
    std::size_t queued = 0; /* bytes in the queue */
    HelloReply reply{};
    std::size_t reply_got = 0;
    int retries = 0; /* connections the peer closed unanswered, since the last one that came up */
    uint32_t peer_max_frame = 0;
    RecvBuffer rx;
};

/* An accepted connection whose hello has not been checked yet, or whose sender's endpoint does not
 * exist yet (it sent before this process added it). Slots are reused, never freed before the
 * module. */
struct Pending {
    Watch watch;
    int fd = -1;
    bool in_use = false;
    bool checked = false; /* a valid hello, waiting for add_procs to create its endpoint */
    sockaddr_in from{};
    Hello hello{};
    std::size_t got = 0;
    std::chrono::steady_clock::time_point since;
};

struct Link {
    mca_btl_base_module_t module{};
    Watch listen_watch{};
    int link = 0;
    int listen_fd = -1;
    std::string name;
    std::vector<std::unique_ptr<Endpoint>> by_rank;
    std::vector<std::unique_ptr<Pending>> pending;
    std::size_t pending_count = 0;
    std::vector<Endpoint *> flushing; /* endpoints whose queue waits for the socket */
    std::vector<Endpoint *> failed;   /* endpoints whose queued dones are still to be called */
    std::vector<Endpoint *> connected; /* read directly by progress() while they are few */
    /* progress()'s passes until its turn to poll the set: one thread at a time progresses in the
     * library, but unit tests drive the module from several, and a count lost to a race costs nothing. */
    std::atomic<unsigned> passes_to_poll{1};
    /* Whether this module was ever used: a send went through it, or the set reported one of its
     * connections. Until then progress() only polls the set every btl_tcp_poll_every passes, with no
     * lock (the idle module of a job whose peers are all on this host). Once set it stays set, so a
     * module in use is progressed on every pass as before. */
    std::atomic<bool> active{false};
    std::vector<std::unique_ptr<Entry>> entries; /* owns every entry */
    std::vector<Entry *> free_entries;
};

/* Takes the component's lock when it is threaded (btl_tcp.h, Component::lock). */
class Guard {
public:
    Guard() : locked_(component->threaded)
    {
        if (locked_) {
            component->lock.lock();
        }
    }
    ~Guard()
    {
        if (locked_) {
            component->lock.unlock();
        }
    }
    Guard(const Guard &) = delete;
    Guard &operator=(const Guard &) = delete;

private:
    bool locked_;
};

/* Connections (btl_tcp_endpoint.cpp). */
void set_socket_options(int fd);
bool start_connect(Link *l, Endpoint *e);
void on_connect_event(Link *l, Endpoint *e, uint32_t events);
/* Makes an accepted, checked connection the pair's, or refuses it as a duplicate; takes the fd. */
void adopt(Link *l, Endpoint *e, int fd, uint32_t peer_max_frame);
/* Marks the peer gone and reports it once; queued dones are called from progress(). */
void fail_endpoint(Link *l, Endpoint *e, const std::string &why);
std::string peer_text(const Endpoint *e);

/* Sending (btl_tcp_endpoint.cpp). */
int send_fragment(Link *l, Endpoint *e, mca_btl_base_tag_t tag, const mca_btl_base_segment_t *segments,
                  std::size_t segment_count, mca_btl_base_send_done_fn_t done, void *done_data);
/* Writes what the endpoint's queue holds; returns the fragments completed. call_done false: the
 * caller is gone (del_procs), its callbacks are not called. */
int flush(Link *l, Endpoint *e, bool call_done);
/* Calls the dones of a failed endpoint's queue with TESSERA_ERR_UNREACH and empties it. */
int drain_failed(Link *l, Endpoint *e);
/* Empties the queue without calling anything (the endpoint is being deleted). */
void discard_queue(Link *l, Endpoint *e);

/* Receiving (btl_tcp_recv.cpp): reads and delivers every whole frame; returns frames delivered. */
int read_frames(Link *l, Endpoint *e);

/* Handshakes (btl_tcp_handshake.cpp). */
void accept_connections(Link *l);
void on_pending_event(Link *l, Pending *p);
/* Hands connections that said hello before their endpoint existed to it. */
void adopt_waiting(Link *l, Endpoint *e);
/* Refuses handshakes older than btl_tcp_handshake_timeout. */
void expire_pending(Link *l);
void close_pending(Link *l, Pending *p);

} // namespace tessera::ompi::btl_tcp

#endif
