/*
 * Plans through the dte framework: the framework opens on the first plan asked for, the interp
 * component serves the type at its priority parameter, `dte = ^interp` leaves no engine (NOT_FOUND),
 * and plans made from several threads at once all work.
 */
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "dte_reference.h"
#include "frameworks/dte/base/base.h"
#include "frameworks/dte/base/dte_base_program.h"
#include "mca/framework.h"
#include "mca/report.h"
#include "mca/var_store.h"

namespace tessera::test::dte {
namespace {

using namespace tessera::mca;

class DtePlan : public ::testing::Test {
protected:
    void SetUp() override
    {
        report_set_print(false);
        report_clear();
#ifdef DTE_COMPONENT_DIR
        set_command_line("mca_component_path", DTE_COMPONENT_DIR);
#endif
    }
    void TearDown() override
    {
        /* Every plan is released by now: closing unloads the component that made it. */
        frameworks_finalize();
        vars_finalize();
        report_clear();
    }

    /* A vector of 3 blocks of 4 bytes, 8 apart. */
    const Desc vec = [] {
        Desc d;
        d.elems = {blocks(3, 4, 0, 8)};
        d.extent = 24;
        finish(d);
        return d;
    }();
};

TEST_F(DtePlan, InterpServesTheTypeAndTheFrameworkOpensOnFirstUse)
{
    set_command_line("dte", "interp"); /* the jit component, where built, would win at its priority 20 */
    EXPECT_FALSE(framework_is_open(&mca_dte_base_framework));
    const mca_dte_type_desc_t t = vec.desc();
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
    ASSERT_NE(plan, nullptr);
    EXPECT_TRUE(framework_is_open(&mca_dte_base_framework));
    EXPECT_STREQ(plan->plan_component->base.mca_component_name, "interp");
    EXPECT_EQ(plan->plan_priority, 10);

    unsigned char mem[48];
    for (int i = 0; i < 48; ++i) {
        mem[i] = static_cast<unsigned char>(i);
    }
    unsigned char out[24] = {};
    ASSERT_EQ(plan->plan_pack(plan, mem, 2, 0, out, 24), TESSERA_SUCCESS);
    const unsigned char want[24] = {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27, 32, 33, 34, 35, 40, 41, 42, 43};
    EXPECT_EQ(std::memcmp(out, want, 24), 0);
    unsigned char back[48] = {};
    ASSERT_EQ(plan->plan_unpack(plan, back, 2, 6, out + 6, 18), TESSERA_SUCCESS);
    ASSERT_EQ(plan->plan_unpack(plan, back, 2, 0, out, 6), TESSERA_SUCCESS);
    for (int i = 0; i < 48; ++i) {
        EXPECT_EQ(back[i], (i % 8) < 4 ? mem[i] : 0) << i;
    }
    EXPECT_EQ(plan->plan_pack(plan, mem, 2, 20, out, 5), TESSERA_ERR_BAD_PARAM);
    mca_dte_base_plan_release(plan);
}

TEST_F(DtePlan, PriorityComesFromItsParameter)
{
    set_command_line("dte_interp_priority", "42");
    const mca_dte_type_desc_t t = vec.desc();
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
    EXPECT_EQ(plan->plan_priority, 42);
    mca_dte_base_plan_release(plan);
}

TEST_F(DtePlan, ExcludingInterpLeavesNoEngine)
{
    set_command_line("dte", "^interp,jit");
    const mca_dte_type_desc_t t = vec.desc();
    mca_dte_plan_t *plan = nullptr;
    EXPECT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_ERR_NOT_FOUND);
    EXPECT_EQ(plan, nullptr);
}

TEST_F(DtePlan, IncludingInterpByNameSelectsIt)
{
    set_command_line("dte", "interp");
    const mca_dte_type_desc_t t = vec.desc();
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
    EXPECT_STREQ(plan->plan_component->base.mca_component_name, "interp");
    mca_dte_base_plan_release(plan);
}

TEST_F(DtePlan, MalformedDescriptionGetsNoPlan)
{
    Desc d;
    d.elems = {loop(2, 8, 1), blocks(1, 4, 0, 4)};
    d.size = 8;
    const mca_dte_type_desc_t t = d.desc();
    mca_dte_plan_t *plan = nullptr;
    EXPECT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_ERR_NOT_FOUND);
    EXPECT_EQ(mca_dte_base_plan_create(nullptr, &plan), TESSERA_ERR_BAD_PARAM);
}

TEST_F(DtePlan, ReopensAfterTheFrameworksWereFinalized)
{
    const mca_dte_type_desc_t t = vec.desc();
    for (int round = 0; round < 2; ++round) {
        mca_dte_plan_t *plan = nullptr;
        ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS) << round;
        mca_dte_base_plan_release(plan);
        frameworks_finalize();
        EXPECT_FALSE(framework_is_open(&mca_dte_base_framework));
    }
}

TEST_F(DtePlan, ConcurrentFirstPlansAndPacksFromManyThreads)
{
    const mca_dte_type_desc_t t = vec.desc();
    constexpr int kThreads = 8;
    mca_dte_plan_t *plans[kThreads] = {};
    int rcs[kThreads] = {};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back([&, i] { rcs[i] = mca_dte_base_plan_create(&t, &plans[i]); });
    }
    for (auto &th : threads) {
        th.join();
    }
    threads.clear();
    for (int i = 0; i < kThreads; ++i) {
        ASSERT_EQ(rcs[i], TESSERA_SUCCESS) << i;
    }
    /* One plan, packed by every thread at once, each its own range. */
    std::vector<unsigned char> mem(24 * 64);
    for (size_t i = 0; i < mem.size(); ++i) {
        mem[i] = static_cast<unsigned char>(i * 7);
    }
    const std::vector<ByteRun> runs = reference_runs(vec, 64);
    const std::vector<unsigned char> expected = reference_pack(runs, mem.data());
    std::vector<unsigned char> out(expected.size());
    const size_t piece = out.size() / kThreads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back([&, i] {
            for (int rep = 0; rep < 200; ++rep) {
                rcs[i] = plans[0]->plan_pack(plans[0], mem.data(), 64, i * piece, out.data() + i * piece, piece);
            }
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    for (int i = 0; i < kThreads; ++i) {
        EXPECT_EQ(rcs[i], TESSERA_SUCCESS);
        mca_dte_base_plan_release(plans[i]);
    }
    EXPECT_EQ(out, expected);
}

} // namespace
} // namespace tessera::test::dte
