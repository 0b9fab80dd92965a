// The wire format: every message survives encode -> bytes (delivered in any chunking) -> decode, and
// malformed input is refused with a reason, never trusted.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kv_test_support.h"
#include "orte/kv/kv_protocol.h"

namespace {

namespace kv = tessera::orte::kv;
using kv::Bytes;
using kv::FrameReader;
using kv::MsgType;
using kvtest::bytes_of;

struct Decoded {
    uint8_t type;
    Bytes payload;
};

// Feeds `wire` to a reader `chunk` bytes at a time and collects the frames.
std::vector<Decoded> read_all(const Bytes &wire, size_t chunk, size_t limit = kv::kMaxPayloadBytes)
{
    FrameReader reader(limit);
    std::vector<Decoded> out;
    for (size_t off = 0; off < wire.size(); off += chunk) {
        size_t n = std::min(chunk, wire.size() - off);
        reader.feed(std::span<const std::byte>(wire.data() + off, n));
        kv::Frame f;
        std::string error;
        for (;;) {
            auto st = reader.next(&f, &error);
            if (st == FrameReader::Status::NeedMore) {
                break;
            }
            EXPECT_EQ(st, FrameReader::Status::Frame) << error;
            if (st != FrameReader::Status::Frame) {
                return out;
            }
            out.push_back({f.type, Bytes(f.payload.begin(), f.payload.end())});
        }
    }
    EXPECT_FALSE(reader.mid_frame());
    return out;
}

Bytes header(uint32_t length, uint8_t type)
{
    Bytes b;
    for (int i = 0; i < 4; ++i) {
        b.push_back(static_cast<std::byte>((length >> (8 * i)) & 0xff));
    }
    b.push_back(static_cast<std::byte>(type));
    return b;
}

TEST(KvProtocol, HeaderIsLittleEndianLengthThenType)
{
    Bytes b;
    ASSERT_TRUE(kv::encode_put(b, "k", bytes_of("vv")));
    // payload: u32 1, 'k', u32 2, 'v', 'v' = 11 bytes
    ASSERT_EQ(b.size(), 5u + 11u);
    EXPECT_EQ(std::to_integer<int>(b[0]), 11);
    EXPECT_EQ(std::to_integer<int>(b[1]), 0);
    EXPECT_EQ(std::to_integer<int>(b[4]), static_cast<int>(MsgType::Put));
}

TEST(KvProtocol, EveryMessageRoundTripsInAnyChunking)
{
    std::string binary("card\0with\0zeros\xff\x80", 18);
    Bytes wire;
    ASSERT_TRUE(kv::encode_hello(wire, 3, "secret-key"));
    ASSERT_TRUE(kv::encode_put(wire, "btl.tcp", bytes_of(binary)));
    ASSERT_TRUE(kv::encode_put(wire, "", {}));
    kv::encode_empty(wire, MsgType::Fence);
    ASSERT_TRUE(kv::encode_abort(wire, -42, "it broke\nbadly"));
    kv::encode_empty(wire, MsgType::Finalize);
    kv::encode_empty(wire, MsgType::Ack);
    kv::FenceDoneBuilder fd;
    ASSERT_TRUE(fd.add(0, "a", bytes_of(binary)));
    ASSERT_TRUE(fd.add(7, std::string("k\0y", 3), {}));
    EXPECT_EQ(fd.count(), 2u);
    Bytes done = fd.finish();
    EXPECT_EQ(fd.count(), 0u);
    wire.insert(wire.end(), done.begin(), done.end());

    for (size_t chunk : {size_t{1}, size_t{2}, size_t{5}, size_t{7}, wire.size()}) {
        SCOPED_TRACE("chunk " + std::to_string(chunk));
        auto frames = read_all(wire, chunk);
        ASSERT_EQ(frames.size(), 8u);
        std::string err;

        ASSERT_EQ(frames[0].type, static_cast<uint8_t>(MsgType::Hello));
        auto hello = kv::decode_hello(frames[0].payload, &err);
        ASSERT_TRUE(hello) << err;
        EXPECT_EQ(hello->version, kv::kProtocolVersion);
        EXPECT_EQ(hello->rank, 3u);
        EXPECT_EQ(hello->key, "secret-key");

        auto put = kv::decode_put(frames[1].payload, &err);
        ASSERT_TRUE(put) << err;
        EXPECT_EQ(put->key, "btl.tcp");
        EXPECT_EQ(put->value, bytes_of(binary));
        auto empty_put = kv::decode_put(frames[2].payload, &err);
        ASSERT_TRUE(empty_put) << err;
        EXPECT_TRUE(empty_put->key.empty());
        EXPECT_TRUE(empty_put->value.empty());

        EXPECT_EQ(frames[3].type, static_cast<uint8_t>(MsgType::Fence));
        EXPECT_TRUE(frames[3].payload.empty());

        auto ab = kv::decode_abort(frames[4].payload, &err);
        ASSERT_TRUE(ab) << err;
        EXPECT_EQ(ab->exit_code, -42);
        EXPECT_EQ(ab->message, "it broke\nbadly");

        EXPECT_EQ(frames[5].type, static_cast<uint8_t>(MsgType::Finalize));
        EXPECT_EQ(frames[6].type, static_cast<uint8_t>(MsgType::Ack));

        ASSERT_EQ(frames[7].type, static_cast<uint8_t>(MsgType::FenceDone));
        auto entries = kv::decode_fence_done(frames[7].payload, &err);
        ASSERT_TRUE(entries) << err;
        ASSERT_EQ(entries->size(), 2u);
        EXPECT_EQ((*entries)[0].rank, 0u);
        EXPECT_EQ((*entries)[0].key, "a");
        EXPECT_EQ((*entries)[0].value, bytes_of(binary));
        EXPECT_EQ((*entries)[1].rank, 7u);
        EXPECT_EQ((*entries)[1].key, std::string("k\0y", 3));
        EXPECT_TRUE((*entries)[1].value.empty());
    }
}

TEST(KvProtocol, EmptyFenceDoneIsValid)
{
    kv::FenceDoneBuilder fd;
    Bytes done = fd.finish();
    auto frames = read_all(done, 3);
    ASSERT_EQ(frames.size(), 1u);
    auto entries = kv::decode_fence_done(frames[0].payload, nullptr);
    ASSERT_TRUE(entries);
    EXPECT_TRUE(entries->empty());
}

TEST(KvProtocol, ReaderRefusesUnknownTypesAtTheHeader)
{
    for (uint8_t type : {uint8_t{0}, uint8_t{8}, uint8_t{0x2f}, uint8_t{0xff}}) {
        FrameReader reader(1024);
        reader.feed(header(0, type));
        kv::Frame f;
        std::string error;
        EXPECT_EQ(reader.next(&f, &error), FrameReader::Status::Error);
        EXPECT_NE(error.find("unknown message"), std::string::npos) << error;
        // It stays refused: the stream cannot be resynchronised.
        std::string again;
        EXPECT_EQ(reader.next(&f, &again), FrameReader::Status::Error);
        EXPECT_EQ(again, error);
    }
}

TEST(KvProtocol, ReaderRefusesOversizedLengthBeforeBufferingIt)
{
    FrameReader reader(1024);
    reader.feed(header(0xffffffffu, static_cast<uint8_t>(MsgType::Put)));
    kv::Frame f;
    std::string error;
    EXPECT_EQ(reader.next(&f, &error), FrameReader::Status::Error);
    EXPECT_NE(error.find("4294967295"), std::string::npos) << error;
    EXPECT_NE(error.find("limit of 1024"), std::string::npos) << error;

    // One byte over the limit is refused, the limit itself is fine.
    FrameReader r2(16);
    r2.feed(header(17, static_cast<uint8_t>(MsgType::Put)));
    EXPECT_EQ(r2.next(&f, &error), FrameReader::Status::Error);
    FrameReader r3(16);
    r3.feed(header(16, static_cast<uint8_t>(MsgType::Put)));
    EXPECT_EQ(r3.next(&f, &error), FrameReader::Status::NeedMore);
    EXPECT_TRUE(r3.mid_frame());
    EXPECT_EQ(r3.expected_frame_bytes(), 21u);
}

TEST(KvProtocol, ReaderReportsTruncation)
{
    FrameReader reader(1024);
    EXPECT_FALSE(reader.mid_frame());
    Bytes wire;
    kv::encode_empty(wire, MsgType::Fence);
    Bytes part = header(10, static_cast<uint8_t>(MsgType::Put));
    part.resize(part.size() + 4);
    wire.insert(wire.end(), part.begin(), part.end());
    reader.feed(wire);
    kv::Frame f;
    std::string error;
    ASSERT_EQ(reader.next(&f, &error), FrameReader::Status::Frame);
    EXPECT_EQ(reader.next(&f, &error), FrameReader::Status::NeedMore);
    EXPECT_TRUE(reader.mid_frame());
    EXPECT_EQ(reader.buffered(), 9u);
    EXPECT_EQ(reader.expected_frame_bytes(), 15u);

    // A cut inside the header itself.
    FrameReader r2(1024);
    r2.feed(bytes_of("\x01\x00"));
    EXPECT_EQ(r2.next(&f, &error), FrameReader::Status::NeedMore);
    EXPECT_TRUE(r2.mid_frame());
    EXPECT_EQ(r2.expected_frame_bytes(), 0u);
}

TEST(KvProtocol, LimitChangesFromTheNextFrame)
{
    // The handshake raises the limit: frames already buffered behind the HELLO get the new one.
    Bytes wire;
    ASSERT_TRUE(kv::encode_hello(wire, 0, "k"));
    ASSERT_TRUE(kv::encode_put(wire, "big", Bytes(2000)));
    FrameReader reader(kv::kMaxHelloPayloadBytes);
    reader.feed(wire);
    kv::Frame f;
    std::string error;
    ASSERT_EQ(reader.next(&f, &error), FrameReader::Status::Frame);
    reader.set_max_payload(1u << 20);
    ASSERT_EQ(reader.next(&f, &error), FrameReader::Status::Frame) << error;
    EXPECT_EQ(f.payload.size(), 4u + 3u + 4u + 2000u);
}

TEST(KvProtocol, DecodersRefuseMalformedPayloads)
{
    std::string err;
    // Too short for the fixed fields.
    EXPECT_FALSE(kv::decode_hello(bytes_of(std::string("\x01\0\0\0", 4)), &err));
    EXPECT_NE(err.find("rank"), std::string::npos) << err;
    // A key length far beyond the payload.
    Bytes hello = bytes_of(std::string("\x01\0\0\0\x02\0\0\0\xff\xff\xff\x7f" "abc", 15));
    EXPECT_FALSE(kv::decode_hello(hello, &err));
    EXPECT_NE(err.find("claims 2147483647 bytes"), std::string::npos) << err;
    // Bytes left over after a well-formed message.
    Bytes frame;
    ASSERT_TRUE(kv::encode_put(frame, "k", bytes_of("v")));
    Bytes payload(frame.begin() + 5, frame.end());
    payload.push_back(std::byte{0});
    EXPECT_FALSE(kv::decode_put(payload, &err));
    EXPECT_NE(err.find("unexpected bytes"), std::string::npos) << err;
    // A value length one past the end.
    Bytes put = bytes_of(std::string("\x01\0\0\0k\x02\0\0\0v", 10));
    EXPECT_FALSE(kv::decode_put(put, &err));
    EXPECT_FALSE(kv::decode_abort(bytes_of("\x01\x02"), &err));
    EXPECT_FALSE(kv::decode_put({}, &err));
    // FENCE_DONE whose count the payload cannot hold: refused before reserving room for it.
    EXPECT_FALSE(kv::decode_fence_done(bytes_of(std::string("\xff\xff\xff\xff", 4)), &err));
    EXPECT_NE(err.find("4294967295 entries"), std::string::npos) << err;
    // A count of 2 with one entry.
    kv::FenceDoneBuilder fd;
    ASSERT_TRUE(fd.add(1, "a", bytes_of("b")));
    Bytes done = fd.finish();
    Bytes body(done.begin() + 5, done.end());
    body.insert(body.end(), 12, std::byte{0}); // room for a count of 2 to pass the first check
    body[0] = std::byte{2};
    Bytes truncated(body.begin(), body.end() - 1);
    EXPECT_FALSE(kv::decode_fence_done(truncated, &err));
}

TEST(KvProtocol, FenceDoneBuilderKeepsToItsLimit)
{
    kv::FenceDoneBuilder fd;
    // 4 (count) + 12 + 1 + 3 = 20 bytes.
    EXPECT_TRUE(fd.add(0, "k", bytes_of("vvv"), 20));
    EXPECT_FALSE(fd.add(1, "", {}, 31)); // would need 32
    EXPECT_TRUE(fd.add(1, "", {}, 32));
    EXPECT_EQ(fd.count(), 2u);
    EXPECT_EQ(fd.payload_bytes(), 32u);
}

TEST(KvProtocol, HelloKeyMustFitTheHandshakeLimit)
{
    Bytes b;
    EXPECT_FALSE(kv::encode_hello(b, 0, std::string(kv::kMaxHelloPayloadBytes, 'k')));
    EXPECT_TRUE(b.empty());
    EXPECT_TRUE(kv::encode_hello(b, 0, std::string(kv::kMaxHelloPayloadBytes - 12, 'k')));
    EXPECT_EQ(b.size(), 5u + kv::kMaxHelloPayloadBytes);
}

TEST(KvProtocol, TypeNames)
{
    EXPECT_EQ(kv::type_name(1), "HELLO");
    EXPECT_EQ(kv::type_name(4), "FENCE_DONE");
    EXPECT_EQ(kv::type_name(0xab), "type 0xab");
}

} // namespace
