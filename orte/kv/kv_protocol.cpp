/* The wire-up frame format: encoders, bounds-checked decoders and the incremental frame reader. */
#include "orte/kv/kv_protocol.h"

#include <unistd.h>

#include <cstring>

namespace tessera::orte::kv {

namespace {

/* A reader's buffer that grew for one big frame is given back once it is empty again. */
constexpr size_t kKeepBufferBytes = 1u << 20;

void put_u32(Bytes &out, uint32_t v)
{
    for (int i = 0; i < 4; ++i) {
        out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xff));
    }
}

uint32_t get_u32(const std::byte *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        v |= static_cast<uint32_t>(std::to_integer<uint8_t>(p[i])) << (8 * i);
    }
    return v;
}

void put_bytes(Bytes &out, const void *data, size_t n)
{
    put_u32(out, static_cast<uint32_t>(n));
    const auto *p = static_cast<const std::byte *>(data);
    out.insert(out.end(), p, p + n);
}

void put_header(Bytes &out, MsgType type, size_t payload)
{
    put_u32(out, static_cast<uint32_t>(payload));
    out.push_back(static_cast<std::byte>(type));
}

/* Reads a payload front to back; every read checks what is left first. */
class Cursor {
public:
    Cursor(std::span<const std::byte> data, std::string *error) : data_(data), error_(error) {}

    bool u32(uint32_t *v, const char *what)
    {
        if (data_.size() - pos_ < 4) {
            return fail(std::string("payload ends inside ") + what);
        }
        *v = get_u32(data_.data() + pos_);
        pos_ += 4;
        return true;
    }

    /* The length is compared with the bytes that remain before anything is allocated. */
    bool bytes(std::span<const std::byte> *out, const char *what)
    {
        uint32_t n = 0;
        if (!u32(&n, what)) {
            return false;
        }
        if (n > data_.size() - pos_) {
            return fail(std::string(what) + " claims " + std::to_string(n) + " bytes but only " +
                        std::to_string(data_.size() - pos_) + " remain");
        }
        *out = data_.subspan(pos_, n);
        pos_ += n;
        return true;
    }

    bool string(std::string *out, const char *what)
    {
        std::span<const std::byte> b;
        if (!bytes(&b, what)) {
            return false;
        }
        out->assign(reinterpret_cast<const char *>(b.data()), b.size());
        return true;
    }

    bool blob(Bytes *out, const char *what)
    {
        std::span<const std::byte> b;
        if (!bytes(&b, what)) {
            return false;
        }
        out->assign(b.begin(), b.end());
        return true;
    }

    size_t remaining() const { return data_.size() - pos_; }

    bool done()
    {
        if (pos_ != data_.size()) {
            return fail(std::to_string(data_.size() - pos_) + " unexpected bytes after the message");
        }
        return true;
    }

private:
    bool fail(std::string why)
    {
        if (error_ != nullptr) {
            *error_ = std::move(why);
        }
        return false;
    }

    std::span<const std::byte> data_;
    size_t pos_ = 0;
    std::string *error_;
};

} // namespace

bool is_known_type(uint8_t type)
{
    return type >= static_cast<uint8_t>(MsgType::Hello) && type <= static_cast<uint8_t>(MsgType::Ack);
}

std::string type_name(uint8_t type)
{
    switch (static_cast<MsgType>(type)) {
    case MsgType::Hello: return "HELLO";
    case MsgType::Put: return "PUT";
    case MsgType::Fence: return "FENCE";
    case MsgType::FenceDone: return "FENCE_DONE";
    case MsgType::Abort: return "ABORT";
    case MsgType::Finalize: return "FINALIZE";
    case MsgType::Ack: return "ACK";
    }
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string("type 0x") + kHex[type >> 4] + kHex[type & 0xf];
}

bool encode_hello(Bytes &out, uint32_t rank, std::string_view key, uint32_t version)
{
    if (key.size() > kMaxHelloPayloadBytes - 12) {
        return false;
    }
    put_header(out, MsgType::Hello, 12 + key.size());
    put_u32(out, version);
    put_u32(out, rank);
    put_bytes(out, key.data(), key.size());
    return true;
}

bool encode_put(Bytes &out, std::string_view key, std::span<const std::byte> value)
{
    if (key.size() > kMaxPayloadBytes - 8 || value.size() > kMaxPayloadBytes - 8 - key.size()) {
        return false;
    }
    put_header(out, MsgType::Put, 8 + key.size() + value.size());
    put_bytes(out, key.data(), key.size());
    put_bytes(out, value.data(), value.size());
    return true;
}

bool encode_abort(Bytes &out, int32_t exit_code, std::string_view message)
{
    if (message.size() > kMaxPayloadBytes - 8) {
        return false;
    }
    put_header(out, MsgType::Abort, 8 + message.size());
    put_u32(out, static_cast<uint32_t>(exit_code));
    put_bytes(out, message.data(), message.size());
    return true;
}

void encode_empty(Bytes &out, MsgType type) { put_header(out, type, 0); }

bool FenceDoneBuilder::add(uint32_t rank, std::string_view key, std::span<const std::byte> value,
                           size_t limit_bytes)
{
    size_t limit = limit_bytes < kMaxPayloadBytes ? limit_bytes : kMaxPayloadBytes;
    size_t used = payload_bytes();
    /* Written so that no sum can wrap: each term is checked against what is left. */
    if (used > limit || limit - used < 12 || key.size() > limit - used - 12 ||
        value.size() > limit - used - 12 - key.size() || count_ == UINT32_MAX) {
        return false;
    }
    put_u32(entries_, rank);
    put_bytes(entries_, key.data(), key.size());
    put_bytes(entries_, value.data(), value.size());
    ++count_;
    return true;
}

Bytes FenceDoneBuilder::finish()
{
    Bytes frame;
    frame.reserve(kFrameHeaderBytes + payload_bytes());
    put_header(frame, MsgType::FenceDone, payload_bytes());
    put_u32(frame, count_);
    frame.insert(frame.end(), entries_.begin(), entries_.end());
    entries_.clear();
    count_ = 0;
    return frame;
}

std::optional<Hello> decode_hello(std::span<const std::byte> payload, std::string *error)
{
    Cursor c(payload, error);
    Hello h;
    if (!c.u32(&h.version, "the protocol version") || !c.u32(&h.rank, "the rank") ||
        !c.string(&h.key, "the job key") || !c.done()) {
        return std::nullopt;
    }
    return h;
}

std::optional<Put> decode_put(std::span<const std::byte> payload, std::string *error)
{
    Cursor c(payload, error);
    Put p;
    if (!c.string(&p.key, "the key") || !c.blob(&p.value, "the value") || !c.done()) {
        return std::nullopt;
    }
    return p;
}

std::optional<AbortMsg> decode_abort(std::span<const std::byte> payload, std::string *error)
{
    Cursor c(payload, error);
    AbortMsg a;
    uint32_t code = 0;
    if (!c.u32(&code, "the exit code") || !c.string(&a.message, "the message") || !c.done()) {
        return std::nullopt;
    }
    a.exit_code = static_cast<int32_t>(code);
    return a;
}

std::optional<std::vector<Entry>> decode_fence_done(std::span<const std::byte> payload, std::string *error)
{
    Cursor c(payload, error);
    uint32_t count = 0;
    if (!c.u32(&count, "the entry count")) {
        return std::nullopt;
    }
    /* An entry takes at least 12 bytes, so a count the payload cannot hold is refused before
     * reserving room for it. */
    if (count > c.remaining() / 12) {
        if (error != nullptr) {
            *error = "FENCE_DONE claims " + std::to_string(count) + " entries in " +
                     std::to_string(c.remaining()) + " bytes";
        }
        return std::nullopt;
    }
    std::vector<Entry> entries;
    entries.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        Entry e;
        if (!c.u32(&e.rank, "an entry's rank") || !c.string(&e.key, "an entry's key") ||
            !c.blob(&e.value, "an entry's value")) {
            return std::nullopt;
        }
        entries.push_back(std::move(e));
    }
    if (!c.done()) {
        return std::nullopt;
    }
    return entries;
}

std::span<std::byte> FrameReader::prepare(size_t want)
{
    consume_pending();
    if (buf_.size() - end_ < want && begin_ > 0) {
        std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (buf_.size() - end_ < want) {
        buf_.resize(end_ + want);
    }
    return std::span<std::byte>(buf_.data() + end_, buf_.size() - end_);
}

void FrameReader::commit(size_t n) { end_ += n; }

void FrameReader::feed(std::span<const std::byte> bytes)
{
    auto room = prepare(bytes.size());
    std::memcpy(room.data(), bytes.data(), bytes.size());
    commit(bytes.size());
}

void FrameReader::consume_pending()
{
    begin_ += pending_consume_;
    pending_consume_ = 0;
    if (begin_ == end_) {
        begin_ = end_ = 0;
        if (buf_.size() > kKeepBufferBytes) {
            Bytes().swap(buf_);
        }
    }
}

FrameReader::Status FrameReader::next(Frame *frame, std::string *error)
{
    consume_pending();
    if (failed_) {
        *error = failure_;
        return Status::Error;
    }
    size_t avail = end_ - begin_;
    if (avail < kFrameHeaderBytes) {
        return Status::NeedMore;
    }
    const std::byte *h = buf_.data() + begin_;
    uint32_t length = get_u32(h);
    uint8_t type = std::to_integer<uint8_t>(h[4]);
    if (!is_known_type(type)) {
        failed_ = true;
        failure_ = "unknown message " + type_name(type);
    } else if (length > max_payload_) {
        failed_ = true;
        failure_ = type_name(type) + " frame of " + std::to_string(length) + " bytes exceeds the limit of " +
                   std::to_string(max_payload_) + " bytes";
    }
    if (failed_) {
        *error = failure_;
        return Status::Error;
    }
    if (avail - kFrameHeaderBytes < length) {
        return Status::NeedMore;
    }
    frame->type = type;
    frame->payload = std::span<const std::byte>(h + kFrameHeaderBytes, length);
    pending_consume_ = kFrameHeaderBytes + length;
    return Status::Frame;
}

size_t FrameReader::expected_frame_bytes() const
{
    size_t start = begin_ + pending_consume_;
    if (end_ - start < kFrameHeaderBytes) {
        return 0;
    }
    return kFrameHeaderBytes + get_u32(buf_.data() + start);
}

UniqueFd &UniqueFd::operator=(UniqueFd &&o) noexcept
{
    if (this != &o) {
        reset(o.release());
    }
    return *this;
}

void UniqueFd::reset(int fd)
{
    if (fd_ >= 0) {
        ::close(fd_);
    }
    fd_ = fd;
}

} // namespace tessera::orte::kv
