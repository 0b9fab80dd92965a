// The loader's checks on a component struct, each refusal naming both values.
#include <gtest/gtest.h>

#include <cstring>

#include "mca/component_check.h"
#include "testfw.h"

using tessera::mca::check_component;

namespace {

mca_base_framework_t framework()
{
    mca_base_framework_t fw{};
    fw.name = "testfw";
    fw.version = TESTFW_VERSION;
    fw.component_struct_size = sizeof(testfw_component_t);
    return fw;
}

mca_base_component_t valid(const char *name = "tcp")
{
    mca_base_component_t c{};
    c.mca_magic = MCA_BASE_MAGIC;
    c.mca_struct_size = sizeof(testfw_component_t);
    c.mca_version = {MCA_BASE_VERSION_MAJOR, MCA_BASE_VERSION_MINOR, MCA_BASE_VERSION_RELEASE};
    std::strcpy(c.mca_build_id, TESSERA_BUILD_ID);
    std::strcpy(c.mca_framework_name, "testfw");
    c.mca_framework_version = TESTFW_VERSION;
    std::strcpy(c.mca_component_name, name);
    return c;
}

std::string refusal(const mca_base_component_t &c, const char *expected_name = "tcp")
{
    const auto fw = framework();
    const auto why = check_component(c, fw, expected_name);
    return why.value_or("");
}

} // namespace

TEST(McaFwCheck, AcceptsAMatchingComponent)
{
    EXPECT_EQ(refusal(valid()), "");
}

TEST(McaFwCheck, AcceptsAnOlderMinorOfBothVersions)
{
    auto c = valid();
    c.mca_framework_version.minor = 0;
    c.mca_framework_version.release = 7;
    EXPECT_EQ(refusal(c), "");
}

TEST(McaFwCheck, RefusesAWrongMagic)
{
    auto c = valid();
    c.mca_magic = 0xdeadbeef;
    EXPECT_EQ(refusal(c), "not a Tessera component (magic 0xdeadbeef, expected 0x54535241)");
}

TEST(McaFwCheck, RefusesAnotherMcaMajor)
{
    auto c = valid();
    c.mca_version = {MCA_BASE_VERSION_MAJOR + 1, 0, 0};
    EXPECT_EQ(refusal(c), "built for MCA 2.0.0, this library is MCA 1.0.0");
}

TEST(McaFwCheck, RefusesANewerMcaMinor)
{
    auto c = valid();
    c.mca_version.minor = MCA_BASE_VERSION_MINOR + 1;
    EXPECT_EQ(refusal(c), "built for MCA 1.1.0, this library is MCA 1.0.0");
}

TEST(McaFwCheck, RefusesAnotherBuildId)
{
    auto c = valid();
    std::strcpy(c.mca_build_id, "9.9.9-0123456789abcdef");
    const std::string why = refusal(c);
    EXPECT_NE(why.find("\"9.9.9-0123456789abcdef\""), std::string::npos) << why;
    EXPECT_NE(why.find(std::string("\"") + TESSERA_BUILD_ID + "\""), std::string::npos) << why;
}

TEST(McaFwCheck, ReadsUnterminatedNamesSafely)
{
    auto c = valid();
    std::memset(c.mca_build_id, 'x', sizeof c.mca_build_id); // no NUL anywhere
    const std::string why = refusal(c);
    EXPECT_NE(why.find(std::string(sizeof c.mca_build_id, 'x') + "\""), std::string::npos) << why;
}

TEST(McaFwCheck, RefusesAnotherFramework)
{
    auto c = valid();
    std::strcpy(c.mca_framework_name, "btl");
    EXPECT_EQ(refusal(c), "the component is for framework \"btl\", its file name says framework \"testfw\"");
}

TEST(McaFwCheck, RefusesAnotherFrameworkMajorOrNewerMinor)
{
    auto c = valid();
    c.mca_framework_version = {2, 0, 0};
    EXPECT_EQ(refusal(c), "built for testfw framework API 2.0.0, this library has testfw framework API 1.2.0");
    c.mca_framework_version = {1, 3, 0};
    EXPECT_EQ(refusal(c), "built for testfw framework API 1.3.0, this library has testfw framework API 1.2.0");
}

TEST(McaFwCheck, RefusesANameThatDiffersFromTheFileName)
{
    EXPECT_EQ(refusal(valid("tcp2"), "tcp"), "the component calls itself \"tcp2\", its file name says \"tcp\"");
}

TEST(McaFwCheck, RefusesAStructSmallerThanTheFrameworks)
{
    auto c = valid();
    c.mca_struct_size = sizeof(mca_base_component_t);
    EXPECT_EQ(refusal(c), "component struct is " + std::to_string(sizeof(mca_base_component_t)) +
                              " bytes, the testfw framework needs at least " +
                              std::to_string(sizeof(testfw_component_t)) + " bytes");
}
