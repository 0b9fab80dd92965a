#include <gtest/gtest.h>

#include <vector>

#include "ompi/communicator/comm_context.h"
#include "ompi/communicator/communicator.h"

namespace cid = tessera::ompi::cid;

namespace {

std::vector<std::uint32_t> ids(std::initializer_list<std::uint32_t> l)
{
    return l;
}

bool offered(std::uint32_t id)
{
    const auto mask = cid::offer();
    return (mask[id / 64] >> (id % 64) & 1) != 0;
}

} // namespace

TEST(ContextIds, WorldAndSelfAreTakenFromTheStart)
{
    cid::reset(128);
    EXPECT_EQ(cid::offer().size(), 2u);
    EXPECT_FALSE(offered(tessera::ompi::kContextWorld));
    EXPECT_FALSE(offered(tessera::ompi::kContextSelf));
    EXPECT_TRUE(offered(2));
    EXPECT_EQ(cid::used_count(), 2u);
    EXPECT_EQ(cid::lowest(cid::offer(), 3), ids({2, 3, 4}));
}

TEST(ContextIds, SizeRoundsUpToWholeWords)
{
    cid::reset(65);
    EXPECT_EQ(cid::offer().size(), 2u);
    cid::reset(1);
    EXPECT_EQ(cid::offer().size(), 1u);
}

TEST(ContextIds, LowestCrossesWords)
{
    std::vector<std::uint64_t> mask = {0, 0x5, 0x8000000000000000ull};
    EXPECT_EQ(cid::lowest(mask, 2), ids({64, 66}));
    EXPECT_EQ(cid::lowest(mask, 5), ids({64, 66, 191}));
    EXPECT_TRUE(cid::lowest(std::vector<std::uint64_t>{0, 0}, 1).empty());
}

TEST(ContextIds, HeldIdsAreNotOfferedAndCannotBeHeldTwice)
{
    cid::reset(64);
    ASSERT_TRUE(cid::hold(ids({2, 3})));
    EXPECT_FALSE(offered(2));
    EXPECT_FALSE(offered(3));
    /* All or nothing: 3 is held, so 4 is not held either. */
    EXPECT_FALSE(cid::hold(ids({4, 3})));
    EXPECT_TRUE(offered(4));
    cid::unhold(ids({3}));
    EXPECT_TRUE(offered(3));
    EXPECT_FALSE(cid::in_use(2));
}

TEST(ContextIds, TakenIdsStayUntilReleased)
{
    cid::reset(64);
    ASSERT_TRUE(cid::hold(ids({5})));
    cid::take(ids({5}));
    EXPECT_TRUE(cid::in_use(5));
    EXPECT_FALSE(offered(5));
    EXPECT_FALSE(cid::hold(ids({5})));
    cid::take(ids({6})); /* taken without being held: the quiet case */
    EXPECT_EQ(cid::used_count(), 4u);
    cid::release(5);
    EXPECT_TRUE(offered(5));
    EXPECT_FALSE(cid::in_use(5));
    EXPECT_TRUE(cid::in_use(6));
}

TEST(ContextIds, IdsBeyondTheTableAreRefused)
{
    cid::reset(64);
    EXPECT_FALSE(cid::hold(ids({64})));
    cid::take(ids({1000}));
    EXPECT_FALSE(cid::in_use(1000));
}

TEST(ContextIds, RunningAgreementsAreCounted)
{
    cid::reset(64);
    EXPECT_EQ(cid::agreements_running(), 0);
    cid::agreement_begin();
    cid::agreement_begin();
    EXPECT_EQ(cid::agreements_running(), 2);
    cid::agreement_end();
    cid::agreement_end();
    EXPECT_EQ(cid::agreements_running(), 0);
}

TEST(ContextIds, GenerationFloorRisesAboveEveryGenerationTaken)
{
    cid::reset(64);
    EXPECT_EQ(cid::generation_floor(), 1u); /* WORLD and SELF have 0 */
    cid::generation_taken(1);
    EXPECT_EQ(cid::generation_floor(), 2u);
    cid::generation_taken(7); /* agreed with processes further along */
    EXPECT_EQ(cid::generation_floor(), 8u);
    cid::generation_taken(3); /* never goes back */
    EXPECT_EQ(cid::generation_floor(), 8u);
    cid::reset(64);
    EXPECT_EQ(cid::generation_floor(), 1u);
}
