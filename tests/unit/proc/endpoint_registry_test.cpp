// Tags handed out at run time to DSO components: one tag per name, shared with the built-in tag of
// the same name, refused clearly when the build has no dynamic slot.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "mca/report.h"
#include "ompi/proc/endpoint_registry.h"

namespace {

bool reported_error_containing(const std::string &text)
{
    for (const std::string &message : tessera::mca::reported(tessera::mca::Severity::Error)) {
        if (message.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

class EndpointRegistry : public ::testing::Test {
protected:
    void SetUp() override
    {
        tessera::mca::report_set_print(false);
        tessera::mca::report_clear();
    }
    void TearDown() override { tessera::mca::report_set_print(true); }
};

TEST_F(EndpointRegistry, StaticNamesGiveTheirStaticTag)
{
    if (TESSERA_ENDPOINT_TAG_STATIC_COUNT == 0) {
        GTEST_SKIP() << "no component of this build claims a compile-time tag";
    }
    for (int tag = 0; tag < TESSERA_ENDPOINT_TAG_STATIC_COUNT; ++tag) {
        const char *name = tessera_endpoint_tag_name(tag);
        ASSERT_NE(name, nullptr) << "tag " << tag;
        EXPECT_EQ(tessera_endpoint_tag_register(name), tag) << name;
        std::string lower = name;
        for (char &c : lower) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        EXPECT_EQ(tessera_endpoint_tag_register(lower.c_str()), tag) << lower;
    }
#ifdef TESSERA_ENDPOINT_TAG_BTL
    EXPECT_EQ(tessera_endpoint_tag_register("BTL"), TESSERA_ENDPOINT_TAG_BTL);
    EXPECT_STREQ(tessera_endpoint_tag_name(TESSERA_ENDPOINT_TAG_BTL), "BTL");
#endif
}

#if TESSERA_DYNAMIC_ENDPOINTS

TEST_F(EndpointRegistry, SameNameGivesTheSameTag)
{
    int count = tessera_endpoint_tag_count();
    int tag = tessera_endpoint_tag_register("registry_test_portals");
    ASSERT_GE(tag, TESSERA_ENDPOINT_TAG_STATIC_COUNT);
    EXPECT_EQ(tessera_endpoint_tag_count(), count + 1);
    // A btl, an osc and a coll component of one network share the tag, whatever case they spell it in.
    EXPECT_EQ(tessera_endpoint_tag_register("registry_test_portals"), tag);
    EXPECT_EQ(tessera_endpoint_tag_register("REGISTRY_TEST_PORTALS"), tag);
    EXPECT_EQ(tessera_endpoint_tag_count(), count + 1);
    EXPECT_STREQ(tessera_endpoint_tag_name(tag), "REGISTRY_TEST_PORTALS");
}

TEST_F(EndpointRegistry, DifferentNamesGiveDifferentTagsInOrder)
{
    int ucx = tessera_endpoint_tag_register("REGISTRY_TEST_UCX");
    int ofi = tessera_endpoint_tag_register("REGISTRY_TEST_OFI");
    ASSERT_GE(ucx, TESSERA_ENDPOINT_TAG_STATIC_COUNT);
    EXPECT_EQ(ofi, ucx + 1);
    EXPECT_EQ(tessera_endpoint_tag_count(), ofi + 1);
    EXPECT_STREQ(tessera_endpoint_tag_name(ucx), "REGISTRY_TEST_UCX");
    EXPECT_STREQ(tessera_endpoint_tag_name(ofi), "REGISTRY_TEST_OFI");
}

TEST_F(EndpointRegistry, ConcurrentRegistrationAgreesOnTags)
{
    constexpr int kThreads = 8;
    constexpr int kNames = 64;
    std::vector<std::vector<int>> tags(kThreads, std::vector<int>(kNames));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([t, &tags] {
            for (int i = 0; i < kNames; ++i) {
                // Threads walk the names in different orders, and read names while others register.
                int n = (i * (2 * t + 1)) % kNames;
                tags[t][n] = tessera_endpoint_tag_register(("REGISTRY_TEST_RACE_" + std::to_string(n)).c_str());
                (void)tessera_endpoint_tag_name(tessera_endpoint_tag_count() - 1);
            }
        });
    }
    for (std::thread &thread : threads) {
        thread.join();
    }
    std::set<int> distinct;
    for (int n = 0; n < kNames; ++n) {
        for (int t = 1; t < kThreads; ++t) {
            EXPECT_EQ(tags[t][n], tags[0][n]) << "name " << n << " thread " << t;
        }
        EXPECT_GE(tags[0][n], TESSERA_ENDPOINT_TAG_STATIC_COUNT);
        EXPECT_EQ(tessera_endpoint_tag_name(tags[0][n]), "REGISTRY_TEST_RACE_" + std::to_string(n));
        distinct.insert(tags[0][n]);
    }
    EXPECT_EQ(distinct.size(), static_cast<std::size_t>(kNames));
}

TEST_F(EndpointRegistry, RunningOutOfTagsIsAnError)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // In a child process, so that the tags it uses up stay available to the other tests.
    EXPECT_EXIT(
        {
            int last = 0;
            for (int i = 0; last >= 0; ++i) {
                last = tessera_endpoint_tag_register(("REGISTRY_TEST_FILL_" + std::to_string(i)).c_str());
            }
            bool ok = last == TESSERA_ERR_OUT_OF_RESOURCE &&
                      tessera_endpoint_tag_count() ==
                          TESSERA_ENDPOINT_TAG_STATIC_COUNT + TESSERA_ENDPOINT_MAX_DYNAMIC_TAGS &&
                      reported_error_containing("no dynamic endpoint tag left");
            std::exit(ok ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
}

#else // !TESSERA_DYNAMIC_ENDPOINTS

TEST_F(EndpointRegistry, NewNamesAreRefusedWithoutDynamicEndpoints)
{
    int count = tessera_endpoint_tag_count();
    EXPECT_EQ(tessera_endpoint_tag_register("REGISTRY_TEST_PORTALS"), TESSERA_ERR_NOT_SUPPORTED);
    EXPECT_EQ(tessera_endpoint_tag_count(), count);
    EXPECT_TRUE(reported_error_containing("REGISTRY_TEST_PORTALS"));
    EXPECT_TRUE(reported_error_containing("TESSERA_DYNAMIC_ENDPOINTS=OFF"));
}

#endif

TEST_F(EndpointRegistry, NamesThatAreNotIdentifiersAreRefused)
{
    int count = tessera_endpoint_tag_count();
    EXPECT_EQ(tessera_endpoint_tag_register(nullptr), TESSERA_ERR_BAD_PARAM);
    for (const char *bad : {"", "9LIVES", "_X", "has-dash", "has space", "tcp.v2"}) {
        tessera::mca::report_clear();
        EXPECT_EQ(tessera_endpoint_tag_register(bad), TESSERA_ERR_BAD_PARAM) << '"' << bad << '"';
        EXPECT_TRUE(reported_error_containing(std::string("\"") + bad + "\"")) << '"' << bad << '"';
    }
    EXPECT_EQ(tessera_endpoint_tag_count(), count);
}

TEST_F(EndpointRegistry, TagsOutsideTheRegistryHaveNoName)
{
    EXPECT_EQ(tessera_endpoint_tag_name(-1), nullptr);
    EXPECT_EQ(tessera_endpoint_tag_name(tessera_endpoint_tag_count()), nullptr);
    EXPECT_GE(tessera_endpoint_tag_count(), TESSERA_ENDPOINT_TAG_STATIC_COUNT);
}

} // namespace
