// Hostile clients on the wire-up port while a real job is in progress: garbage, a
// wrong key, a 4 GiB length, a truncated frame, silence, an impostor for a connected rank. Each is
// dropped with a reason through on_rejected, and the job's fence still completes.
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "kv_test_support.h"
#include "mca/constants.h"
#include "orte/kv/job_key.h"
#include "orte/kv/kv_client.h"
#include "orte/kv/kv_protocol.h"
#include "orte/kv/kv_server.h"

namespace {

namespace kv = tessera::orte::kv;
using kv::Bytes;
using kv::MsgType;
using kvtest::bytes_of;
using kvtest::RawConn;
using kvtest::ServerThread;
using tessera::orte::KvClient;
using tessera::orte::KvServer;
using tessera::orte::KvServerOptions;

Bytes header(uint32_t length, MsgType type)
{
    Bytes b;
    for (int i = 0; i < 4; ++i) {
        b.push_back(static_cast<std::byte>((length >> (8 * i)) & 0xff));
    }
    b.push_back(static_cast<std::byte>(type));
    return b;
}

Bytes hello(uint32_t rank, const std::string &key)
{
    Bytes b;
    EXPECT_TRUE(kv::encode_hello(b, rank, key));
    return b;
}

// The reason the server gave for `peer`, or "" if it gave none.
std::string reason_for(ServerThread &st, const std::string &peer)
{
    for (const auto &r : st.rejected()) {
        if (r.peer == peer) {
            return r.reason;
        }
    }
    return "";
}

TEST(KvHostile, JobCompletesWhileStrangersAreRejected)
{
    const std::string key = tessera::orte::generate_job_key();
    KvServerOptions o;
    o.nranks = 4;
    o.job_key = key;
    o.handshake_timeout = 0.5;
    ServerThread st(o);
    ASSERT_TRUE(st.ok());

    // The real job: ranks 0-2 put and wait in the fence; rank 3 holds back until the attack is over.
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    kvtest::RankThreads ranks(st.uri(), key, 4, [released](int r, KvClient &client) -> std::string {
        std::string card = "card of " + std::to_string(r) + std::string(3, '\0');
        client.put("card", bytes_of(card));
        if (r == 3) {
            released.wait();
        }
        if (client.fence() != TESSERA_SUCCESS) {
            return "fence";
        }
        for (int p = 0; p < 4; ++p) {
            if (client.get(p, "card") != bytes_of("card of " + std::to_string(p) + std::string(3, '\0'))) {
                return "card of " + std::to_string(p);
            }
        }
        return "";
    });
    ASSERT_TRUE(st.wait_until([&] { return st.server_locked().connected_ranks() == 4; }));

    std::map<std::string, std::string> expected; // peer -> fragment of the reason
    std::string received;

    RawConn garbage(st.uri()); // (1)
    garbage.send(std::string("GET / HTTP/1.1\r\nHost: mpirun\r\n\r\n"));
    EXPECT_TRUE(garbage.wait_closed_by_peer(5, &received));
    expected[garbage.local()] = "unknown message type 0x2f";

    RawConn wrong_key(st.uri()); // (2)
    wrong_key.send(hello(0, tessera::orte::generate_job_key()));
    EXPECT_TRUE(wrong_key.wait_closed_by_peer(5, &received));
    expected[wrong_key.local()] = "wrong job key";

    RawConn huge(st.uri()); // (3)
    huge.send(header(0xffffffffu, MsgType::Hello));
    EXPECT_TRUE(huge.wait_closed_by_peer(5, &received));
    expected[huge.local()] = "frame of 4294967295 bytes exceeds the limit";

    RawConn truncated(st.uri()); // (4)
    Bytes part = hello(2, key);
    part.resize(part.size() - 7);
    truncated.send(part);
    truncated.close();
    expected[truncated.local()] = "truncated frame";

    RawConn silent(st.uri()); // (5)
    EXPECT_TRUE(silent.wait_closed_by_peer(5, &received));
    expected[silent.local()] = "no HELLO within the handshake timeout of 0.5 s";

    RawConn impostor(st.uri()); // (6), who even knows the key
    impostor.send(hello(1, key));
    EXPECT_TRUE(impostor.wait_closed_by_peer(5, &received));
    expected[impostor.local()] = "rank 1 is already connected";

    RawConn out_of_range(st.uri()); // and a rank the job does not have
    out_of_range.send(hello(4, key));
    EXPECT_TRUE(out_of_range.wait_closed_by_peer(5, &received));
    expected[out_of_range.local()] = "rank 4 is out of range";

    RawConn no_hello(st.uri()); // a well-formed frame, but not a HELLO
    Bytes put;
    ASSERT_TRUE(kv::encode_put(put, "card", bytes_of("forged")));
    no_hello.send(put);
    EXPECT_TRUE(no_hello.wait_closed_by_peer(5, &received));
    expected[no_hello.local()] = "expected HELLO as the first message, got PUT";

    RawConn cut_header(st.uri()); // end-of-file inside the 5-byte header
    cut_header.send(std::string("\x01\x00", 2));
    cut_header.shutdown_write();
    EXPECT_TRUE(cut_header.wait_closed_by_peer(5, &received));
    expected[cut_header.local()] = "a 5-byte frame header";

    // None of them was told anything (not even an ACK): the server only closed.
    EXPECT_EQ(received, "");
    ASSERT_TRUE(st.wait_until([&] { return st.rejected_count_locked() >= expected.size(); }));
    for (const auto &[peer, fragment] : expected) {
        std::string reason = reason_for(st, peer);
        EXPECT_NE(reason.find(fragment), std::string::npos) << peer << ": '" << reason << "', expected '" << fragment
                                                           << "'";
    }
    EXPECT_EQ(st.rejected().size(), expected.size());
    st.with_server([](KvServer &s) { EXPECT_EQ(s.connected_ranks(), 4); });

    release.set_value();
    std::vector<std::string> failures = ranks.join();
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(failures[r], "") << "rank " << r;
    }
}

TEST(KvHostile, AFloodOfIdleConnectionsDoesNotLockRanksOut)
{
    // More idle connections than the service keeps waiting; with a long handshake timeout only the
    // eviction of the oldest lets the real ranks in.
    const std::string key = tessera::orte::generate_job_key();
    KvServerOptions o;
    o.nranks = 2;
    o.job_key = key;
    o.handshake_timeout = 60;
    ServerThread st(o);
    ASSERT_TRUE(st.ok());
    std::vector<std::unique_ptr<RawConn>> flood;
    for (int i = 0; i < 200; ++i) {
        flood.push_back(std::make_unique<RawConn>(st.uri()));
    }
    ASSERT_TRUE(st.wait_until([&] { return st.rejected_count_locked() >= 200 - 128; }));
    std::vector<int> ok(2, 0);
    std::vector<std::thread> ranks;
    for (int r = 0; r < 2; ++r) {
        ranks.emplace_back([&, r] {
            std::string error;
            auto client = KvClient::connect(st.uri(), key, r, &error, 10.0);
            ASSERT_TRUE(client) << error;
            ASSERT_EQ(client->put("k", bytes_of(std::to_string(r))), TESSERA_SUCCESS);
            ASSERT_EQ(client->fence(), TESSERA_SUCCESS);
            ASSERT_EQ(client->get(1 - r, "k"), bytes_of(std::to_string(1 - r)));
            ok[r] = 1;
        });
    }
    for (auto &t : ranks) {
        t.join();
    }
    EXPECT_EQ(ok, std::vector<int>({1, 1}));
    auto rejections = st.rejected();
    ASSERT_FALSE(rejections.empty());
    EXPECT_NE(rejections[0].reason.find("too many connections waiting"), std::string::npos) << rejections[0].reason;
}

TEST(KvHostile, AConnectedRankBreakingTheProtocolIsDropped)
{
    const std::string key = tessera::orte::generate_job_key();
    KvServerOptions o;
    o.nranks = 3;
    o.job_key = key;
    o.max_frame_bytes = 8192;
    ServerThread st(o);
    ASSERT_TRUE(st.ok());

    // An oversized PUT: the client learns it at the fence.
    std::string error;
    auto c0 = KvClient::connect(st.uri(), key, 0, &error);
    ASSERT_TRUE(c0) << error;
    ASSERT_EQ(c0->put("big", Bytes(9000)), TESSERA_SUCCESS);
    EXPECT_EQ(c0->fence(), TESSERA_ERR_IO);

    // A second HELLO, and a FENCE_DONE sent the wrong way.
    RawConn r1(st.uri());
    r1.send(hello(1, key));
    std::string ack;
    ASSERT_TRUE(r1.read_exact(5, &ack));
    EXPECT_EQ(ack, std::string("\0\0\0\0\x07", 5));
    r1.send(hello(1, key));
    EXPECT_TRUE(r1.wait_closed_by_peer(5));

    RawConn r2(st.uri());
    r2.send(hello(2, key));
    kv::FenceDoneBuilder fd;
    Bytes done = fd.finish();
    r2.send(done);
    EXPECT_TRUE(r2.wait_closed_by_peer(5));

    ASSERT_TRUE(st.wait_until([&] { return st.rejected_count_locked() == 3; }));
    auto rej = st.rejected();
    EXPECT_NE(rej[0].reason.find("PUT frame of 9011 bytes exceeds the limit of 8192"), std::string::npos)
        << rej[0].reason;
    EXPECT_NE(rej[0].peer.find("(rank 0)"), std::string::npos) << rej[0].peer;
    EXPECT_EQ(rej[1].reason, "unexpected HELLO from a connected rank");
    EXPECT_EQ(rej[1].peer, r1.local() + " (rank 1)");
    EXPECT_EQ(rej[2].reason, "unexpected FENCE_DONE from a connected rank");
    st.with_server([](KvServer &s) { EXPECT_EQ(s.connected_ranks(), 0); });
}

TEST(KvHostile, PipelinedHandshakeIsServed)
{
    // HELLO, PUT and FENCE in one write: the frames behind the HELLO get the full limit.
    const std::string key = tessera::orte::generate_job_key();
    KvServerOptions o;
    o.nranks = 1;
    o.job_key = key;
    ServerThread st(o);
    ASSERT_TRUE(st.ok());
    RawConn c(st.uri());
    Bytes wire = hello(0, key);
    ASSERT_TRUE(kv::encode_put(wire, "k", Bytes(5000, std::byte{9})));
    kv::encode_empty(wire, MsgType::Fence);
    c.send(wire);
    std::string in;
    ASSERT_TRUE(c.read_exact(5, &in)); // ACK
    EXPECT_EQ(in, std::string("\0\0\0\0\x07", 5));
    in.clear();
    ASSERT_TRUE(c.read_exact(5, &in));
    EXPECT_EQ(static_cast<uint8_t>(in[4]), static_cast<uint8_t>(MsgType::FenceDone));
    uint32_t len = static_cast<uint8_t>(in[0]) | static_cast<uint8_t>(in[1]) << 8 | static_cast<uint8_t>(in[2]) << 16;
    std::string payload;
    ASSERT_TRUE(c.read_exact(len, &payload));
    auto entries = kv::decode_fence_done(bytes_of(payload), nullptr);
    ASSERT_TRUE(entries);
    ASSERT_EQ(entries->size(), 1u);
    EXPECT_EQ((*entries)[0].value, Bytes(5000, std::byte{9}));
    EXPECT_TRUE(st.rejected().empty());
}

} // namespace
