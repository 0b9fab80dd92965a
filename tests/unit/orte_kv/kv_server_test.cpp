// The wire-up service with real clients: four ranks on threads put binary business cards, fence twice
// and read everyone's; aborts and finalizes reach mpirun with their values; a rank that leaves early
// disturbs nothing; the service's fd is what mpirun can poll.
#include <gtest/gtest.h>

#include <poll.h>

#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "kv_test_support.h"
#include "mca/constants.h"
#include "orte/kv/job_key.h"
#include "orte/kv/kv_client.h"
#include "orte/kv/kv_server.h"

namespace {

using tessera::orte::KvClient;
using tessera::orte::KvServer;
using tessera::orte::KvServerOptions;
using kvtest::bytes_of;
using kvtest::ServerThread;

KvServerOptions options_for(int nranks, const std::string &key)
{
    KvServerOptions o;
    o.nranks = nranks;
    o.job_key = key;
    return o;
}

// A business card unlike every other: contains zero bytes, differs in size per rank and epoch.
std::string card(int rank, int epoch)
{
    std::string s = "rank" + std::to_string(rank) + std::string(1, '\0') + "epoch" + std::to_string(epoch);
    s.append(static_cast<size_t>(rank * 37 + epoch), static_cast<char>(rank));
    s.push_back('\xff');
    s.push_back('\0');
    return s;
}

TEST(KvServer, FourRanksFenceTwiceAndSeeEveryCard)
{
    const std::string key = tessera::orte::generate_job_key();
    ServerThread st(options_for(4, key));
    ASSERT_TRUE(st.ok());
    kvtest::RankThreads ranks(st.uri(), key, 4, [](int r, KvClient &client) -> std::string {
        // Before any fence nothing is visible, not even this rank's own puts.
        if (client.put("card", bytes_of(card(r, 1))) != TESSERA_SUCCESS ||
            client.put("empty", {}) != TESSERA_SUCCESS || client.get(r, "card")) {
            return "put before the first fence";
        }
        if (client.fence() != TESSERA_SUCCESS) {
            return "first fence";
        }
        for (int p = 0; p < 4; ++p) {
            auto v = client.get(p, "card");
            auto e = client.get(p, "empty");
            if (!v || *v != bytes_of(card(p, 1)) || !e || !e->empty()) {
                return "wrong card of rank " + std::to_string(p) + " after the first fence";
            }
        }
        // Second epoch: a new key, and "card" overwritten by the even ranks only.
        client.put("second", bytes_of(card(r, 2)));
        if (r % 2 == 0) {
            client.put("card", bytes_of(card(r, 3)));
        }
        if (client.fence() != TESSERA_SUCCESS) {
            return "second fence";
        }
        for (int p = 0; p < 4; ++p) {
            auto c = client.get(p, "card");
            auto s = client.get(p, "second");
            if (!c || *c != bytes_of(card(p, p % 2 == 0 ? 3 : 1)) || !s || *s != bytes_of(card(p, 2))) {
                return "wrong card of rank " + std::to_string(p) + " after the second fence";
            }
        }
        if (client.get(0, "missing") || client.get(4, "card") || client.get(-1, "card")) {
            return "a key nobody put was found";
        }
        // A fence with no puts at all still completes.
        if (client.fence() != TESSERA_SUCCESS || !client.get(3, "second")) {
            return "third (empty) fence";
        }
        if (client.finalize() != TESSERA_SUCCESS) {
            return "finalize";
        }
        return "";
    });
    std::vector<std::string> failures = ranks.join();
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(failures[r], "") << "rank " << r;
    }
    EXPECT_TRUE(st.wait_until([&] { return st.finalized_count_locked() == 4; }));
    st.with_server([](KvServer &s) {
        for (int r = 0; r < 4; ++r) {
            EXPECT_TRUE(s.rank_finalized(r));
        }
        EXPECT_FALSE(s.rank_finalized(4));
        EXPECT_FALSE(s.rank_finalized(-1));
    });
    EXPECT_TRUE(st.rejected().empty());
}

TEST(KvServer, LargeCardsCrossTheWire)
{
    // 3 MiB per rank: many reads and partial writes on both sides.
    const std::string key = tessera::orte::generate_job_key();
    ServerThread st(options_for(2, key));
    ASSERT_TRUE(st.ok());
    std::vector<int> ok(2, 0);
    std::vector<std::thread> ranks;
    for (int r = 0; r < 2; ++r) {
        ranks.emplace_back([&, r] {
            std::string error;
            auto client = KvClient::connect(st.uri(), key, r, &error);
            ASSERT_TRUE(client) << error;
            std::vector<std::byte> big(3u << 20);
            for (size_t i = 0; i < big.size(); ++i) {
                big[i] = static_cast<std::byte>((i * 131 + static_cast<size_t>(r)) & 0xff);
            }
            ASSERT_EQ(client->put("big", big), TESSERA_SUCCESS);
            ASSERT_EQ(client->fence(), TESSERA_SUCCESS);
            auto other = client->get(1 - r, "big");
            ASSERT_TRUE(other);
            ASSERT_EQ(other->size(), big.size());
            for (size_t i = 0; i < other->size(); i += 4099) {
                ASSERT_EQ((*other)[i], static_cast<std::byte>((i * 131 + static_cast<size_t>(1 - r)) & 0xff));
            }
            ok[r] = 1;
        });
    }
    for (auto &t : ranks) {
        t.join();
    }
    EXPECT_EQ(ok, std::vector<int>({1, 1}));
}

TEST(KvServer, AbortAndFinalizeArriveWithTheirValues)
{
    const std::string key = tessera::orte::generate_job_key();
    ServerThread st(options_for(3, key));
    ASSERT_TRUE(st.ok());
    std::string error;
    auto c0 = KvClient::connect(st.uri(), key, 0, &error);
    ASSERT_TRUE(c0) << error;
    auto c2 = KvClient::connect(st.uri(), key, 2, &error);
    ASSERT_TRUE(c2) << error;

    std::string message("MPI_Abort called\nwith a zero \0 byte", 35);
    // Returns only once mpirun has it: the event is already recorded.
    ASSERT_EQ(c2->abort(17, message), TESSERA_SUCCESS);
    auto aborts = st.aborts();
    ASSERT_EQ(aborts.size(), 1u);
    EXPECT_EQ(aborts[0].rank, 2);
    EXPECT_EQ(aborts[0].code, 17);
    EXPECT_EQ(aborts[0].message, message);

    ASSERT_EQ(c0->abort(-3, ""), TESSERA_SUCCESS);
    aborts = st.aborts();
    ASSERT_EQ(aborts.size(), 2u);
    EXPECT_EQ(aborts[1].rank, 0);
    EXPECT_EQ(aborts[1].code, -3);
    EXPECT_EQ(aborts[1].message, "");

    // A huge abort message is cut, not refused.
    ASSERT_EQ(c0->abort(1, std::string(1u << 20, 'x')), TESSERA_SUCCESS);
    aborts = st.aborts();
    ASSERT_EQ(aborts.size(), 3u);
    EXPECT_EQ(aborts[2].message.size(), 4096u);

    ASSERT_EQ(c0->finalize(), TESSERA_SUCCESS);
    EXPECT_EQ(st.finalized(), std::vector<int>({0}));
    st.with_server([](KvServer &s) {
        EXPECT_TRUE(s.rank_finalized(0));
        EXPECT_FALSE(s.rank_finalized(1));
        EXPECT_FALSE(s.rank_finalized(2));
        EXPECT_EQ(s.connected_ranks(), 2);
    });
    // Finalizing twice is answered, but reported once.
    ASSERT_EQ(c0->finalize(), TESSERA_SUCCESS);
    EXPECT_EQ(st.finalized(), std::vector<int>({0}));
    EXPECT_TRUE(st.rejected().empty());
}

TEST(KvServer, ARankThatLeavesEarlyDisturbsNothing)
{
    const std::string key = tessera::orte::generate_job_key();
    ServerThread st(options_for(2, key));
    ASSERT_TRUE(st.ok());
    std::string error;
    auto c0 = KvClient::connect(st.uri(), key, 0, &error);
    ASSERT_TRUE(c0) << error;
    ASSERT_EQ(c0->put("card", bytes_of("zero")), TESSERA_SUCCESS);
    {
        auto c1 = KvClient::connect(st.uri(), key, 1, &error);
        ASSERT_TRUE(c1) << error;
        EXPECT_TRUE(st.wait_until([&] { return st.server_locked().connected_ranks() == 2; }));
    } // rank 1 goes away without finalizing
    EXPECT_TRUE(st.wait_until([&] { return st.server_locked().connected_ranks() == 1; }));
    st.with_server([](KvServer &s) { EXPECT_FALSE(s.rank_finalized(1)); });
    // Nobody else may take its place.
    EXPECT_FALSE(KvClient::connect(st.uri(), key, 1, &error, 5.0));
    EXPECT_TRUE(st.wait_until([&] { return st.rejected_count_locked() == 1; }));
    auto rejected = st.rejected();
    ASSERT_EQ(rejected.size(), 1u);
    EXPECT_NE(rejected[0].reason.find("rank 1 already connected once"), std::string::npos) << rejected[0].reason;
    // The remaining rank is still served.
    ASSERT_EQ(c0->finalize(), TESSERA_SUCCESS);
    EXPECT_EQ(st.finalized(), std::vector<int>({0}));
}

TEST(KvServer, MpirunCanPollItsFd)
{
    const std::string key = tessera::orte::generate_job_key();
    std::string error;
    tessera::orte::KvServerEvents events;
    int finalized = -1;
    events.on_finalize = [&](int rank) { finalized = rank; };
    auto server = KvServer::start(options_for(1, key), events, &error);
    ASSERT_TRUE(server) << error;
    EXPECT_EQ(server->uri().rfind("127.0.0.1:", 0), 0u) << server->uri();
    // Nothing to do: not readable, and progress(0) returns at once.
    pollfd p{server->fd(), POLLIN, 0};
    EXPECT_EQ(::poll(&p, 1, 0), 0);
    server->progress(0);

    std::thread rank([&] {
        std::string err;
        auto c = KvClient::connect(server->uri(), key, 0, &err);
        ASSERT_TRUE(c) << err;
        ASSERT_EQ(c->put("k", bytes_of("v")), TESSERA_SUCCESS);
        ASSERT_EQ(c->fence(), TESSERA_SUCCESS);
        ASSERT_EQ(c->get(0, "k"), bytes_of("v"));
        ASSERT_EQ(c->finalize(), TESSERA_SUCCESS);
    });
    auto deadline = kvtest::Clock::now() + std::chrono::seconds(10);
    while (finalized != 0 && kvtest::Clock::now() < deadline) {
        p.revents = 0;
        if (::poll(&p, 1, 100) > 0) {
            server->progress(0);
        }
    }
    rank.join();
    EXPECT_EQ(finalized, 0);
}

TEST(KvServer, HandshakeDeadlineMakesTheFdReadable)
{
    // mpirun calls progress() only when fd() is readable: a silent stranger must still expire.
    auto o = options_for(1, "k");
    o.handshake_timeout = 0.3;
    std::vector<std::string> reasons;
    tessera::orte::KvServerEvents events;
    events.on_rejected = [&](const std::string &, const std::string &reason) { reasons.push_back(reason); };
    std::string error;
    auto server = KvServer::start(o, events, &error);
    ASSERT_TRUE(server) << error;
    kvtest::RawConn silent(server->uri());
    auto start = kvtest::Clock::now();
    int wakeups = 0;
    while (reasons.empty() && kvtest::Clock::now() - start < std::chrono::seconds(5)) {
        pollfd p{server->fd(), POLLIN, 0};
        if (::poll(&p, 1, 1000) > 0) {
            ++wakeups;
            server->progress(0);
        }
    }
    double waited = std::chrono::duration<double>(kvtest::Clock::now() - start).count();
    ASSERT_EQ(reasons.size(), 1u);
    EXPECT_NE(reasons[0].find("handshake timeout of 0.3 s"), std::string::npos) << reasons[0];
    EXPECT_GE(waited, 0.25);
    EXPECT_LT(waited, 2.0);
    EXPECT_LE(wakeups, 4); // the accept and the deadline, not a busy loop
    EXPECT_TRUE(silent.wait_closed_by_peer(2));
}

TEST(KvServer, StartRefusesBadOptions)
{
    std::string error;
    auto o = options_for(2, "");
    EXPECT_FALSE(KvServer::start(o, {}, &error));
    EXPECT_NE(error.find("no job key"), std::string::npos) << error;
    o = options_for(0, "k");
    EXPECT_FALSE(KvServer::start(o, {}, &error));
    EXPECT_NE(error.find("nranks"), std::string::npos) << error;
    o = options_for(1, "k");
    o.max_frame_bytes = 10;
    EXPECT_FALSE(KvServer::start(o, {}, &error));
    EXPECT_NE(error.find("max_frame_bytes"), std::string::npos) << error;
    o = options_for(1, "k");
    o.handshake_timeout = 0;
    EXPECT_FALSE(KvServer::start(o, {}, &error));
    EXPECT_NE(error.find("handshake_timeout"), std::string::npos) << error;
    o = options_for(1, "k");
    o.bind_address = "192.0.2.77"; // TEST-NET-1: not an address of this host
    EXPECT_FALSE(KvServer::start(o, {}, &error));
    EXPECT_NE(error.find("192.0.2.77"), std::string::npos) << error;
}

TEST(KvServer, WildcardBindAdvertisesTheHostName)
{
    auto o = options_for(1, "k");
    o.bind_address = "0.0.0.0";
    std::string error;
    auto server = KvServer::start(o, {}, &error);
    ASSERT_TRUE(server) << error;
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    EXPECT_EQ(server->uri().rfind(std::string(host) + ":", 0), 0u) << server->uri();
}

TEST(KvClient, ConnectErrorsSayWhy)
{
    std::string error;
    EXPECT_FALSE(KvClient::connect("no-port", "k", 0, &error));
    EXPECT_NE(error.find("not address:port"), std::string::npos) << error;
    EXPECT_FALSE(KvClient::connect("127.0.0.1:0", "k", 0, &error));
    EXPECT_FALSE(KvClient::connect("127.0.0.1:99999", "k", 0, &error));

    // A port where nothing listens: a server started and destroyed leaves its port free.
    std::string uri;
    {
        auto server = KvServer::start(options_for(1, "k"), {}, &error);
        ASSERT_TRUE(server) << error;
        uri = server->uri();
    }
    EXPECT_FALSE(KvClient::connect(uri, "k", 0, &error, 2.0));
    EXPECT_NE(error.find("cannot connect"), std::string::npos) << error;

    const std::string key = tessera::orte::generate_job_key();
    ServerThread st(options_for(2, key));
    ASSERT_TRUE(st.ok());
    EXPECT_FALSE(KvClient::connect(st.uri(), key + "x", 0, &error));
    EXPECT_NE(error.find("refused rank 0"), std::string::npos) << error;
    EXPECT_FALSE(KvClient::connect(st.uri(), key, 2, &error));
    EXPECT_FALSE(KvClient::connect(st.uri(), key, -1, &error));
    EXPECT_NE(error.find("negative"), std::string::npos) << error;
    EXPECT_TRUE(st.wait_until([&] { return st.rejected_count_locked() == 2; }));
    auto rejected = st.rejected();
    ASSERT_EQ(rejected.size(), 2u);
    EXPECT_EQ(rejected[0].reason, "wrong job key");
    EXPECT_NE(rejected[1].reason.find("out of range"), std::string::npos) << rejected[1].reason;
}

TEST(KvClient, OperationsFailOnceMpirunIsGone)
{
    const std::string key = tessera::orte::generate_job_key();
    std::unique_ptr<KvClient> client;
    {
        ServerThread st(options_for(2, key));
        ASSERT_TRUE(st.ok());
        std::string error;
        client = KvClient::connect(st.uri(), key, 0, &error);
        ASSERT_TRUE(client) << error;
    } // the service ends while rank 1 never came
    EXPECT_EQ(client->fence(), TESSERA_ERR_IO);
    EXPECT_EQ(client->finalize(), TESSERA_ERR_IO);
    EXPECT_EQ(client->put("k", {}), TESSERA_ERR_IO);
}

} // namespace
