/*
 * btl tcp: what goes over the wire and into the modex (docs/btl-tcp.md, "Wire format"). Fixed-layout
 * structs of fixed-width fields; the hello and its reply in network byte order (they may cross hosts
 * of any kind before anything is known about the peer), the frame length little-endian (the hot path:
 * no conversion on the machines we run on).
 */
#ifndef TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_HDR_H
#define TESSERA_COMPONENTS_BTL_TCP_BTL_TCP_HDR_H

#include <cstddef>
#include <cstdint>

namespace tessera::ompi::btl_tcp {

/* "TsTc": a connection that does not start with this is not ours. */
constexpr uint32_t kHelloMagic = 0x54735463u;
/* Raised whenever the hello, the reply or the frame header change. */
constexpr uint16_t kProtocolVersion = 1;
/* The largest frame a peer may announce: the bound btl_tcp_max_send_size itself has. */
constexpr uint32_t kMaxAnnouncedFrame = 64u << 20;
/* The job key as the runtime hands it out: 64 hex digits (orte/kv/job_key.h). */
constexpr std::size_t kKeyBytes = 64;

/* First bytes on a connection, from the side that opened it. The key itself proves membership, as
 * in the runtime's own hello (docs/wire-up.md): only processes of the job learn it. */
struct Hello {
    uint32_t magic;     /* kHelloMagic */
    uint16_t version;   /* kProtocolVersion */
    uint16_t link;      /* which of the sender's modules: must be the listener's own link */
    uint32_t jobid;
    uint32_t rank;      /* the sender's rank in the job */
    uint32_t max_frame; /* the largest frame payload the sender will send */
    char key[kKeyBytes];
};
static_assert(sizeof(Hello) == 84, "the hello has a fixed size on the wire");

/* The accepting side's answer. Until it arrives the opening side sends nothing, so a connection
 * that loses a simultaneous-connect race carries no fragment. Strangers get no answer at all. */
enum HelloVerdict : uint32_t {
    kHelloAccepted = 1,  /* this is the pair's connection from now on */
    kHelloDuplicate = 2, /* the pair already has (or is about to have) another one: wait for it */
};
struct HelloReply {
    uint32_t magic;     /* kHelloMagic */
    uint32_t verdict;   /* HelloVerdict */
    uint32_t max_frame; /* the largest frame payload the acceptor will send */
    uint32_t reserved;
};
static_assert(sizeof(HelloReply) == 16, "the reply has a fixed size on the wire");

/* Before every fragment. Eight bytes, so that payloads stay 8-aligned in the receive buffer when
 * fragments are multiples of 8. */
struct FrameHeader {
    uint32_t length; /* payload bytes, little-endian */
    uint8_t tag;
    uint8_t reserved[3];
};
static_assert(sizeof(FrameHeader) == 8, "the frame header has a fixed size on the wire");

/* The card "btl.tcp" each rank puts in the modex: where each of its links listens. */
constexpr uint8_t kCardVersion = 1;
constexpr int kMaxLinks = 16;
struct CardLink {
    uint32_t addr; /* IPv4, network byte order */
    uint16_t port; /* network byte order */
    uint16_t reserved;
};
struct Card {
    uint8_t version; /* kCardVersion */
    uint8_t links;
    uint16_t reserved;
    CardLink link[kMaxLinks];
};

/* Bytes of a card with `links` links (only those are put). */
constexpr std::size_t card_size(int links)
{
    return offsetof(Card, link) + static_cast<std::size_t>(links) * sizeof(CardLink);
}

} // namespace tessera::ompi::btl_tcp

#endif
