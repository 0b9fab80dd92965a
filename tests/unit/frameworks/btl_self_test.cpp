// btl self, selected through the MCA core: the own process is reached only through it, fragments reach
// the callback registered for their tag byte for byte, and large messages are scheduled over a peer's
// modules as btl_base_striping says.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "frameworks/btl/base/base.h"
#include "mca/report.h"
#include "mca/var_store.h"
#include "ompi/proc/proc.h"

namespace {

constexpr mca_btl_base_tag_t kTag = MCA_BTL_TAG_USER + 1;
constexpr mca_btl_base_tag_t kEchoTag = MCA_BTL_TAG_USER + 2;

struct Received {
    int fragments = 0;
    mca_btl_base_tag_t tag = 0;
    tessera_proc_t *proc = nullptr;
    std::vector<unsigned char> bytes;
};

void capture(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *desc, void *cbdata)
{
    auto *r = static_cast<Received *>(cbdata);
    ++r->fragments;
    r->tag = desc->tag;
    r->proc = desc->proc;
    r->bytes.clear();
    for (size_t i = 0; i < desc->segment_count; ++i) {
        const auto *p = static_cast<const unsigned char *>(desc->segments[i].seg_addr);
        r->bytes.insert(r->bytes.end(), p, p + desc->segments[i].seg_len);
    }
}

// Answers every fragment by sending it back on kTag: a callback that sends, as a rendezvous reply will.
void echo(mca_btl_base_module_t *btl, const mca_btl_base_recv_desc_t *desc, void *)
{
    btl->btl_send(btl, desc->endpoint, kTag, desc->segments, desc->segment_count, nullptr, nullptr);
}

class BtlSelf : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        tessera::mca::set_command_line("btl", "self");
        ASSERT_EQ(tessera::mca::framework_register(&mca_btl_base_framework), TESSERA_SUCCESS);
        ASSERT_EQ(tessera::mca::framework_open(&mca_btl_base_framework), TESSERA_SUCCESS);
        ASSERT_EQ(tessera_btl_base_select(false, false), TESSERA_SUCCESS);
    }
    static void TearDownTestSuite() { tessera::mca::framework_close(&mca_btl_base_framework); }

    void SetUp() override
    {
        tessera::mca::report_clear();
        self_ = tessera_proc_create({7, 0}, "localhost", TESSERA_PROC_ON_NODE | TESSERA_PROC_IS_SELF);
        other_ = tessera_proc_create({7, 1}, "otherhost", 0);
        ASSERT_NE(self_, nullptr);
        ASSERT_EQ(mca_btl_base_register_recv(kTag, capture, &received_), TESSERA_SUCCESS);
    }
    void TearDown() override
    {
        tessera_proc_t *procs[] = {self_, other_};
        mca_btl_base_del_procs(procs, 2);
        mca_btl_base_register_recv(kTag, nullptr, nullptr);
        mca_btl_base_register_recv(kEchoTag, nullptr, nullptr);
        tessera_proc_destroy(self_);
        tessera_proc_destroy(other_);
    }

    tessera_proc_t *self_ = nullptr;
    tessera_proc_t *other_ = nullptr;
    Received received_;
};

TEST_F(BtlSelf, SelfIsTheOnlyModuleAndTheMostExclusive)
{
    ASSERT_EQ(mca_btl_base_module_count(), 1u);
    mca_btl_base_module_t *m = mca_btl_base_module_at(0);
    EXPECT_STREQ(m->btl_name, "self");
    EXPECT_EQ(m->btl_exclusivity, MCA_BTL_EXCLUSIVITY_HIGH);
    EXPECT_GE(m->btl_eager_limit, size_t{1} << 40);
    EXPECT_GE(m->btl_max_send_size, m->btl_eager_limit);
    EXPECT_EQ(reinterpret_cast<const mca_base_component_t *>(m->btl_component)->mca_component_name,
              std::string("self"));
    EXPECT_EQ(mca_btl_base_module_at(1), nullptr);
    EXPECT_EQ(tessera_btl_base_select(false, false), TESSERA_ERR_EXISTS);
}

TEST_F(BtlSelf, DeliversHeaderAndPayloadByteForByte)
{
    ASSERT_EQ(mca_btl_base_add_procs(&self_, 1), TESSERA_SUCCESS);
    mca_btl_base_peer_t *peer = mca_btl_base_peer(self_);
    ASSERT_NE(peer, nullptr);
    ASSERT_EQ(peer->count, 1u);
    EXPECT_EQ(peer->exclusivity, MCA_BTL_EXCLUSIVITY_HIGH);
    EXPECT_EQ(peer, TESSERA_PROC_ENDPOINT(self_, BTL)); // the framework's endpoint slot

    unsigned char header[24];
    std::vector<unsigned char> payload(100000);
    for (size_t i = 0; i < sizeof header; ++i) {
        header[i] = static_cast<unsigned char>(0xA0 + i);
    }
    for (size_t i = 0; i < payload.size(); ++i) {
        payload[i] = static_cast<unsigned char>(i * 7 + 3);
    }
    mca_btl_base_segment_t segs[] = {{header, sizeof header}, {payload.data(), payload.size()}};
    mca_btl_base_module_t *btl = peer->modules[0].btl;
    int rc = btl->btl_send(btl, peer->modules[0].endpoint, kTag, segs, 2, nullptr, nullptr);
    EXPECT_EQ(rc, MCA_BTL_SEND_COMPLETE);

    ASSERT_EQ(received_.fragments, 1);
    EXPECT_EQ(received_.tag, kTag);
    EXPECT_EQ(received_.proc, self_);
    std::vector<unsigned char> expected(header, header + sizeof header);
    expected.insert(expected.end(), payload.begin(), payload.end());
    EXPECT_EQ(received_.bytes, expected);
}

TEST_F(BtlSelf, EmptyFragmentIsDelivered)
{
    ASSERT_EQ(mca_btl_base_add_procs(&self_, 1), TESSERA_SUCCESS);
    mca_btl_base_peer_t *peer = mca_btl_base_peer(self_);
    mca_btl_base_module_t *btl = peer->modules[0].btl;
    EXPECT_EQ(btl->btl_send(btl, peer->modules[0].endpoint, kTag, nullptr, 0, nullptr, nullptr),
              MCA_BTL_SEND_COMPLETE);
    EXPECT_EQ(received_.fragments, 1);
    EXPECT_TRUE(received_.bytes.empty());
}

TEST_F(BtlSelf, CallbackMaySendAgain)
{
    ASSERT_EQ(mca_btl_base_register_recv(kEchoTag, echo, nullptr), TESSERA_SUCCESS);
    ASSERT_EQ(mca_btl_base_add_procs(&self_, 1), TESSERA_SUCCESS);
    mca_btl_base_peer_t *peer = mca_btl_base_peer(self_);
    mca_btl_base_module_t *btl = peer->modules[0].btl;
    const char text[] = "ping";
    mca_btl_base_segment_t seg{text, sizeof text};
    EXPECT_EQ(btl->btl_send(btl, peer->modules[0].endpoint, kEchoTag, &seg, 1, nullptr, nullptr),
              MCA_BTL_SEND_COMPLETE);
    ASSERT_EQ(received_.fragments, 1);
    EXPECT_EQ(std::string(received_.bytes.begin(), received_.bytes.end() - 1), "ping");
}

TEST_F(BtlSelf, OtherProcessIsUnreachableAndNamed)
{
    tessera_proc_t *both[] = {self_, other_};
    EXPECT_EQ(mca_btl_base_add_procs(both, 2), TESSERA_ERR_UNREACH);
    EXPECT_NE(mca_btl_base_peer(self_), nullptr); // the reachable one is still added
    EXPECT_EQ(mca_btl_base_peer(other_), nullptr);
    auto errors = tessera::mca::reported(tessera::mca::Severity::Error);
    ASSERT_FALSE(errors.empty());
    EXPECT_NE(errors.back().find("7.1 on otherhost"), std::string::npos) << errors.back();
    EXPECT_NE(errors.back().find("self"), std::string::npos) << errors.back();
}

TEST_F(BtlSelf, DelProcsClearsTheSlotAndAddingAgainWorks)
{
    ASSERT_EQ(mca_btl_base_add_procs(&self_, 1), TESSERA_SUCCESS);
    ASSERT_EQ(mca_btl_base_add_procs(&self_, 1), TESSERA_SUCCESS); // twice: same set
    ASSERT_EQ(mca_btl_base_del_procs(&self_, 1), TESSERA_SUCCESS);
    EXPECT_EQ(mca_btl_base_peer(self_), nullptr);
    ASSERT_EQ(mca_btl_base_add_procs(&self_, 1), TESSERA_SUCCESS);
    EXPECT_NE(mca_btl_base_peer(self_), nullptr);
}

TEST_F(BtlSelf, FragmentForAnUnregisteredTagIsAnError)
{
    ASSERT_EQ(mca_btl_base_add_procs(&self_, 1), TESSERA_SUCCESS);
    mca_btl_base_peer_t *peer = mca_btl_base_peer(self_);
    mca_btl_base_module_t *btl = peer->modules[0].btl;
    const char byte = 1;
    mca_btl_base_segment_t seg{&byte, 1};
    EXPECT_EQ(btl->btl_send(btl, peer->modules[0].endpoint, MCA_BTL_TAG_USER + 9, &seg, 1, nullptr, nullptr),
              TESSERA_ERR_NOT_FOUND);
    auto errors = tessera::mca::reported(tessera::mca::Severity::Error);
    ASSERT_FALSE(errors.empty());
    EXPECT_NE(errors.back().find("tag 137"), std::string::npos) << errors.back();
    EXPECT_EQ(btl->btl_send(btl, nullptr, kTag, &seg, 1, nullptr, nullptr), TESSERA_ERR_BAD_PARAM);
}

TEST_F(BtlSelf, TagsBelongToOneCallback)
{
    Received other;
    EXPECT_EQ(mca_btl_base_register_recv(kTag, capture, &other), TESSERA_ERR_EXISTS);
    EXPECT_EQ(mca_btl_base_register_recv(kTag, capture, &received_), TESSERA_SUCCESS); // the same again
    EXPECT_EQ(mca_btl_base_progress(), 0); // self has nothing pending, ever
}

// A peer reached by three links of 100, 200 and 100 MB/s (modules as a transport would publish them).
struct FakePeer {
    mca_btl_base_module_t links[3]{};
    mca_btl_base_peer_t peer{};
    FakePeer()
    {
        const uint32_t bandwidth[] = {100, 200, 100};
        peer.count = 3;
        for (int i = 0; i < 3; ++i) {
            links[i].btl_bandwidth = bandwidth[i];
            peer.modules[i].btl = &links[i];
        }
    }
};

TEST(BtlStriping, RoundRobinTakesEachModuleInTurn)
{
    ASSERT_EQ(tessera::mca::framework_register(&mca_btl_base_framework), TESSERA_SUCCESS);
    tessera::mca::set_command_line("btl_base_striping", "round_robin");
    FakePeer f;
    mca_btl_base_stripe_t s;
    mca_btl_base_stripe_init(&s, &f.peer);
    std::vector<size_t> order;
    for (int i = 0; i < 7; ++i) {
        order.push_back(mca_btl_base_stripe_next(&s, &f.peer));
    }
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 0, 1, 2, 0}));
}

TEST(BtlStriping, WeightedFollowsBandwidthInterleaved)
{
    ASSERT_EQ(tessera::mca::framework_register(&mca_btl_base_framework), TESSERA_SUCCESS);
    tessera::mca::set_command_line("btl_base_striping", "weighted");
    EXPECT_EQ(tessera::mca::find_var("btl_base_striping")->value, "weighted");
    FakePeer f;
    mca_btl_base_stripe_t s;
    mca_btl_base_stripe_init(&s, &f.peer);
    // Bandwidths 100:200:100 make runs of 4 fragments with shares 1:2:1, each run spread out.
    std::map<size_t, int> counts;
    size_t previous = 99;
    int run = 0;
    for (int i = 1; i <= 400; ++i) {
        size_t next = mca_btl_base_stripe_next(&s, &f.peer);
        ASSERT_LT(next, 3u);
        ++counts[next];
        run = next == previous ? run + 1 : 1;
        EXPECT_LE(run, 2) << "module " << next << " three times in a row at fragment " << i;
        previous = next;
        if (i % 4 == 0) {
            EXPECT_EQ(counts[0], i / 4);
            EXPECT_EQ(counts[1], i / 2);
            EXPECT_EQ(counts[2], i / 4);
        }
    }
    tessera::mca::set_command_line("btl_base_striping", "round_robin");
}

TEST(BtlStriping, SingleModulePeerAlwaysGetsIt)
{
    FakePeer f;
    f.peer.count = 1;
    mca_btl_base_stripe_t s;
    mca_btl_base_stripe_init(&s, &f.peer);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(mca_btl_base_stripe_next(&s, &f.peer), 0u);
    }
}

} // namespace
