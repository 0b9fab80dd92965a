// The proc table owns its procs: lookups by name, stable pointers, and nothing left on the heap once
// the table is gone (host names and dynamic endpoint slots included).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "heap_blocks.h"
#include "ompi/proc/endpoint_registry.h"
#include "ompi/proc/proc.h"
#include "ompi/proc/proc_table.h"

namespace {

using tessera::ompi::ProcTable;

void *marker()
{
    static char m;
    return &m;
}

// Fills a table the way add_procs would: host names, a static endpoint and two dynamic endpoints
// registered at different times, so that every proc's dynamic slots were allocated and then grown.
void fill(ProcTable &table, std::uint32_t nprocs, int first_tag, int later_tag)
{
    for (std::uint32_t rank = 0; rank < nprocs; ++rank) {
        tessera_proc_t *proc =
            table.add({42, rank}, "compute-node-with-a-long-host-name-" + std::to_string(rank));
        if (TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0) {
            tessera_proc_endpoint_set(proc, 0, marker());
        }
        if (first_tag >= 0) {
            tessera_proc_endpoint_set(proc, first_tag, marker());
            tessera_proc_endpoint_set(proc, later_tag, marker());
        }
    }
}

TEST(ProcTable, FindsProcsByNameAndKeepsTheirOrder)
{
    ProcTable table;
    tessera_proc_t *a = table.add({5, 0}, "alpha", TESSERA_PROC_IS_SELF | TESSERA_PROC_ON_NODE);
    tessera_proc_t *b = table.add({5, 1}, "beta", TESSERA_PROC_ON_NODE);
    tessera_proc_t *c = table.add({6, 0}, "gamma");
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_NE(c, nullptr);

    EXPECT_EQ(table.size(), 3u);
    EXPECT_EQ(table.find({5, 1}), b);
    EXPECT_EQ(table.find({6, 0}), c);
    EXPECT_EQ(table.find({6, 1}), nullptr);
    EXPECT_EQ(table.at(0), a);
    EXPECT_EQ(table.at(2), c);
    EXPECT_EQ(table.at(3), nullptr);
    EXPECT_STREQ(b->proc_hostname, "beta");
    EXPECT_EQ(a->proc_flags, TESSERA_PROC_IS_SELF | TESSERA_PROC_ON_NODE);
    EXPECT_TRUE(tessera_proc_name_equal(c->proc_name, tessera_proc_name_t{6, 0}));

    // A name is in the table once; the first proc stays.
    EXPECT_EQ(table.add({5, 1}, "other"), nullptr);
    EXPECT_EQ(table.size(), 3u);
    EXPECT_STREQ(table.find({5, 1})->proc_hostname, "beta");
}

TEST(ProcTable, ProcsDoNotMoveWhenTheTableGrows)
{
    ProcTable table;
    tessera_proc_t *first = table.add({1, 0}, "n0");
    for (std::uint32_t rank = 1; rank < 4096; ++rank) {
        table.add({1, rank}, "n");
    }
    EXPECT_EQ(table.find({1, 0}), first);
    EXPECT_STREQ(first->proc_hostname, "n0");
}

TEST(ProcTable, MovingTheTableMovesOwnership)
{
    ProcTable table;
    tessera_proc_t *proc = table.add({2, 0}, "n0");
    ProcTable moved(std::move(table));
    EXPECT_EQ(moved.find({2, 0}), proc);
    EXPECT_STREQ(proc->proc_hostname, "n0");
}

TEST(ProcTable, DestroyingOrClearingTheTableFreesEverything)
{
    if (!heap_blocks_counted()) {
        GTEST_SKIP() << "heap blocks are not counted in this build: " << heap_blocks_why_not();
    }
    int first_tag = -1;
    int later_tag = -1;
#if TESSERA_DYNAMIC_ENDPOINTS
    // Registered up front: tag names live as long as the process, and are not the table's to free.
    first_tag = tessera_endpoint_tag_register("PROC_TABLE_TEST_FIRST");
    later_tag = tessera_endpoint_tag_register("PROC_TABLE_TEST_LATER");
    ASSERT_GE(first_tag, 0);
    ASSERT_GE(later_tag, 0);
#endif
    constexpr std::uint32_t kProcs = 4096;
    {
        ProcTable warm_up; // anything allocated once per process happens here, outside the count
        fill(warm_up, 16, first_tag, later_tag);
    }

    long before = heap_blocks_live();
    long while_full = 0;
    {
        ProcTable table;
        fill(table, kProcs, first_tag, later_tag);
        while_full = heap_blocks_live();
    }
    long after_destroy = heap_blocks_live();

    ProcTable cleared;
    fill(cleared, kProcs, first_tag, later_tag);
    cleared.clear();
    // clear() may keep the table's own arrays, but no proc, host name or dynamic slot array.
    long after_clear = heap_blocks_live();
    cleared = ProcTable();
    long after_reset = heap_blocks_live();

    if (while_full == before) {
        GTEST_SKIP() << "malloc is replaced by a tool (valgrind, a sanitizer): let it check for leaks";
    }
    // Per proc at least: the proc, its host name and (with dynamic endpoints) its dynamic slots.
    long per_proc = 2 + TESSERA_DYNAMIC_ENDPOINTS;
    EXPECT_GE(while_full - before, kProcs * per_proc) << "the test did not see the table allocate";
    EXPECT_EQ(after_destroy - before, 0) << "heap blocks left after ~ProcTable";
    EXPECT_LT(after_clear - before, kProcs) << "clear() kept the procs";
    EXPECT_EQ(after_reset - before, 0) << "heap blocks left after clear() and reset";
}

} // namespace
