/* Protocols: the eager/rendezvous switch, striped data fragments reassembled in any order, the
 * pipeline depth, single copy and its fallback, synchronous sends, truncation, full transports. */
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

#include "mca/constants.h"
#include "ompi/datatype/datatype.h"
#include "ompi/pml/pml_wire.h"
#include "ompi/pml/pml_internal.h"
#include "pml_fixture.h"

namespace tessera::test {
namespace {

using ompi::pml::FragType;
using ompi::pml::Request;

class PmlProtocol : public PmlTest {};

constexpr std::size_t kHeader = sizeof(ompi::pml::MatchHeader);

std::vector<char> pattern(std::size_t n, unsigned seed)
{
    std::vector<char> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = static_cast<char>((i * 131 + seed) % 251);
    }
    return v;
}

std::size_t count_type(const FakeBtl &btl, FragType type)
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < btl.wire.size(); ++i) {
        n += btl.type_at(i) == static_cast<int>(type);
    }
    return n;
}

TEST_F(PmlProtocol, FirstModulesEagerLimitIsTheSwitchPoint)
{
    start(2, {{.eager_limit = 256, .max_send_size = 1024}});
    std::vector<char> data(300, 'x');
    Request *fits = isend(1, 0, data.data(), 256 - kHeader);
    ASSERT_EQ(btl->wire.size(), 1u);
    EXPECT_EQ(btl->type_at(0), static_cast<int>(FragType::Eager));
    EXPECT_TRUE(fits->complete); /* an eager send is done once the btl took it */
    Request *over = isend(1, 0, data.data(), 256 - kHeader + 1);
    ASSERT_EQ(btl->wire.size(), 2u);
    EXPECT_EQ(btl->type_at(1), static_cast<int>(FragType::Rts));
    EXPECT_FALSE(over->complete);
    std::vector<char> a(300), b(300);
    Request *ra = irecv(1, 0, a.data(), a.size());
    Request *rb = irecv(1, 0, b.data(), b.size());
    btl->deliver_all();
    EXPECT_TRUE(over->complete);
    EXPECT_EQ(ompi::pml::status_count(&ra->status), 256 - kHeader);
    EXPECT_EQ(ompi::pml::status_count(&rb->status), 256 - kHeader + 1);
    for (Request *r : {fits, over, ra, rb}) {
        release(r);
    }
}

TEST_F(PmlProtocol, PmlEagerLimitOverridesTheModules)
{
    start(2, {{.eager_limit = 4096, .max_send_size = 4096}});
    ompi::pml::params.eager_limit = 100;
    char data[128] = {};
    Request *s = isend(1, 0, data, 100 - kHeader + 1);
    EXPECT_EQ(btl->type_at(0), static_cast<int>(FragType::Rts));
    char got[128];
    Request *r = irecv(1, 0, got, sizeof got);
    btl->deliver_all();
    release(s);
    release(r);
}

TEST_F(PmlProtocol, StripedFragmentsAreReassembledInAnyOrder)
{
    start(2, {{.max_send_size = 1000}, {.max_send_size = 1000}, {.max_send_size = 700}});
    const std::vector<char> data = pattern(100003, 7);
    std::vector<char> got(data.size() + 16, 0);
    Request *r = irecv(1, 3, got.data(), data.size());
    Request *s = isend(1, 3, data.data(), data.size());
    btl->deliver(0); /* the RTS; the CTS comes back */
    btl->deliver(0);
    EXPECT_GT(count_type(*btl, FragType::Data), 100u);
    btl->deliver_all_shuffled(12345);
    ASSERT_TRUE(r->complete);
    ASSERT_TRUE(s->complete);
    EXPECT_EQ(r->status.MPI_ERROR, MPI_SUCCESS);
    EXPECT_EQ(ompi::pml::status_count(&r->status), data.size());
    EXPECT_TRUE(std::equal(data.begin(), data.end(), got.begin()));
    EXPECT_EQ(got[data.size()], 0); /* nothing written past the message */
    /* Round-robin: every module carried data, in turns (module 0 also carried the RTS and CTS). */
    const auto sent = [this](std::size_t m) { return static_cast<long>(btl->sent_per_module[m]); };
    EXPECT_LE(std::labs(sent(0) - 2 - sent(2)), 1);
    EXPECT_LE(std::labs(sent(1) - sent(2)), 1);
    release(r);
    release(s);
}

TEST_F(PmlProtocol, WeightedStripingFollowsBandwidth)
{
    start(2, {{.max_send_size = 1024, .bandwidth = 1000}, {.max_send_size = 1024, .bandwidth = 3000}});
    mca_btl_base_striping = MCA_BTL_BASE_STRIPING_WEIGHTED;
    const std::vector<char> data = pattern(1000 * 400, 3);
    std::vector<char> got(data.size());
    Request *r = irecv(1, 0, got.data(), got.size());
    Request *s = isend(1, 0, data.data(), data.size());
    btl->deliver(0);
    btl->deliver(0);
    std::size_t data_on[2] = {0, 0};
    for (const FakeFragment &f : btl->wire) {
        data_on[f.module] += static_cast<FragType>(f.bytes[0]) == FragType::Data;
    }
    EXPECT_NEAR(static_cast<double>(data_on[1]) / static_cast<double>(data_on[0]), 3.0, 0.1);
    btl->deliver_all_newest_first();
    EXPECT_EQ(got, data);
    release(r);
    release(s);
}

TEST_F(PmlProtocol, PipelineDepthBoundsFragmentsHeldByTheTransports)
{
    start(2, {{.max_send_size = 512}, {.max_send_size = 512}});
    ompi::pml::params.pipeline_depth = 4;
    btl->hold = true;
    const std::vector<char> data = pattern(50000, 1);
    std::vector<char> got(data.size());
    Request *r = irecv(1, 0, got.data(), got.size());
    Request *s = isend(1, 0, data.data(), data.size());
    btl->deliver(0);
    btl->deliver(0);
    std::size_t most = 0, rounds = 0;
    while (!btl->wire.empty()) {
        most = std::max(most, count_type(*btl, FragType::Data));
        btl->deliver(0);
        ompi::pml::progress();
        ++rounds;
    }
    EXPECT_EQ(most, 4u);
    EXPECT_GT(rounds, 50000u / 512);
    EXPECT_TRUE(s->complete);
    EXPECT_TRUE(r->complete);
    EXPECT_EQ(got, data);
    release(r);
    release(s);
}

TEST_F(PmlProtocol, SingleCopyReadsTheSendersBuffer)
{
    start(2, {{.eager_limit = 1024, .max_send_size = 1024, .get = true}});
    ompi::pml::params.single_copy = ompi::pml::kSingleCopyAlways;
    btl->get_result = TESSERA_SUCCESS;
    const std::vector<char> data = pattern(70000, 9);
    std::vector<char> got(data.size());
    Request *s = isend(1, 0, data.data(), data.size());
    Request *r = irecv(1, 0, got.data(), got.size());
    btl->deliver(0); /* RTS with the address: the receive pulls and answers */
    EXPECT_TRUE(r->complete);
    EXPECT_EQ(btl->gets, 1u);
    EXPECT_EQ(count_type(*btl, FragType::Data), 0u);
    btl->deliver_all();
    EXPECT_TRUE(s->complete);
    EXPECT_EQ(got, data);
    release(r);
    release(s);
}

TEST_F(PmlProtocol, SingleCopyRefusedFallsBackToFragments)
{
    start(2, {{.eager_limit = 1024, .max_send_size = 1024, .get = true}});
    ompi::pml::params.single_copy = ompi::pml::kSingleCopyAlways;
    btl->get_result = TESSERA_ERR_NOT_SUPPORTED;
    const std::vector<char> data = pattern(70000, 5);
    std::vector<char> got(data.size());
    Request *s = isend(1, 0, data.data(), data.size());
    Request *r = irecv(1, 0, got.data(), got.size());
    btl->deliver_all();
    EXPECT_EQ(btl->gets, 1u);
    EXPECT_TRUE(r->complete);
    EXPECT_TRUE(s->complete);
    EXPECT_EQ(got, data);
    release(r);
    release(s);
}

/* pml_single_copy=never: even a collective's exchange streams through the transport. */
TEST_F(PmlProtocol, NoSingleCopyWhenNever)
{
    start(2, {{.eager_limit = 1024, .max_send_size = 1024, .get = true}});
    ompi::pml::params.single_copy = ompi::pml::kSingleCopyNever;
    ompi::pml::params.contention_threshold = 0.0; /* contended: auto would read */
    btl->get_result = TESSERA_SUCCESS;
    const std::vector<char> data = pattern(70000, 5);
    std::vector<char> got(data.size());
    const ompi::Datatype *bytes = ompi::datatype_lookup(MPI_BYTE);
    Request *xs = ompi::pml::isend(data.data(), data.size(), bytes, 1, -20, &ompi::comm_world(), true);
    Request *xr = ompi::pml::irecv(got.data(), got.size(), bytes, 1, -20, &ompi::comm_world());
    btl->deliver_all();
    EXPECT_EQ(btl->gets, 0u);
    EXPECT_EQ(got, data);
    release(xr);
    release(xs);
}

/* pml_single_copy=exchange: an application's send streams through the transport; an internal send whose
 * process receives in the same step (a collective's exchange) offers its buffer. */
TEST_F(PmlProtocol, SingleCopyOnlyForExchanges)
{
    start(2, {{.eager_limit = 1024, .max_send_size = 1024, .get = true}});
    ompi::pml::params.single_copy = ompi::pml::kSingleCopyExchange;
    btl->get_result = TESSERA_SUCCESS;
    const std::vector<char> data = pattern(70000, 3);
    std::vector<char> got(data.size());
    Request *s = isend(1, 0, data.data(), data.size());
    Request *r = irecv(1, 0, got.data(), got.size());
    btl->deliver_all();
    EXPECT_EQ(btl->gets, 0u);
    EXPECT_EQ(got, data);
    release(r);
    release(s);

    std::vector<char> again(data.size());
    const ompi::Datatype *bytes = ompi::datatype_lookup(MPI_BYTE);
    Request *xs = ompi::pml::isend(data.data(), data.size(), bytes, 1, -20, &ompi::comm_world(), true);
    Request *xr = ompi::pml::irecv(again.data(), again.size(), bytes, 1, -20, &ompi::comm_world());
    btl->deliver_all();
    EXPECT_EQ(btl->gets, 1u);
    EXPECT_EQ(again, data);
    release(xr);
    release(xs);
}

TEST_F(PmlProtocol, SynchronousSendCompletesOnlyOnceMatched)
{
    start(2, {{}});
    const int value = 5;
    Request *s = isend(1, 0, &value, 1, MPI_INT, ompi::pml::SendMode::Sync);
    EXPECT_EQ(btl->type_at(0), static_cast<int>(FragType::Rts));
    btl->deliver_all();
    EXPECT_FALSE(s->complete); /* arrived, unexpected: not matched yet */
    int got = 0;
    Request *r = irecv(1, 0, &got, 1, MPI_INT);
    EXPECT_FALSE(s->complete);
    btl->deliver_all();
    EXPECT_TRUE(s->complete);
    EXPECT_EQ(got, 5);
    release(s);
    release(r);
}

TEST_F(PmlProtocol, EmptyMessagesBothWays)
{
    start(2, {{}});
    Request *eager = isend(1, 1, nullptr, 0);
    Request *sync = isend(1, 2, nullptr, 0, MPI_BYTE, ompi::pml::SendMode::Sync);
    Request *r1 = irecv(1, 1, nullptr, 0);
    Request *r2 = irecv(1, 2, nullptr, 0);
    btl->deliver_all();
    for (Request *r : {eager, sync, r1, r2}) {
        EXPECT_TRUE(r->complete);
        EXPECT_EQ(r->status.MPI_ERROR, MPI_SUCCESS);
    }
    EXPECT_EQ(ompi::pml::status_count(&r2->status), 0u);
    for (Request *r : {eager, sync, r1, r2}) {
        release(r);
    }
}

TEST_F(PmlProtocol, TruncationFillsTheBufferAndNothingBeyond)
{
    start(2, {{.eager_limit = 1024, .max_send_size = 1024}});
    for (const std::size_t length : {std::size_t{100}, std::size_t{30000}}) {
        const std::vector<char> data = pattern(length, 2);
        const std::size_t room = length / 3;
        std::vector<char> got(room + 64, '#');
        Request *r = irecv(1, 0, got.data(), room);
        Request *s = isend(1, 0, data.data(), data.size());
        btl->deliver_all_shuffled(static_cast<uint32_t>(length));
        ASSERT_TRUE(r->complete);
        EXPECT_TRUE(s->complete);
        EXPECT_EQ(r->status.MPI_ERROR, MPI_ERR_TRUNCATE);
        EXPECT_EQ(ompi::pml::status_count(&r->status), room);
        EXPECT_TRUE(std::equal(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(room), got.begin()));
        for (std::size_t i = room; i < got.size(); ++i) {
            ASSERT_EQ(got[i], '#') << "byte " << i << " of a " << length << "-byte message";
        }
        EXPECT_EQ(s->status.MPI_ERROR, MPI_SUCCESS);
        release(r);
        release(s);
    }
}

TEST_F(PmlProtocol, FullTransportsKeepControlFragmentsInOrder)
{
    start(2, {{}});
    btl->refuse = 3;
    int values[5] = {1, 2, 3, 4, 5};
    std::vector<Request *> sends;
    for (int &v : values) {
        sends.push_back(isend(1, 0, &v, 1, MPI_INT));
    }
    EXPECT_TRUE(btl->wire.empty()); /* the first was refused; the others queued behind it */
    for (Request *s : sends) {
        EXPECT_FALSE(s->complete);
    }
    while (btl->refuse > 0) {
        ompi::pml::progress();
    }
    ompi::pml::progress();
    EXPECT_EQ(btl->wire.size(), 5u);
    int got[5] = {};
    std::vector<Request *> recvs;
    for (int &g : got) {
        recvs.push_back(irecv(1, 0, &g, 1, MPI_INT));
    }
    btl->deliver_all();
    EXPECT_EQ(std::vector<int>(got, got + 5), std::vector<int>(values, values + 5));
    for (Request *s : sends) {
        release(s);
    }
    for (Request *r : recvs) {
        release(r);
    }
}

TEST_F(PmlProtocol, HeldSendsCompleteWhenTheTransportIsDone)
{
    start(2, {{}});
    btl->hold = true;
    const int value = 9;
    Request *s = isend(1, 0, &value, 1, MPI_INT);
    EXPECT_FALSE(s->complete); /* the btl still reads the buffer */
    int got = 0;
    Request *r = irecv(1, 0, &got, 1, MPI_INT);
    btl->deliver_all();
    EXPECT_TRUE(s->complete);
    EXPECT_EQ(got, 9);
    release(s);
    release(r);
}

TEST_F(PmlProtocol, FragmentsSplitIntoSegmentsAreGathered)
{
    start(2, {{.eager_limit = 512, .max_send_size = 512}});
    btl->delivery_segments = 3;
    const std::vector<char> small = pattern(200, 4), large = pattern(5000, 6);
    std::vector<char> got_small(200), got_large(5000);
    Request *rs = irecv(1, 0, got_small.data(), got_small.size());
    Request *rl = irecv(1, 0, got_large.data(), got_large.size());
    Request *ss = isend(1, 0, small.data(), small.size());
    Request *sl = isend(1, 0, large.data(), large.size());
    btl->deliver_all();
    EXPECT_EQ(got_small, small);
    EXPECT_EQ(got_large, large);
    for (Request *r : {rs, rl, ss, sl}) {
        release(r);
    }
}

TEST_F(PmlProtocol, PairTypesCutAtAnyByteAreRebuiltValueByValue)
{
    /* MPI_DOUBLE_INT: 12 bytes of data in a 16-byte element; 488-byte fragments cut elements. */
    start(2, {{.eager_limit = 512, .max_send_size = 512}, {.eager_limit = 512, .max_send_size = 333}});
    struct DoubleInt {
        double d;
        int i;
    };
    std::vector<DoubleInt> data(1000), got(1000, DoubleInt{-1.0, -1});
    for (std::size_t k = 0; k < data.size(); ++k) {
        data[k] = {static_cast<double>(k) * 0.5, static_cast<int>(k) - 7};
    }
    Request *r = irecv(1, 0, got.data(), got.size(), MPI_DOUBLE_INT);
    Request *s = isend(1, 0, data.data(), data.size(), MPI_DOUBLE_INT);
    btl->deliver_all_shuffled(99);
    ASSERT_TRUE(r->complete);
    EXPECT_EQ(ompi::pml::status_count(&r->status), 12u * 1000u);
    for (std::size_t k = 0; k < data.size(); ++k) {
        ASSERT_EQ(got[k].d, data[k].d) << k;
        ASSERT_EQ(got[k].i, data[k].i) << k;
    }
    release(r);
    release(s);
}

} // namespace
} // namespace tessera::test
