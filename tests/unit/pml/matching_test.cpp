/* Matching: order between two ranks, wildcard and specific receives, fragments that overtake each
 * other, the unexpected queue. */
#include <vector>

#include "ompi/pml/pml_wire.h"
#include "pml_fixture.h"

namespace tessera::test {
namespace {

using ompi::pml::Request;

class PmlMatching : public PmlTest {};

TEST_F(PmlMatching, MessagesOfOneSenderAndTagArriveInSendOrder)
{
    start(2, {{}});
    const int values[4] = {10, 11, 12, 13};
    Request *sends[4];
    for (int i = 0; i < 4; ++i) {
        sends[i] = isend(1, 5, &values[i], 1, MPI_INT);
    }
    int got[4] = {};
    Request *early[2] = {irecv(1, 5, &got[0], 1, MPI_INT), irecv(1, 5, &got[1], 1, MPI_INT)};
    btl->deliver_all();
    /* Two were posted before arrival, two arrive unexpected. */
    Request *late[2] = {irecv(1, 5, &got[2], 1, MPI_INT), irecv(1, 5, &got[3], 1, MPI_INT)};
    for (Request *r : {early[0], early[1], late[0], late[1]}) {
        EXPECT_TRUE(r->complete);
        EXPECT_EQ(r->status.MPI_SOURCE, 1);
        EXPECT_EQ(r->status.MPI_TAG, 5);
        EXPECT_EQ(r->status.MPI_ERROR, MPI_SUCCESS);
        release(r);
    }
    EXPECT_EQ(std::vector<int>(got, got + 4), std::vector<int>(values, values + 4));
    for (Request *s : sends) {
        release(s);
    }
}

TEST_F(PmlMatching, PostedWildcardAndSpecificReceivesMatchInPostingOrder)
{
    start(3, {{}});
    int got[4] = {};
    Request *any_source = irecv(MPI_ANY_SOURCE, 7, &got[0], 1, MPI_INT);
    Request *specific = irecv(1, 7, &got[1], 1, MPI_INT);
    Request *any_tag = irecv(1, MPI_ANY_TAG, &got[2], 1, MPI_INT);
    Request *from_two = irecv(2, 7, &got[3], 1, MPI_INT);
    const int values[4] = {1, 2, 3, 4};
    Request *sends[4] = {isend(1, 7, &values[0], 1, MPI_INT), isend(1, 7, &values[1], 1, MPI_INT),
                         isend(1, 9, &values[2], 1, MPI_INT), isend(2, 7, &values[3], 1, MPI_INT)};
    btl->deliver_all();
    /* The oldest receive that fits takes each message: a wildcard posted first is not overtaken by a
     * specific one posted later, and a specific one for another source is passed over. */
    EXPECT_EQ(got[0], 1);
    EXPECT_EQ(any_source->status.MPI_SOURCE, 1);
    EXPECT_EQ(got[1], 2);
    EXPECT_EQ(got[2], 3);
    EXPECT_EQ(any_tag->status.MPI_TAG, 9);
    EXPECT_EQ(got[3], 4);
    EXPECT_EQ(from_two->status.MPI_SOURCE, 2);
    for (Request *r : {any_source, specific, any_tag, from_two}) {
        release(r);
    }
    for (Request *s : sends) {
        release(s);
    }
}

TEST_F(PmlMatching, SpecificReceivePostedFirstIsPassedOverForAnotherSource)
{
    start(3, {{}});
    int from_two = 0, any = 0;
    Request *specific = irecv(2, 7, &from_two, 1, MPI_INT);
    Request *wildcard = irecv(MPI_ANY_SOURCE, 7, &any, 1, MPI_INT);
    const int one = 100, two = 200;
    Request *s1 = isend(1, 7, &one, 1, MPI_INT);
    btl->deliver_all();
    EXPECT_FALSE(specific->complete);
    EXPECT_TRUE(wildcard->complete);
    EXPECT_EQ(any, 100);
    Request *s2 = isend(2, 7, &two, 1, MPI_INT);
    btl->deliver_all();
    EXPECT_TRUE(specific->complete);
    EXPECT_EQ(from_two, 200);
    for (Request *r : {specific, wildcard, s1, s2}) {
        release(r);
    }
}

TEST_F(PmlMatching, UnexpectedMessagesMatchInArrivalOrder)
{
    start(3, {{}});
    const int values[3] = {1, 2, 3};
    Request *sends[3] = {isend(2, 3, &values[0], 1, MPI_INT), isend(1, 3, &values[1], 1, MPI_INT),
                         isend(1, 4, &values[2], 1, MPI_INT)};
    btl->deliver_all();
    int a = 0, b = 0, c = 0;
    Request *any = irecv(MPI_ANY_SOURCE, MPI_ANY_TAG, &a, 1, MPI_INT);
    Request *tag4 = irecv(1, 4, &b, 1, MPI_INT);
    Request *rest = irecv(MPI_ANY_SOURCE, 3, &c, 1, MPI_INT);
    EXPECT_EQ(a, 1);
    EXPECT_EQ(any->status.MPI_SOURCE, 2);
    EXPECT_EQ(b, 3);
    EXPECT_EQ(c, 2);
    EXPECT_EQ(rest->status.MPI_SOURCE, 1);
    for (Request *r : {any, tag4, rest, sends[0], sends[1], sends[2]}) {
        release(r);
    }
}

TEST_F(PmlMatching, FragmentsThatOvertakeAreHeldUntilTheirTurn)
{
    start(3, {{}});
    constexpr int kCount = 6;
    int values[kCount], got[kCount] = {};
    std::vector<Request *> requests;
    for (int i = 0; i < kCount; ++i) {
        values[i] = 1000 + i;
        requests.push_back(isend(1, 0, &values[i], 1, MPI_INT));
    }
    const int other = 77;
    requests.push_back(isend(2, 0, &other, 1, MPI_INT));
    /* Half of rank 1's receives are posted, the rest come later; rank 1's fragments arrive newest
     * first, rank 2's (another sequence) on its own. */
    std::vector<Request *> recvs;
    for (int i = 0; i < kCount / 2; ++i) {
        recvs.push_back(irecv(1, MPI_ANY_TAG, &got[i], 1, MPI_INT));
    }
    btl->deliver_all_newest_first();
    for (int i = kCount / 2; i < kCount; ++i) {
        recvs.push_back(irecv(1, MPI_ANY_TAG, &got[i], 1, MPI_INT));
    }
    for (int i = 0; i < kCount; ++i) {
        EXPECT_EQ(got[i], 1000 + i) << "receive " << i;
    }
    int from_two = 0;
    Request *r2 = irecv(2, 0, &from_two, 1, MPI_INT);
    EXPECT_EQ(from_two, 77);
    requests.insert(requests.end(), recvs.begin(), recvs.end());
    requests.push_back(r2);
    for (Request *r : requests) {
        release(r);
    }
}

TEST_F(PmlMatching, HeldFragmentsKeepOrderAcrossEagerAndRendezvous)
{
    start(2, {{.eager_limit = 256, .max_send_size = 1024}});
    std::vector<char> big(5000, 'b'), got_big(5000, 0);
    const char small = 's';
    char got_small = 0;
    Request *s1 = isend(1, 0, big.data(), big.size());
    Request *s2 = isend(1, 0, &small, 1);
    ASSERT_EQ(btl->wire.size(), 2u);
    EXPECT_EQ(btl->type_at(0), static_cast<int>(ompi::pml::FragType::Rts));
    EXPECT_EQ(btl->type_at(1), static_cast<int>(ompi::pml::FragType::Eager));
    /* The eager message overtakes the RTS: it must still match the second receive. */
    Request *r1 = irecv(1, 0, got_big.data(), got_big.size());
    Request *r2 = irecv(1, 0, &got_small, 1);
    btl->deliver(1);
    EXPECT_FALSE(r1->complete);
    EXPECT_FALSE(r2->complete);
    btl->deliver_all();
    EXPECT_TRUE(r1->complete);
    EXPECT_TRUE(r2->complete);
    EXPECT_EQ(got_big, big);
    EXPECT_EQ(got_small, 's');
    for (Request *r : {s1, s2, r1, r2}) {
        release(r);
    }
}

TEST_F(PmlMatching, HundredThousandUnexpectedMessagesBeforeTheFirstReceive)
{
    start(2, {{}});
    constexpr int kCount = 100000;
    std::vector<int> values(kCount);
    for (int i = 0; i < kCount; ++i) {
        values[static_cast<std::size_t>(i)] = i * 3;
        release(isend(1, i % 5, &values[static_cast<std::size_t>(i)], 1, MPI_INT));
        if (btl->wire.size() >= 1024) {
            btl->deliver_all();
        }
    }
    btl->deliver_all();
    MPI_Status status;
    ASSERT_TRUE(ompi::pml::probe(&ompi::comm_world(), 1, 4, &status));
    EXPECT_EQ(status.MPI_TAG, 4);
    for (int i = 0; i < kCount; ++i) {
        int got = -1;
        Request *r = irecv(1, MPI_ANY_TAG, &got, 1, MPI_INT);
        ASSERT_TRUE(r->complete);
        ASSERT_EQ(got, i * 3);
        ASSERT_EQ(r->status.MPI_TAG, i % 5);
        release(r);
    }
    EXPECT_FALSE(ompi::pml::probe(&ompi::comm_world(), MPI_ANY_SOURCE, MPI_ANY_TAG, &status));
}

TEST_F(PmlMatching, ProbeSeesUnexpectedMessagesWithoutTakingThem)
{
    start(2, {{}});
    const double value = 2.5;
    Request *s = isend(1, 42, &value, 1, MPI_DOUBLE);
    MPI_Status status;
    EXPECT_FALSE(ompi::pml::probe(&ompi::comm_world(), 1, 42, &status));
    btl->deliver_all();
    EXPECT_FALSE(ompi::pml::probe(&ompi::comm_world(), 0, 42, &status));
    EXPECT_FALSE(ompi::pml::probe(&ompi::comm_world(), 1, 41, &status));
    ASSERT_TRUE(ompi::pml::probe(&ompi::comm_world(), MPI_ANY_SOURCE, MPI_ANY_TAG, &status));
    EXPECT_EQ(status.MPI_SOURCE, 1);
    EXPECT_EQ(status.MPI_TAG, 42);
    EXPECT_EQ(ompi::pml::status_count(&status), sizeof(double));
    double got = 0;
    Request *r = irecv(1, 42, &got, 1, MPI_DOUBLE);
    EXPECT_EQ(got, 2.5);
    release(r);
    release(s);
}

TEST_F(PmlMatching, SelfCommunicatorIsSeparateFromWorld)
{
    start(1, {{}});
    const int world_value = 1, self_value = 2;
    Request *ws = isend(0, 0, &world_value, 1, MPI_INT);
    Request *ss = ompi::pml::request_alloc();
    ss->kind = ompi::pml::Kind::Send;
    ss->sbuf = &self_value;
    ss->count = 1;
    ss->type = ompi::datatype_lookup(MPI_INT);
    ss->comm = &ompi::comm_self();
    ss->peer = 0;
    ss->tag = 0;
    ASSERT_EQ(ompi::pml::start_send(ss), MPI_SUCCESS);
    btl->deliver_all();
    int got = 0;
    Request *rs = ompi::pml::request_alloc();
    rs->kind = ompi::pml::Kind::Recv;
    rs->rbuf = &got;
    rs->count = 1;
    rs->type = ompi::datatype_lookup(MPI_INT);
    rs->comm = &ompi::comm_self();
    rs->peer = MPI_ANY_SOURCE;
    rs->tag = MPI_ANY_TAG;
    ASSERT_EQ(ompi::pml::start_recv(rs), MPI_SUCCESS);
    EXPECT_EQ(got, 2);
    Request *rw = irecv(MPI_ANY_SOURCE, MPI_ANY_TAG, &got, 1, MPI_INT);
    EXPECT_EQ(got, 1);
    for (Request *r : {ws, ss, rs, rw}) {
        release(r);
    }
}

} // namespace
} // namespace tessera::test
