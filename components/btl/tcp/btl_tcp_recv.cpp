/* btl tcp: frames in — read into the connection's buffer, delivered in place (btl_tcp_endpoint.h). */
#include <endian.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "components/btl/tcp/btl_tcp_endpoint.h"

namespace tessera::ompi::btl_tcp {

namespace {

/* With less room than this behind the last bytes read, the unfinished frame is moved to the front
 * first, so that one read can still take a batch of small frames. */
constexpr std::size_t kMinRead = 16384;
/* A frame at least this large is read only up to its end: the next one then starts at the front of
 * the buffer and is never moved (a move would copy its bytes once more). */
constexpr std::size_t kLargeFrame = 16384;

uint32_t frame_length(const RecvBuffer &rx)
{
    FrameHeader h;
    std::memcpy(&h, rx.buf.data() + rx.at, sizeof h);
    return le32toh(h.length);
}

} // namespace

int read_frames(Link *l, Endpoint *e)
{
    RecvBuffer &rx = e->rx;
    const std::size_t cap = rx.buf.size();
    int events = 0;
    for (;;) {
        if (rx.at == rx.have) {
            rx.at = rx.have = 0;
        }
        const std::size_t avail = rx.have - rx.at;
        const bool header_in = avail >= sizeof(FrameHeader);
        /* Every frame whose header is in was checked below, so `need` is at most one frame. */
        const std::size_t need = sizeof(FrameHeader) + (header_in ? frame_length(rx) : 0);
        if (rx.at > 0 && (rx.at + need > cap || cap - rx.have < kMinRead)) {
            std::memmove(rx.buf.data(), rx.buf.data() + rx.at, avail);
            rx.at = 0;
            rx.have = avail;
        }
        std::size_t want = cap - rx.have;
        if (header_in && need >= kLargeFrame) {
            want = std::min(want, rx.at + need - rx.have);
        }
        const ssize_t n = recv(e->fd, rx.buf.data() + rx.have, want, MSG_DONTWAIT);
        if (n <= 0) {
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                return events;
            }
            fail_endpoint(l, e, peer_text(e) + ": " + (n == 0 ? std::string("the connection was closed") : std::strerror(errno)));
            return events;
        }
        rx.have += static_cast<std::size_t>(n);
        while (rx.have - rx.at >= sizeof(FrameHeader)) {
            FrameHeader h;
            std::memcpy(&h, rx.buf.data() + rx.at, sizeof h);
            const uint32_t length = le32toh(h.length);
            if (length > e->peer_max_frame) {
                fail_endpoint(l, e, peer_text(e) + " sent a frame of " + std::to_string(length) +
                                        " bytes, more than the " + std::to_string(e->peer_max_frame) + " it announced");
                return events;
            }
            if (rx.have - rx.at < sizeof h + length) {
                break;
            }
            const mca_btl_base_segment_t segment{rx.buf.data() + rx.at + sizeof h, length};
            const mca_btl_base_recv_desc_t desc{reinterpret_cast<mca_btl_base_endpoint_t *>(e), e->proc, &segment, 1,
                                                h.tag};
            rx.at += sizeof h + length;
            mca_btl_base_deliver(&l->module, &desc);
            ++events;
            if (e->state != ConnState::Connected) {
                return events; /* the callback's own send found the peer gone */
            }
        }
        if (static_cast<std::size_t>(n) < want) {
            return events; /* a short read: the socket is empty */
        }
    }
}

} // namespace tessera::ompi::btl_tcp
