/*
 * The jit component as a process meets it: through the dte framework, loaded from the build tree's DSO,
 * by a test that links only libmpi. LLVM is mapped only once the first plan is asked for; the jit plan
 * wins over interp at its priority, packs correctly before and after its code is compiled, follows its
 * parameters (dte_jit_compile=uses, dte_jit_verbose), and the framework closes with a compile queued.
 */
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "frameworks/dte/base/base.h"
#include "frameworks/dte/base/dte_base_program.h"
#include "mca/framework.h"
#include "mca/report.h"
#include "mca/var_store.h"

namespace {

using namespace tessera::mca;
using namespace std::chrono_literals;

/* Standard error into a file while it lives, readable meanwhile: gtest's capture is read only by
 * ending it, and a line the compiler thread prints between two captures would be lost. */
class StderrFile {
public:
    StderrFile() : file_(std::tmpfile())
    {
        fflush(stderr);
        saved_ = dup(2);
        dup2(fileno(file_), 2);
    }
    ~StderrFile()
    {
        fflush(stderr);
        dup2(saved_, 2);
        close(saved_);
        std::fclose(file_);
    }
    /* Everything written so far (pread: the shared write offset stays where stderr left it). */
    std::string text() const
    {
        fflush(stderr);
        std::string t;
        char buf[4096];
        for (ssize_t n; (n = pread(fileno(file_), buf, sizeof buf, static_cast<off_t>(t.size()))) > 0;)
            t.append(buf, static_cast<size_t>(n));
        return t;
    }
    /* What was printed once `needle` was, or after 30 s. */
    std::string wait_for(const std::string &needle) const
    {
        std::string t = text();
        for (int i = 0; i < 3000 && t.find(needle) == std::string::npos; ++i) {
            std::this_thread::sleep_for(10ms);
            t = text();
        }
        return t;
    }

private:
    std::FILE *file_;
    int saved_ = -1;
};

bool llvm_mapped()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line))
        if (line.find("libLLVM") != std::string::npos)
            return true;
    return false;
}

class DteJitPlan : public ::testing::Test {
protected:
    void SetUp() override
    {
        report_set_print(false);
        report_clear();
        set_command_line("mca_component_path", DTE_COMPONENT_DIR);
    }
    void TearDown() override
    {
        frameworks_finalize();
        vars_finalize();
        report_clear();
    }

    /* Two loops of 3 strided 12-byte blocks: nothing the interpreter can turn into one copy. */
    std::vector<mca_dte_elem_t> elems = {{MCA_DTE_OP_LOOP, 1, 2, 0, 0, 64},
                                         {MCA_DTE_OP_BLOCKS, 0, 3, 12, 4, 16},
                                         {MCA_DTE_OP_END_LOOP, 0, 0, 0, 0, 0}};
    mca_dte_type_desc_t type() const
    {
        mca_dte_type_desc_t t{};
        t.elems = elems.data();
        t.elem_count = elems.size();
        t.size = 72;
        t.extent = 128;
        t.true_lb = 4;
        t.true_ub = 112;
        return t;
    }

    /* The packed bytes of `count` elements of memory holding i % 251 at byte i. */
    static std::vector<unsigned char> expected(size_t count, size_t extent = 128)
    {
        std::vector<unsigned char> out;
        for (size_t e = 0; e < count; ++e)
            for (int k = 0; k < 2; ++k)
                for (int b = 0; b < 3; ++b)
                    for (int i = 0; i < 12; ++i)
                        out.push_back(static_cast<unsigned char>((e * extent + k * 64 + 4 + b * 16 + i) % 251));
        return out;
    }

    /* The type's pack and unpack checked on 4 elements; `extent` as the description says (128 or more). */
    static void check(mca_dte_plan_t *plan, const char *when, size_t extent = 128)
    {
        const size_t count = 4;
        std::vector<unsigned char> mem(count * extent);
        for (size_t i = 0; i < mem.size(); ++i)
            mem[i] = static_cast<unsigned char>(i % 251);
        const auto want = expected(count, extent);
        std::vector<unsigned char> out(want.size());
        /* Fragments cut inside elements, packed back to front. */
        const size_t cuts[] = {0, 5, 77, 150, 216, want.size()};
        for (int i = 4; i >= 0; --i)
            ASSERT_EQ(plan->plan_pack(plan, mem.data(), count, cuts[i], out.data() + cuts[i], cuts[i + 1] - cuts[i]),
                      TESSERA_SUCCESS);
        EXPECT_EQ(out, want) << when;
        std::vector<unsigned char> back(mem.size(), 0);
        for (int i = 0; i < 5; ++i)
            ASSERT_EQ(plan->plan_unpack(plan, back.data(), count, cuts[i], out.data() + cuts[i], cuts[i + 1] - cuts[i]),
                      TESSERA_SUCCESS);
        for (size_t i = 0; i < mem.size(); ++i) {
            const size_t in_elem = i % extent;
            const bool touched = in_elem >= 4 && (in_elem - 4) / 64 < 2 && (in_elem - 4) % 64 < 48 &&
                                 ((in_elem - 4) % 64) % 16 < 12;
            ASSERT_EQ(back[i], touched ? mem[i] : 0) << when << " byte " << i;
        }
    }
};

TEST_F(DteJitPlan, JitServesTheTypeAndLlvmLoadsOnlyThen)
{
    EXPECT_FALSE(llvm_mapped()) << "libmpi must not bring LLVM in";
    set_command_line("dte_jit_verbose", "1");
    StderrFile log;
    const auto t = type();
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
    EXPECT_STREQ(plan->plan_component->base.mca_component_name, "jit");
    EXPECT_EQ(plan->plan_priority, 20);
    check(plan, "right after commit");
    /* Compiled within a generous bound on a shared machine; the verbose line says so. LLVM is loaded
     * in the background, so by then it is mapped. */
    const std::string err = log.wait_for("ready");
    EXPECT_TRUE(llvm_mapped());
    EXPECT_TRUE(std::regex_search(
        err, std::regex(R"(dte jit: type [0-9a-f]{8} ready [0-9.]+ ms \(compile [0-9.]+ ms, compiled\))")))
        << err;
    check(plan, "compiled");
    mca_dte_base_plan_release(plan);
}

/* A description too long to compile still gets a jit plan when jit is the only engine: it interprets,
 * at priority 0 (below interp, which serves such types when it is there). */
TEST_F(DteJitPlan, JitAloneServesTypesItWillNotCompile)
{
    set_command_line("dte", "jit");
    std::vector<mca_dte_elem_t> elems(1100);
    for (size_t i = 0; i < elems.size(); ++i) {
        elems[i] = mca_dte_elem_t{MCA_DTE_OP_BLOCKS, 0, 1, 4, static_cast<int64_t>(8 * i), 0};
    }
    mca_dte_type_desc_t t{};
    t.elems = elems.data();
    t.elem_count = elems.size();
    t.size = 4 * elems.size();
    t.extent = static_cast<int64_t>(8 * elems.size());
    t.true_lb = 0;
    t.true_ub = t.extent - 4;
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
    EXPECT_STREQ(plan->plan_component->base.mca_component_name, "jit");
    EXPECT_EQ(plan->plan_priority, 0);
    std::vector<unsigned char> mem(2 * static_cast<size_t>(t.extent)), out(2 * t.size);
    for (size_t i = 0; i < mem.size(); ++i) {
        mem[i] = static_cast<unsigned char>(i * 13 + 1);
    }
    ASSERT_EQ(plan->plan_pack(plan, mem.data(), 2, 0, out.data(), out.size()), TESSERA_SUCCESS);
    for (size_t i = 0; i < out.size(); ++i) {
        const size_t block = i / 4, at = (block / elems.size()) * static_cast<size_t>(t.extent) + (block % elems.size()) * 8 + i % 4;
        ASSERT_EQ(out[i], mem[at]) << "byte " << i;
    }
    mca_dte_base_plan_release(plan);
}

/* MPI_Type_commit from several threads at once: 8 threads each commit the same four layouts (the same
 * blocks, four extents) over and over, so that one compile serves every thread's plans of a layout and
 * plans come and go while it runs; each thread packs and unpacks with every plan it holds, before and
 * after the code is published. */
TEST_F(DteJitPlan, EightThreadsCommitTheSameAndDifferentLayouts)
{
    set_command_line("dte_jit_verbose", "1");
    StderrFile log;
    constexpr int kThreads = 8, kLayouts = 4, kRounds = 40;
    auto layout = [this](int k) {
        mca_dte_type_desc_t t = type();
        t.extent = 128 + 64 * k;
        return t;
    };
    auto run = [&](bool until_compiled) {
        std::vector<std::thread> threads;
        std::atomic<int> failures{0};
        for (int th = 0; th < kThreads; ++th) {
            threads.emplace_back([&, th] {
                for (int round = 0; round < kRounds; ++round) {
                    mca_dte_plan_t *plans[kLayouts] = {};
                    for (int k = 0; k < kLayouts; ++k) {
                        const int which = (k + th + round) % kLayouts;
                        const mca_dte_type_desc_t t = layout(which);
                        if (mca_dte_base_plan_create(&t, &plans[which]) != TESSERA_SUCCESS) {
                            ++failures;
                        }
                    }
                    for (int k = 0; k < kLayouts; ++k) {
                        if (plans[k] == nullptr) {
                            continue;
                        }
                        check(plans[k], until_compiled ? "compiled, from a thread" : "from a thread",
                              static_cast<size_t>(128 + 64 * k));
                        if (::testing::Test::HasFailure()) {
                            ++failures;
                        }
                        mca_dte_base_plan_release(plans[k]);
                    }
                }
            });
        }
        for (auto &t : threads)
            t.join();
        EXPECT_EQ(failures.load(), 0);
    };
    /* One plan of each layout held throughout: the compiled code stays published. */
    mca_dte_plan_t *held[kLayouts] = {};
    for (int k = 0; k < kLayouts; ++k) {
        const mca_dte_type_desc_t t = layout(k);
        ASSERT_EQ(mca_dte_base_plan_create(&t, &held[k]), TESSERA_SUCCESS);
    }
    run(false);
    /* Compiles only: a plan created after its layout's code was published reports "cached". */
    const std::regex ready_line(R"(dte jit: type [0-9a-f]{8} ready [0-9.]+ ms \(compile [0-9.]+ ms, compiled\))");
    auto ready = [&](const std::string &text) {
        return std::distance(std::sregex_iterator(text.begin(), text.end(), ready_line), std::sregex_iterator());
    };
    std::string err = log.text();
    for (int i = 0; i < 3000 && ready(err) < kLayouts; ++i) {
        std::this_thread::sleep_for(10ms);
        err = log.text();
    }
    std::this_thread::sleep_for(100ms); /* a second compile of one layout would show now */
    err = log.text();
    EXPECT_EQ(ready(err), kLayouts) << "one compile per layout, whatever the threads: " << err;
    run(true);
    for (int k = 0; k < kLayouts; ++k) {
        check(held[k], "held, compiled", static_cast<size_t>(128 + 64 * k));
        mca_dte_base_plan_release(held[k]);
    }
}

TEST_F(DteJitPlan, SelectingInterpLeavesJitOut)
{
    set_command_line("dte", "interp");
    const auto t = type();
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
    EXPECT_STREQ(plan->plan_component->base.mca_component_name, "interp");
    mca_dte_base_plan_release(plan);
}

TEST_F(DteJitPlan, PriorityFromItsParameter)
{
    set_command_line("dte_jit_priority", "5"); /* below interp: interp serves */
    const auto t = type();
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
    EXPECT_STREQ(plan->plan_component->base.mca_component_name, "interp");
    mca_dte_base_plan_release(plan);
}

TEST_F(DteJitPlan, CompileAfterUsesThenVerboseLine)
{
    set_command_line("dte_jit_compile", "uses");
    set_command_line("dte_jit_compile_after", "3");
    set_command_line("dte_jit_verbose", "1");
    StderrFile log;
    const auto t = type();
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
    std::this_thread::sleep_for(200ms);
    EXPECT_EQ(log.text().find("ready"), std::string::npos) << "compiled before use";
    check(plan, "uses"); /* 10 packs and unpacks: the third one queues the compile */
    const std::string err = log.wait_for("ready");
    EXPECT_NE(err.find("compiled)"), std::string::npos) << err;
    check(plan, "compiled after uses");
    mca_dte_base_plan_release(plan);
}

TEST_F(DteJitPlan, FrameworkClosesWithCompilesQueued)
{
    std::vector<mca_dte_plan_t *> plans;
    for (int i = 0; i < 20; ++i) {
        auto t = type();
        t.extent = 128 + 8 * i; /* 20 signatures, 20 compiles */
        mca_dte_plan_t *plan = nullptr;
        ASSERT_EQ(mca_dte_base_plan_create(&t, &plan), TESSERA_SUCCESS);
        plans.push_back(plan);
    }
    for (auto *plan : plans)
        mca_dte_base_plan_release(plan);
    frameworks_finalize(); /* joins the compile thread mid-queue */
    EXPECT_FALSE(framework_is_open(&mca_dte_base_framework));
}

} // namespace
