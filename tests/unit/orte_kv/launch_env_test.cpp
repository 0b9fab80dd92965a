// A rank's launch environment: a complete one is read, an absent one is a singleton, and each
// malformed variable is an error that names it. Plus the --mca encoding that carries any byte.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "orte/runtime/launch_env.h"

namespace {

namespace orte = tessera::orte;

const char *const kAllVars[] = {orte::kEnvJobId,     orte::kEnvRank,   orte::kEnvSize,      orte::kEnvLocalRank,
                                orte::kEnvLocalSize, orte::kEnvNodeId, orte::kEnvHost,      orte::kEnvKvUri,
                                orte::kEnvJobKey,    orte::kEnvBind,   orte::kEnvCmdlineMca, orte::kEnvCmdlineTune,
                                orte::kEnvUniverseSize, orte::kEnvAppnum};

const std::string kKey = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

// Each test starts from an environment without any TESSERA_ launch variable and gives back the
// one it found.
class LaunchEnv : public ::testing::Test {
protected:
    void SetUp() override
    {
        for (const char *name : kAllVars) {
            if (const char *v = std::getenv(name)) {
                saved_[name] = v;
            }
            ::unsetenv(name);
        }
    }
    void TearDown() override
    {
        for (const char *name : kAllVars) {
            ::unsetenv(name);
        }
        for (const auto &[name, value] : saved_) {
            ::setenv(name.c_str(), value.c_str(), 1);
        }
    }

    static void set_good()
    {
        ::setenv(orte::kEnvJobId, "4000000000", 1);
        ::setenv(orte::kEnvRank, "5", 1);
        ::setenv(orte::kEnvSize, "8", 1);
        ::setenv(orte::kEnvLocalRank, "1", 1);
        ::setenv(orte::kEnvLocalSize, "4", 1);
        ::setenv(orte::kEnvNodeId, "1", 1);
        ::setenv(orte::kEnvHost, "127.0.0.2", 1);
        ::setenv(orte::kEnvKvUri, "127.0.0.1:40123", 1);
        ::setenv(orte::kEnvJobKey, kKey.c_str(), 1);
        ::setenv(orte::kEnvBind, "2,3", 1);
        ::unsetenv(orte::kEnvCmdlineMca);
        ::unsetenv(orte::kEnvCmdlineTune);
        ::unsetenv(orte::kEnvUniverseSize);
        ::unsetenv(orte::kEnvAppnum);
    }

    // read_launch_env fails, and its message names `name` (and `shows`, when given).
    static void expect_error(const char *name, const std::string &shows = "")
    {
        std::string error;
        auto info = orte::read_launch_env(&error);
        EXPECT_FALSE(info) << name;
        EXPECT_NE(error.find(name), std::string::npos) << error;
        if (!shows.empty()) {
            EXPECT_NE(error.find(shows), std::string::npos) << error;
        }
    }

private:
    std::map<std::string, std::string> saved_;
};

TEST_F(LaunchEnv, ACompleteEnvironmentIsRead)
{
    set_good();
    std::string error;
    auto info = orte::read_launch_env(&error);
    ASSERT_TRUE(info) << error;
    EXPECT_FALSE(info->singleton);
    EXPECT_EQ(info->jobid, 4000000000u);
    EXPECT_EQ(info->rank, 5);
    EXPECT_EQ(info->size, 8);
    EXPECT_EQ(info->local_rank, 1);
    EXPECT_EQ(info->local_size, 4);
    EXPECT_EQ(info->node_id, 1);
    EXPECT_EQ(info->host, "127.0.0.2");
    EXPECT_EQ(info->kv_uri, "127.0.0.1:40123");
    EXPECT_EQ(info->job_key, kKey);
    EXPECT_EQ(info->bind, "2,3");
    EXPECT_EQ(info->universe_size, 8); // the size when the launcher gives no universe
    EXPECT_EQ(info->appnum, 0);
}

TEST_F(LaunchEnv, OptionalVariablesAndOtherForms)
{
    set_good();
    ::unsetenv(orte::kEnvBind);
    ::setenv(orte::kEnvKvUri, "[::1]:7", 1);
    ::setenv(orte::kEnvCmdlineMca, orte::encode_cmdline_mca({{"btl", "tcp,self"}}).c_str(), 1);
    ::setenv(orte::kEnvCmdlineTune, "/a.conf:/b.conf", 1);
    std::string error;
    auto info = orte::read_launch_env(&error);
    ASSERT_TRUE(info) << error;
    EXPECT_EQ(info->bind, "");
    EXPECT_EQ(info->kv_uri, "[::1]:7");

    for (const char *bind : {"none", "0", "0-3,8,10-11", ""}) {
        ::setenv(orte::kEnvBind, bind, 1);
        info = orte::read_launch_env(&error);
        ASSERT_TRUE(info) << bind << ": " << error;
        EXPECT_EQ(info->bind, bind);
    }
    ::setenv(orte::kEnvKvUri, "node17.cluster:65535", 1);
    EXPECT_TRUE(orte::read_launch_env(&error)) << error;

    ::setenv(orte::kEnvUniverseSize, "12", 1);
    ::setenv(orte::kEnvAppnum, "2", 1);
    info = orte::read_launch_env(&error);
    ASSERT_TRUE(info) << error;
    EXPECT_EQ(info->universe_size, 12);
    EXPECT_EQ(info->appnum, 2);
}

// mpirun's --mca and --tune settings, decoded by the one function both the launch check and the rank
// that applies them use; also without the rest of the launch environment (another runtime's launcher).
TEST_F(LaunchEnv, LauncherSettingsAreDecodedInOnePlace)
{
    ::setenv(orte::kEnvCmdlineMca, orte::encode_cmdline_mca({{"btl", "tcp,self"}, {"x", "a=b"}}).c_str(), 1);
    ::setenv(orte::kEnvCmdlineTune, "/a.conf:/b.conf", 1);
    std::string error;
    auto settings = orte::read_launcher_settings(&error);
    ASSERT_TRUE(settings) << error;
    EXPECT_EQ(settings->mca, (std::vector<std::pair<std::string, std::string>>{{"btl", "tcp,self"}, {"x", "a=b"}}));
    EXPECT_EQ(settings->tune_files, (std::vector<std::string>{"/a.conf", "/b.conf"}));
    for (const char *tune : {":/a.conf", "/a.conf:", "/a.conf::/b.conf", ":"}) {
        ::setenv(orte::kEnvCmdlineTune, tune, 1);
        EXPECT_FALSE(orte::read_launcher_settings(&error)) << tune;
        EXPECT_NE(error.find("empty file name"), std::string::npos) << error;
    }
    ::unsetenv(orte::kEnvCmdlineTune);
    ::unsetenv(orte::kEnvCmdlineMca);
    settings = orte::read_launcher_settings(&error);
    ASSERT_TRUE(settings) << error;
    EXPECT_TRUE(settings->mca.empty());
    EXPECT_TRUE(settings->tune_files.empty());
}

TEST_F(LaunchEnv, NoUriMeansSingleton)
{
    // Even with leftovers of another launch around: without the URI nothing else is read.
    ::setenv(orte::kEnvRank, "garbage", 1);
    ::setenv(orte::kEnvJobKey, "short", 1);
    std::string error;
    auto info = orte::read_launch_env(&error);
    ASSERT_TRUE(info) << error;
    EXPECT_TRUE(info->singleton);
    EXPECT_EQ(info->rank, 0);
    EXPECT_EQ(info->size, 1);
    EXPECT_EQ(info->local_rank, 0);
    EXPECT_EQ(info->local_size, 1);
    EXPECT_TRUE(info->kv_uri.empty());
    EXPECT_TRUE(info->job_key.empty());
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    EXPECT_EQ(info->host, host);
}

TEST_F(LaunchEnv, EachMalformedVariableIsNamed)
{
    struct Case {
        const char *name;
        const char *value;
        const char *shows;
    };
    const Case cases[] = {
        {orte::kEnvJobId, "-1", "-1"},
        {orte::kEnvJobId, "4294967296", "out of range"},
        {orte::kEnvJobId, "12abc", "'12abc' is not a decimal integer"},
        {orte::kEnvSize, "0", "out of range"},
        {orte::kEnvSize, "", "is not a decimal integer"},
        {orte::kEnvSize, "99999999999999999999", "out of range"},
        {orte::kEnvRank, "8", "out of range [0, 7]"},
        {orte::kEnvRank, "-1", "out of range"},
        {orte::kEnvRank, " 5", "not a decimal integer"},
        {orte::kEnvRank, "+5", "not a decimal integer"},
        {orte::kEnvLocalSize, "9", "out of range [1, 8]"},
        {orte::kEnvLocalRank, "4", "out of range [0, 3]"},
        {orte::kEnvNodeId, "x", "not a decimal integer"},
        {orte::kEnvHost, "", "empty"},
        {orte::kEnvKvUri, "127.0.0.1", "'127.0.0.1' is not address:port"},
        {orte::kEnvKvUri, "127.0.0.1:0", "127.0.0.1:0"},
        {orte::kEnvKvUri, "127.0.0.1:65536", "65536"},
        {orte::kEnvKvUri, ":80", ":80"},
        {orte::kEnvKvUri, "[::1]80", "[::1]80"},
        {orte::kEnvKvUri, "", "is not address:port"},
        {orte::kEnvJobKey, "abc", "has 3 characters, not 64"},
        {orte::kEnvBind, "0,,1", "'0,,1'"},
        {orte::kEnvBind, "core", "'core'"},
        {orte::kEnvBind, "3-1", "'3-1'"},
        {orte::kEnvCmdlineMca, "btl", "'btl'"},
        {orte::kEnvCmdlineMca, "a=b%zz", "a=b%zz"},
        {orte::kEnvCmdlineTune, "/a.conf::/b.conf", "empty file name"},
        {orte::kEnvUniverseSize, "7", "out of range [8, "},
        {orte::kEnvAppnum, "-1", "out of range [0, "},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(std::string(c.name) + "=" + c.value);
        set_good();
        ::setenv(c.name, c.value, 1);
        expect_error(c.name, c.shows);
    }
}

TEST_F(LaunchEnv, AMissingVariableIsNamed)
{
    for (const char *name : {orte::kEnvJobId, orte::kEnvRank, orte::kEnvSize, orte::kEnvLocalRank,
                             orte::kEnvLocalSize, orte::kEnvNodeId, orte::kEnvHost, orte::kEnvJobKey}) {
        SCOPED_TRACE(name);
        set_good();
        ::unsetenv(name);
        expect_error(name, "is not set");
    }
}

TEST_F(LaunchEnv, TheJobKeyIsNeverEchoed)
{
    // A key with one wrong character: the message says what is wrong, never the key itself.
    std::string bad = kKey;
    bad[10] = 'G';
    set_good();
    ::setenv(orte::kEnvJobKey, bad.c_str(), 1);
    std::string error;
    EXPECT_FALSE(orte::read_launch_env(&error));
    EXPECT_NE(error.find("TESSERA_JOB_KEY"), std::string::npos) << error;
    EXPECT_NE(error.find("lower-case hex"), std::string::npos) << error;
    EXPECT_EQ(error.find("0123456789"), std::string::npos) << error;
    ::setenv(orte::kEnvJobKey, kKey.substr(0, 20).c_str(), 1);
    EXPECT_FALSE(orte::read_launch_env(&error));
    EXPECT_EQ(error.find("0123456789"), std::string::npos) << error;
    // Upper case is not the format mpirun writes.
    std::string upper = kKey;
    for (char &c : upper) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    ::setenv(orte::kEnvJobKey, upper.c_str(), 1);
    EXPECT_FALSE(orte::read_launch_env(&error));
}

using Settings = std::vector<std::pair<std::string, std::string>>;

TEST(CmdlineMca, RoundTripsAnyBytes)
{
    std::string every_byte;
    for (int b = 0; b < 256; ++b) {
        every_byte.push_back(static_cast<char>(b));
    }
    const Settings cases[] = {
        {},
        {{"btl", "tcp,self"}},
        {{"a", "x=y=z"}, {"b", "one,two"}, {"c", "line1\nline2\r\n"}},
        {{"empty", ""}, {"", ""}, {"also_empty", ""}},
        {{"percent", "100%"}, {"escape", "%41%2C"}, {"spaces", "  a b  "}},
        {{"binary", std::string("nul\0inside", 10)}, {"all", every_byte}},
        {{"name=with,odd%chars\n", "v"}},
        {{"x", ","}, {"y", "="}, {"z", "%"}},
    };
    for (const Settings &s : cases) {
        std::string encoded = orte::encode_cmdline_mca(s);
        // Fit for an environment value: no zero byte, nothing that is not printable ASCII.
        for (char c : encoded) {
            EXPECT_TRUE(c > 0x20 && c < 0x7f) << "byte " << static_cast<int>(static_cast<unsigned char>(c));
        }
        auto decoded = orte::decode_cmdline_mca(encoded);
        ASSERT_TRUE(decoded) << encoded;
        EXPECT_EQ(*decoded, s) << encoded;
    }
    // Ordinary settings stay readable.
    EXPECT_EQ(orte::encode_cmdline_mca({{"btl", "tcp,self"}, {"btl_tcp_if_include", "lo"}}),
              "btl=tcp%2Cself,btl_tcp_if_include=lo");
    // The empty list and a single empty setting are different things.
    EXPECT_EQ(orte::encode_cmdline_mca({}), "");
    EXPECT_EQ(orte::encode_cmdline_mca({{"", ""}}), "=");
}

TEST(CmdlineMca, DecodeRefusesMalformedText)
{
    for (const char *bad : {"btl", "a=b=c", "a=%", "a=%4", "a=%G1", ",", "a=b,", ",a=b", "a=b,,c=d", "%3D"}) {
        EXPECT_FALSE(orte::decode_cmdline_mca(bad)) << bad;
    }
    // Lower-case escapes and raw bytes an encoder would have escaped are still understood.
    auto lenient = orte::decode_cmdline_mca("a=%2c,b=x y");
    ASSERT_TRUE(lenient);
    EXPECT_EQ(*lenient, Settings({{"a", ","}, {"b", "x y"}}));
}

} // namespace
