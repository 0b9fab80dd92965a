/* dte jit: when and where types are compiled. dte_jit_compile_bytes queues a type under
 * dte_jit_compile=uses by the bytes it carries, and moves a type that carries data ahead of the types
 * queued before it; dte_jit_unbind lets the compile thread leave the CPU a bound process runs on. */
#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "dte_jit_test_util.h"

namespace dte_jit_test {
namespace {

TEST_F(DteJit, CompileUsesQueuesATypeByTheBytesItCarries)
{
    jit::params.compile = jit::kCompileUses;
    jit::params.compile_after = 1 << 30; /* only the bytes can queue it */
    Generator gen(99);
    std::vector<mca_dte_elem_t> elems;
    const auto t = gen.type(&elems, 2);
    ASSERT_GT(t.size, 0u);
    const size_t count = 3;
    jit::params.compile_bytes = 4 * count * t.size; /* the 4th pack reaches it */
    mca_dte_plan_t *plan = nullptr;
    ASSERT_EQ(jit::plan_create(&t, &plan), TESSERA_SUCCESS);
    auto code = jit::plan_code(plan);
    Buffer src(t, count, gen.rng());
    std::vector<char> out(count * t.size);
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(plan->plan_pack(plan, src.base, count, 0, out.data(), out.size()), TESSERA_SUCCESS);
    EXPECT_FALSE(code->requested.load());
    EXPECT_EQ(code->interpreted.load(), 3 * count * t.size);
    ASSERT_EQ(plan->plan_pack(plan, src.base, count, 0, out.data(), out.size()), TESSERA_SUCCESS);
    EXPECT_TRUE(code->requested.load());
    EXPECT_TRUE(code->wait_done(30s));
    EXPECT_TRUE(code->ready());
    ASSERT_EQ(plan->plan_pack(plan, src.base, count, 0, out.data(), out.size()), TESSERA_SUCCESS);
    EXPECT_EQ(out, reference_pack(t, src.base, 0, count));
    code.reset();
    mca_dte_base_plan_release(plan);
}

/* Thirty types queued, the last one having carried data: it is compiled before most of those queued
 * ahead of it (the first may be in flight already, a second may start before the last is queued). */
TEST_F(DteJit, ATypeCarryingDataIsCompiledAheadOfTheQueue)
{
    jit::params.compile_bytes = 1000;
    Generator gen(7);
    std::vector<std::vector<mca_dte_elem_t>> storage(30);
    std::vector<std::shared_ptr<jit::CodeEntry>> entries;
    for (size_t i = 0; i < storage.size(); ++i) {
        const auto t = gen.type(&storage[i], 3);
        bool hit = false;
        auto entry = jit::cache_acquire(&t, &hit);
        ASSERT_NE(entry, nullptr);
        if (hit)
            continue; /* an equal type: one entry */
        if (i + 1 == storage.size())
            entry->interpreted.store(1000); /* what its plans would have counted */
        jit::compiler_submit(entry);
        entries.push_back(entry);
    }
    ASSERT_GE(entries.size(), 20u);
    const auto hot = entries.back();
    /* Its pack and unpack, not wait_done: its paced code, if any, waits behind every other type. */
    for (int i = 0; i < 60000 && !hot->ready(); ++i)
        std::this_thread::sleep_for(1ms);
    ASSERT_TRUE(hot->ready());
    size_t before = 0;
    for (const auto &e : entries)
        before += e != hot && e->ready();
    EXPECT_LE(before, 3u) << "types compiled before the one carrying data";
    for (const auto &e : entries)
        EXPECT_TRUE(e->wait_done(60s));
}

/* The CPUs of every thread of this process, as /proc says them ("0", "0-1", ...). */
std::vector<std::string> thread_cpus()
{
    std::vector<std::string> lists;
    DIR *dir = opendir("/proc/self/task");
    if (dir == nullptr)
        return lists;
    while (const dirent *d = readdir(dir)) {
        if (d->d_name[0] == '.')
            continue;
        std::ifstream status(std::string("/proc/self/task/") + d->d_name + "/status");
        for (std::string line; std::getline(status, line);)
            if (line.rfind("Cpus_allowed_list:", 0) == 0)
                lists.push_back(line.substr(line.find_first_not_of(" \t", 18)));
    }
    closedir(dir);
    return lists;
}

/* A process bound to one CPU (as mpirun --bind-to core does) compiles on any CPU with dte_jit_unbind,
 * on that CPU only without it. */
TEST_F(DteJit, CompileThreadLeavesTheBoundCpuOnlyWhenUnbound)
{
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        GTEST_SKIP() << "one CPU: nothing to leave for";
    cpu_set_t saved;
    ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
    int first = 0;
    while (first < CPU_SETSIZE && !CPU_ISSET(first, &saved))
        ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    const std::string bound = std::to_string(first);
    for (bool unbind : {true, false}) {
        SCOPED_TRACE(unbind ? "unbind" : "bound");
        jit::compiler_stop(); /* a new loader and compile thread, started from this bound thread */
        jit::params.unbind = unbind;
        ASSERT_EQ(jit::compiler_start(), TESSERA_SUCCESS);
        ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
        Generator gen(unbind ? 11 : 12);
        std::vector<mca_dte_elem_t> elems;
        const auto t = gen.type(&elems, 2);
        const auto entry = compile(t);
        ASSERT_NE(entry, nullptr);
        EXPECT_TRUE(entry->ready());
        const auto lists = thread_cpus(); /* this thread's too, still bound */
        ASSERT_EQ(sched_setaffinity(0, sizeof saved, &saved), 0);
        ASSERT_GE(lists.size(), 2u) << "this thread and the compile thread";
        const auto wider = std::count_if(lists.begin(), lists.end(), [&](const std::string &l) { return l != bound; });
        if (unbind)
            EXPECT_GE(wider, 1) << "the compile thread runs on the bound CPU only";
        else
            EXPECT_EQ(wider, 0) << "a thread left the bound CPU without dte_jit_unbind";
    }
}

} // namespace
} // namespace dte_jit_test
