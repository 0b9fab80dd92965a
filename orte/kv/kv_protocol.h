/*
 * The wire format between mpirun's wire-up service (kv_server.h) and the ranks (kv_client.h); see
 * docs/wire-up.md. Every message is one frame:
 *
 *     [u32 little-endian payload length][u8 type][payload]
 *
 * The length counts the payload only (0 is valid: FENCE, FINALIZE, ACK). Inside a payload, integers
 * are u32 little-endian and byte strings are a u32 length followed by the bytes.
 *
 *   HELLO      1  u32 version, u32 rank, bytes job key     rank -> mpirun, first frame, answered by ACK
 *   PUT        2  bytes key, bytes value                   rank -> mpirun, before its FENCE
 *   FENCE      3  (empty)                                  rank -> mpirun
 *   FENCE_DONE 4  u32 count, count x (u32 rank, bytes key, bytes value)   mpirun -> every rank
 *   ABORT      5  u32 exit code (two's complement), bytes message         rank -> mpirun, ACKed
 *   FINALIZE   6  (empty)                                  rank -> mpirun, ACKed
 *   ACK        7  (empty)                                  mpirun -> rank
 *
 * Nothing here trusts a length it reads: the frame reader refuses a header above its limit before
 * buffering anything, grows its buffer only as bytes arrive, and the payload decoders check every
 * length against the bytes that are actually there.
 */
#ifndef TESSERA_ORTE_KV_KV_PROTOCOL_H
#define TESSERA_ORTE_KV_KV_PROTOCOL_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::orte::kv {

inline constexpr uint32_t kProtocolVersion = 1;
inline constexpr size_t kFrameHeaderBytes = 5;
/* Largest payload a u32 length can describe. */
inline constexpr size_t kMaxPayloadBytes = UINT32_MAX;
/* A connection that has not proven it knows the key may send one small frame, nothing more. */
inline constexpr size_t kMaxHelloPayloadBytes = 1024;

enum class MsgType : uint8_t {
    Hello = 1,
    Put = 2,
    Fence = 3,
    FenceDone = 4,
    Abort = 5,
    Finalize = 6,
    Ack = 7,
};

bool is_known_type(uint8_t type);
/* "HELLO", "PUT", ...; "type 0xNN" for anything else. */
std::string type_name(uint8_t type);

using Bytes = std::vector<std::byte>;

struct Hello {
    uint32_t version = 0;
    uint32_t rank = 0;
    std::string key;
};

struct Put {
    std::string key;
    Bytes value;
};

struct AbortMsg {
    int32_t exit_code = 0;
    std::string message;
};

struct Entry {
    uint32_t rank = 0;
    std::string key;
    Bytes value;
};

/* Encoders append one whole frame to `out`. They return false (appending nothing) when the payload
 * would not fit a u32 length. */
bool encode_hello(Bytes &out, uint32_t rank, std::string_view key, uint32_t version = kProtocolVersion);
bool encode_put(Bytes &out, std::string_view key, std::span<const std::byte> value);
bool encode_abort(Bytes &out, int32_t exit_code, std::string_view message);
/* FENCE, FINALIZE, ACK: frames without payload. */
void encode_empty(Bytes &out, MsgType type);

/* FENCE_DONE is built as the ranks' PUTs arrive, then framed once and sent to everyone. */
class FenceDoneBuilder {
public:
    /* False when the frame would exceed limit_bytes of payload (nothing is added). */
    bool add(uint32_t rank, std::string_view key, std::span<const std::byte> value,
             size_t limit_bytes = kMaxPayloadBytes);
    size_t count() const { return count_; }
    size_t payload_bytes() const { return 4 + entries_.size(); }
    /* The whole frame; the builder is empty afterwards. */
    Bytes finish();

private:
    Bytes entries_;
    uint32_t count_ = 0;
};

/* Payload decoders: nullopt and *error when the payload is malformed (short, lengths beyond the end,
 * bytes left over). */
std::optional<Hello> decode_hello(std::span<const std::byte> payload, std::string *error);
std::optional<Put> decode_put(std::span<const std::byte> payload, std::string *error);
std::optional<AbortMsg> decode_abort(std::span<const std::byte> payload, std::string *error);
std::optional<std::vector<Entry>> decode_fence_done(std::span<const std::byte> payload, std::string *error);

struct Frame {
    uint8_t type = 0;
    std::span<const std::byte> payload; /* valid until the reader's next prepare()/feed()/next() */
};

/*
 * Cuts a byte stream into frames. Bytes go in with prepare()+commit() (read(2) straight into the
 * buffer) or feed(); frames come out of next(). A header with an unknown type or a length above the
 * limit is an error as soon as its 5 bytes are in, so a hostile length never causes an allocation.
 */
class FrameReader {
public:
    enum class Status { NeedMore, Frame, Error };

    explicit FrameReader(size_t max_payload) : max_payload_(max_payload) {}

    /* Takes effect from the next frame header on (the handshake raises it). */
    void set_max_payload(size_t max_payload) { max_payload_ = max_payload; }
    size_t max_payload() const { return max_payload_; }

    /* Room for at least `want` more bytes at the end of the buffer; then commit what was written. */
    std::span<std::byte> prepare(size_t want);
    void commit(size_t n);
    void feed(std::span<const std::byte> bytes);

    /* Status::Frame fills *frame; Status::Error fills *error and the reader stays in error. */
    Status next(Frame *frame, std::string *error);

    /* Bytes of an incomplete frame are buffered: end-of-file now means a truncated frame. */
    bool mid_frame() const { return end_ > begin_ + pending_consume_; }
    size_t buffered() const { return end_ - begin_ - pending_consume_; }
    /* For a truncated frame: the length its header claims (0 when the header itself is cut). */
    size_t expected_frame_bytes() const;

private:
    void consume_pending();

    Bytes buf_;
    size_t begin_ = 0;           /* first unconsumed byte */
    size_t end_ = 0;             /* end of valid bytes */
    size_t pending_consume_ = 0; /* the frame last returned, released on the next call */
    size_t max_payload_;
    bool failed_ = false;
    std::string failure_;
};

/* An owned file descriptor. */
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(UniqueFd &&o) noexcept : fd_(o.release()) {}
    UniqueFd &operator=(UniqueFd &&o) noexcept;
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    ~UniqueFd() { reset(); }

    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    int release()
    {
        int fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset(int fd = -1);

private:
    int fd_ = -1;
};

} // namespace tessera::orte::kv

#endif
