// The job key: 64 lower-case hex digits of kernel randomness, and a comparison that is right whatever
// its timing.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "orte/kv/job_key.h"

namespace {

using tessera::orte::generate_job_key;
using tessera::orte::job_key_equal;

TEST(JobKey, Is64LowerCaseHexDigits)
{
    std::string key = generate_job_key();
    ASSERT_EQ(key.size(), 64u);
    for (char c : key) {
        EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << "unexpected character " << c;
    }
}

TEST(JobKey, KeysAreDistinctAndLookRandom)
{
    // 256 keys: no repeat, and the 65536 bits are about half ones (a stuck or counter-based source
    // would be far off: the standard deviation here is 128 bits).
    std::set<std::string> seen;
    long ones = 0;
    long digits[16] = {};
    for (int i = 0; i < 256; ++i) {
        std::string key = generate_job_key();
        EXPECT_TRUE(seen.insert(key).second) << "repeated key " << key;
        for (char c : key) {
            int v = c <= '9' ? c - '0' : c - 'a' + 10;
            ++digits[v];
            ones += __builtin_popcount(static_cast<unsigned>(v));
        }
    }
    EXPECT_NEAR(static_cast<double>(ones), 32768.0, 1000.0);
    for (long d : digits) {
        EXPECT_NEAR(static_cast<double>(d), 1024.0, 200.0); // 16384 digits, 1024 expected each
    }
}

TEST(JobKey, EqualComparesEveryByte)
{
    std::string a = generate_job_key();
    std::string b = a;
    EXPECT_TRUE(job_key_equal(a, b));
    EXPECT_TRUE(job_key_equal("", ""));
    for (size_t i : {size_t{0}, size_t{31}, size_t{63}}) {
        std::string c = a;
        c[i] = c[i] == '0' ? '1' : '0';
        EXPECT_FALSE(job_key_equal(a, c)) << "difference at " << i;
        EXPECT_FALSE(job_key_equal(c, a)) << "difference at " << i;
    }
    EXPECT_FALSE(job_key_equal(a, a.substr(0, 63)));
    EXPECT_FALSE(job_key_equal(a, a + "0"));
    EXPECT_FALSE(job_key_equal(a, ""));
    // Bytes beyond ASCII and embedded zero bytes are compared like any other.
    EXPECT_TRUE(job_key_equal(std::string("\0\xff", 2), std::string("\0\xff", 2)));
    EXPECT_FALSE(job_key_equal(std::string("\0\xff", 2), std::string("\0\xfe", 2)));
}

} // namespace
