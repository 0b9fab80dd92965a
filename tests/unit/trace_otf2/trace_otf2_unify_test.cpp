// trace otf2: what one rank tells the others at finalize survives the trip, and every rank derives the
// same global communicators from all of them — one per communicator however many ranks saw it, told
// apart when two have the same ranks, with its ranks in communicator order.
#include <gtest/gtest.h>

#include <set>

#include "components/trace/otf2/trace_otf2_summary.h"
#include "components/trace/otf2/trace_otf2_unify.h"

using namespace tessera::ompi::trace_otf2;

namespace {

CommSummary comm(uint64_t id, const std::string &name, std::vector<int> ranks)
{
    return CommSummary{id, name, std::move(ranks)};
}

RankSummary rank(int r, std::vector<CommSummary> comms, std::vector<std::pair<uint32_t, std::string>> regions = {})
{
    RankSummary s;
    s.rank = r;
    s.ok = true;
    s.host = "node" + std::to_string(r / 2);
    s.first_time = 100 + r;
    s.last_time = 1000 + r;
    s.events = 10 * (r + 1);
    s.comms = std::move(comms);
    s.regions = std::move(regions);
    return s;
}

} // namespace

TEST(TraceOtf2Summary, EncodeDecodeRoundTrip)
{
    RankSummary s = rank(3, {comm(0, "MPI_COMM_WORLD", {0, 1, 2, 3}), comm(7, "", {}), comm(9, "row", {3, 1})},
                         {{441, "MPI_Send"}, {391, "MPI_Recv"}});
    auto bytes = encode(s);
    auto back = decode(bytes.data(), bytes.size());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->rank, 3);
    EXPECT_TRUE(back->ok);
    EXPECT_EQ(back->host, "node1");
    EXPECT_EQ(back->first_time, 103u);
    EXPECT_EQ(back->last_time, 1003u);
    EXPECT_EQ(back->events, 40u);
    EXPECT_EQ(back->regions, s.regions);
    ASSERT_EQ(back->comms.size(), 3u);
    EXPECT_EQ(back->comms[2].local_id, 9u);
    EXPECT_EQ(back->comms[2].name, "row");
    EXPECT_EQ(back->comms[2].world_ranks, (std::vector<int>{3, 1}));
    EXPECT_TRUE(back->comms[1].world_ranks.empty());
}

TEST(TraceOtf2Summary, RejectsTruncatedOrForeignBytes)
{
    auto bytes = encode(rank(0, {comm(0, "MPI_COMM_WORLD", {0, 1})}));
    EXPECT_FALSE(decode(bytes.data(), bytes.size() - 1).has_value());
    bytes.push_back(0);
    EXPECT_FALSE(decode(bytes.data(), bytes.size()).has_value());
    const unsigned char junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_FALSE(decode(junk, sizeof junk).has_value());
}

TEST(TraceOtf2Unify, SameCommunicatorSeenByEveryMemberGetsOneId)
{
    // World and self everywhere; a split {2,0} / {3,1} in reversed order; a dup of world on all.
    std::vector<RankSummary> ranks;
    for (int r = 0; r < 4; ++r) {
        std::vector<int> split = r % 2 == 0 ? std::vector<int>{2, 0} : std::vector<int>{3, 1};
        ranks.push_back(rank(r, {comm(0, "MPI_COMM_WORLD", {0, 1, 2, 3}), comm(1, "MPI_COMM_SELF", {r}),
                                 comm(2, "split", split), comm(3, "dup", {0, 1, 2, 3})}));
    }
    Unified u = unify(ranks);
    // world, self x4, split x2, dup
    ASSERT_EQ(u.comms.size(), 8u);
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(u.comm_of[r].at(0), u.comm_of[0].at(0)) << "world has one id";
        EXPECT_EQ(u.comm_of[r].at(3), u.comm_of[0].at(3)) << "dup has one id";
    }
    EXPECT_NE(u.comm_of[0].at(0), u.comm_of[0].at(3)) << "dup is not world, though it has the same ranks";
    EXPECT_EQ(u.comms[u.comm_of[0].at(0)].group, u.comms[u.comm_of[0].at(3)].group) << "same ranks, one group";
    EXPECT_EQ(u.comm_of[0].at(2), u.comm_of[2].at(2));
    EXPECT_EQ(u.comm_of[1].at(2), u.comm_of[3].at(2));
    EXPECT_NE(u.comm_of[0].at(2), u.comm_of[1].at(2)) << "the two halves of the split differ";
    EXPECT_EQ(u.groups[u.comms[u.comm_of[1].at(2)].group], (std::vector<int>{3, 1})) << "communicator rank order";
    std::set<uint32_t> selves;
    for (int r = 0; r < 4; ++r) {
        selves.insert(u.comm_of[r].at(1));
        EXPECT_EQ(u.groups[u.comms[u.comm_of[r].at(1)].group], (std::vector<int>{r}));
    }
    EXPECT_EQ(selves.size(), 4u) << "each rank's MPI_COMM_SELF is its own";
    EXPECT_EQ(u.comms[u.comm_of[2].at(3)].name, "dup");
}

TEST(TraceOtf2Unify, NthCommunicatorWithTheSameRanksMatchesAcrossRanksWhateverTheLocalIds)
{
    // Rank 1 created an extra communicator of its own in between: local ids differ, the n-th
    // communicator over {0,1} is still the same object at both.
    std::vector<RankSummary> ranks = {
        rank(0, {comm(0, "MPI_COMM_WORLD", {0, 1}), comm(2, "a", {0, 1}), comm(3, "b", {0, 1})}),
        rank(1, {comm(0, "MPI_COMM_WORLD", {0, 1}), comm(2, "mine", {1}), comm(5, "", {0, 1}),
                 comm(6, "b", {0, 1})}),
    };
    Unified u = unify(ranks);
    EXPECT_EQ(u.comm_of[0].at(2), u.comm_of[1].at(5));
    EXPECT_EQ(u.comms[u.comm_of[1].at(5)].name, "a") << "an unnamed view takes the name another rank knows";
    EXPECT_EQ(u.comm_of[0].at(3), u.comm_of[1].at(6));
    EXPECT_NE(u.comm_of[0].at(2), u.comm_of[0].at(3));
}

TEST(TraceOtf2Unify, CommunicatorWithoutRankMapIsLeftUndefined)
{
    std::vector<RankSummary> ranks = {rank(0, {comm(0, "MPI_COMM_WORLD", {0}), comm(4, "", {})})};
    Unified u = unify(ranks);
    EXPECT_EQ(u.comm_of[0].count(4), 0u);
    EXPECT_EQ(u.comms.size(), 1u);
}

TEST(TraceOtf2Unify, RegionsAreTheUnionInFunctionOrder)
{
    std::vector<RankSummary> ranks = {rank(0, {}, {{441, "MPI_Send"}, {40, "MPI_Bcast"}}),
                                      rank(1, {}, {{391, "MPI_Recv"}, {441, "MPI_Send"}})};
    Unified u = unify(ranks);
    ASSERT_EQ(u.regions.size(), 3u);
    EXPECT_EQ(u.regions[0].second, "MPI_Bcast");
    EXPECT_EQ(u.regions[2].second, "MPI_Send");
    EXPECT_EQ(u.region_of_function.at(391), 1u);
}
