// The endpoint slots of a proc: static tags are plain slot reads, dynamic tags live behind the last
// slot, which is allocated on first use and grown for tags registered later.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "ompi/proc/endpoint_registry.h"
#include "ompi/proc/proc.h"
#include "ompi/proc/proc_table.h"

extern "C" {
std::size_t proc_c_sizeof_proc(void);
std::size_t proc_c_offsetof_endpoints(void);
void *proc_c_endpoint_get(const tessera_proc_t *proc, int tag);
int proc_c_endpoint_set(tessera_proc_t *proc, int tag, void *endpoint);
void *field_read_plain(const void *proc);
void *field_read_slot(const void *proc);
int field_read_tag(void);
}

namespace {

using tessera::ompi::make_proc;

void *marker(int i)
{
    static char markers[64];
    return &markers[i];
}

#if TESSERA_DYNAMIC_ENDPOINTS
// A fresh tag name per call, so the tests do not depend on the order they run in.
int new_dynamic_tag()
{
    static int n = 0;
    return tessera_endpoint_tag_register(("PROC_TEST_DYN_" + std::to_string(n++)).c_str());
}
#endif

void *dynamic_slot(const tessera_proc_t *proc)
{
#if TESSERA_DYNAMIC_ENDPOINTS
    return proc->proc_endpoint[TESSERA_ENDPOINT_DYNAMIC_SLOT];
#else
    (void)proc;
    return nullptr;
#endif
}

TEST(ProcEndpoint, SlotArrayHasOneSlotPerStaticTagPlusTheDynamicOne)
{
    int expected = TESSERA_ENDPOINT_TAG_STATIC_COUNT + TESSERA_DYNAMIC_ENDPOINTS;
    EXPECT_EQ(TESSERA_ENDPOINT_SLOTS, expected == 0 ? 1 : expected);
    EXPECT_EQ(sizeof(tessera_proc_t),
              offsetof(tessera_proc_t, proc_endpoint) + TESSERA_ENDPOINT_SLOTS * sizeof(void *));
    // C components see the same layout.
    EXPECT_EQ(proc_c_sizeof_proc(), sizeof(tessera_proc_t));
    EXPECT_EQ(proc_c_offsetof_endpoints(), offsetof(tessera_proc_t, proc_endpoint));
}

TEST(ProcEndpoint, StaticTagLookupIsTheSlotRead)
{
    if (TESSERA_ENDPOINT_TAG_STATIC_COUNT == 0) {
        GTEST_SKIP() << "no component of this build claims a compile-time tag";
    }
    auto proc = make_proc({1, 0}, "host0");
    for (int tag = 0; tag < TESSERA_ENDPOINT_TAG_STATIC_COUNT; ++tag) {
        EXPECT_EQ(proc->proc_endpoint[tag], nullptr);
        ASSERT_EQ(tessera_proc_endpoint_set(proc.get(), tag, marker(tag)), TESSERA_SUCCESS);
        EXPECT_EQ(proc->proc_endpoint[tag], marker(tag)) << "tag " << tag;
        proc->proc_endpoint[tag] = marker(tag + 1);
        EXPECT_EQ(tessera_proc_endpoint_get(proc.get(), tag), marker(tag + 1)) << "tag " << tag;
        EXPECT_EQ(proc_c_endpoint_get(proc.get(), tag), marker(tag + 1)) << "tag " << tag;
    }
    EXPECT_EQ(dynamic_slot(proc.get()), nullptr) << "a static store must not allocate dynamic slots";
#ifdef TESSERA_ENDPOINT_TAG_BTL
    EXPECT_EQ(&TESSERA_PROC_ENDPOINT(proc.get(), BTL), &proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL]);
#endif
}

TEST(ProcEndpoint, StaticLookupCompilesToTheInstructionsOfAFieldRead)
{
#if defined(__x86_64__)
    // Same offset, so the same load: compare the two out-of-line functions up to their ret (0xc3).
    const auto *plain = reinterpret_cast<const unsigned char *>(&field_read_plain);
    const auto *slot = reinterpret_cast<const unsigned char *>(&field_read_slot);
    std::size_t n = 0;
    while (n < 64 && plain[n] != 0xc3) {
        ++n;
    }
    ASSERT_LT(n, 64u) << "field_read_plain has no ret in its first 64 bytes";
    EXPECT_EQ(std::memcmp(plain, slot, n + 1), 0)
        << "tag " << field_read_tag() << ": the slot read differs from the field read";
    tessera_proc_t proc{};
    proc.proc_endpoint[field_read_tag()] = marker(3);
    EXPECT_EQ(field_read_slot(&proc), marker(3));
#else
    GTEST_SKIP() << "instruction comparison is written for x86-64";
#endif
}

TEST(ProcEndpoint, DynamicSlotsAreAllocatedOnFirstStore)
{
#if TESSERA_DYNAMIC_ENDPOINTS
    int tag = new_dynamic_tag();
    ASSERT_GE(tag, TESSERA_ENDPOINT_TAG_STATIC_COUNT);
    auto proc = make_proc({1, 1}, "host1");

    EXPECT_EQ(tessera_proc_endpoint_get(proc.get(), tag), nullptr);
    EXPECT_EQ(dynamic_slot(proc.get()), nullptr);
    // Storing NULL where nothing was stored changes nothing, so it allocates nothing.
    EXPECT_EQ(tessera_proc_endpoint_set(proc.get(), tag, nullptr), TESSERA_SUCCESS);
    EXPECT_EQ(dynamic_slot(proc.get()), nullptr);
    EXPECT_EQ(tessera_proc_endpoint_dynamic_slots(proc.get()), 0u);

    ASSERT_EQ(tessera_proc_endpoint_set(proc.get(), tag, marker(1)), TESSERA_SUCCESS);
    EXPECT_NE(dynamic_slot(proc.get()), nullptr);
    EXPECT_EQ(tessera_proc_endpoint_get(proc.get(), tag), marker(1));
    EXPECT_EQ(proc_c_endpoint_get(proc.get(), tag), marker(1));
    // Sized to every dynamic tag registered so far.
    EXPECT_EQ(tessera_proc_endpoint_dynamic_slots(proc.get()),
              static_cast<std::size_t>(tessera_endpoint_tag_count() - TESSERA_ENDPOINT_TAG_STATIC_COUNT));
    for (int t = 0; t < TESSERA_ENDPOINT_TAG_STATIC_COUNT; ++t) {
        EXPECT_EQ(proc->proc_endpoint[t], nullptr) << "a dynamic store wrote static slot " << t;
    }
#else
    GTEST_SKIP() << "built with TESSERA_DYNAMIC_ENDPOINTS=OFF";
#endif
}

TEST(ProcEndpoint, DynamicSlotsGrowForTagsRegisteredLater)
{
#if TESSERA_DYNAMIC_ENDPOINTS
    int first = new_dynamic_tag();
    auto proc = make_proc({1, 2}, "host2");
    ASSERT_EQ(tessera_proc_endpoint_set(proc.get(), first, marker(1)), TESSERA_SUCCESS);
    std::size_t before = tessera_proc_endpoint_dynamic_slots(proc.get());

    int later = new_dynamic_tag();
    ASSERT_EQ(later, first + 1);
    EXPECT_EQ(tessera_proc_endpoint_get(proc.get(), later), nullptr) << "not stored yet";
    EXPECT_EQ(tessera_proc_endpoint_dynamic_slots(proc.get()), before) << "registering allocates nothing";

    ASSERT_EQ(proc_c_endpoint_set(proc.get(), later, marker(2)), TESSERA_SUCCESS);
    EXPECT_EQ(tessera_proc_endpoint_dynamic_slots(proc.get()), before + 1);
    EXPECT_EQ(tessera_proc_endpoint_get(proc.get(), later), marker(2));
    EXPECT_EQ(tessera_proc_endpoint_get(proc.get(), first), marker(1)) << "growing lost an endpoint";

    // A proc whose first dynamic store is the later tag gets room for it at once.
    auto other = make_proc({1, 3}, "host3");
    ASSERT_EQ(tessera_proc_endpoint_set(other.get(), later, marker(4)), TESSERA_SUCCESS);
    EXPECT_EQ(tessera_proc_endpoint_get(other.get(), later), marker(4));
    EXPECT_EQ(tessera_proc_endpoint_get(other.get(), first), nullptr);
#else
    GTEST_SKIP() << "built with TESSERA_DYNAMIC_ENDPOINTS=OFF";
#endif
}

TEST(ProcEndpoint, TagsNotHandedOutAreRejected)
{
    auto proc = make_proc({1, 4}, "");
    int unknown = tessera_endpoint_tag_count();
    EXPECT_EQ(tessera_proc_endpoint_set(proc.get(), unknown, marker(1)), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(tessera_proc_endpoint_set(proc.get(), -1, marker(1)), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(tessera_proc_endpoint_set(nullptr, 0, marker(1)), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(tessera_proc_endpoint_get(proc.get(), unknown), nullptr);
    EXPECT_EQ(tessera_proc_endpoint_get(proc.get(), -1), nullptr);
    EXPECT_EQ(dynamic_slot(proc.get()), nullptr);
    EXPECT_EQ(proc->proc_hostname, nullptr) << "an empty host name means unknown";
}

TEST(ProcEndpoint, CreateCopiesNameHostAndFlags)
{
    std::string host = "node17";
    tessera_proc_t *proc = tessera_proc_create({7, 3}, host.c_str(), TESSERA_PROC_ON_NODE);
    ASSERT_NE(proc, nullptr);
    host = "overwritten";
    EXPECT_STREQ(proc->proc_hostname, "node17");
    EXPECT_EQ(proc->proc_name.jobid, 7u);
    EXPECT_EQ(proc->proc_name.rank, 3u);
    EXPECT_EQ(proc->proc_flags, TESSERA_PROC_ON_NODE);
    for (void *slot : proc->proc_endpoint) {
        EXPECT_EQ(slot, nullptr);
    }
    tessera_proc_destroy(proc);
    tessera_proc_destroy(nullptr); // allowed, like free()

    tessera_proc_t *anonymous = tessera_proc_create({7, 4}, nullptr, 0);
    ASSERT_NE(anonymous, nullptr);
    EXPECT_EQ(anonymous->proc_hostname, nullptr);
    tessera_proc_destroy(anonymous);
}

} // namespace
