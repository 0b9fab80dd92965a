/* Parsing and printing of every parameter type, as a user writes values in files, env and --mca. */
#include <gtest/gtest.h>

#include <climits>

#include "mca/var_parse.h"
#include "mca/var_store.h"

namespace tessera::mca {
namespace {

const Enumerators kLevels = {{0, "none"}, {1, "some"}, {2, "all"}};

TEST(McaVarParse, BoolAcceptsTheUsualSpellings)
{
    for (const char *t : {"true", "TRUE", "yes", "Yes", "on", "1", " true "}) {
        EXPECT_EQ(parse_bool(t), std::optional<bool>(true)) << t;
    }
    for (const char *f : {"false", "no", "OFF", "0"}) {
        EXPECT_EQ(parse_bool(f), std::optional<bool>(false)) << f;
    }
    for (const char *bad : {"", "maybe", "2", "truee", "y"}) {
        EXPECT_FALSE(parse_bool(bad).has_value()) << bad;
    }
    EXPECT_EQ(format_bool(true), "true");
    EXPECT_EQ(format_bool(false), "false");
}

TEST(McaVarParse, IntDecimalHexAndRange)
{
    EXPECT_EQ(parse_int("42"), 42);
    EXPECT_EQ(parse_int("-7"), -7);
    EXPECT_EQ(parse_int("+3"), 3);
    EXPECT_EQ(parse_int("0x1f"), 31);
    EXPECT_EQ(parse_int("0X10"), 16);
    EXPECT_EQ(parse_int("-0x10"), -16);
    EXPECT_EQ(parse_int(" 12 "), 12);
    EXPECT_EQ(parse_int("010"), 10) << "a leading zero is not octal";
    EXPECT_EQ(parse_int("2147483647"), INT_MAX);
    EXPECT_EQ(parse_int("-2147483648"), INT_MIN);
    for (const char *bad : {"", "abc", "12abc", "1.5", "2147483648", "-2147483649", "--1", "0x", "99999999999999999999"}) {
        EXPECT_FALSE(parse_int(bad).has_value()) << bad;
    }
}

TEST(McaVarParse, UnsignedHasNoSign)
{
    EXPECT_EQ(parse_unsigned("0"), 0u);
    EXPECT_EQ(parse_unsigned("4294967295"), UINT_MAX);
    EXPECT_EQ(parse_unsigned("0xff"), 255u);
    for (const char *bad : {"-1", "+1", "4294967296", "x", ""}) {
        EXPECT_FALSE(parse_unsigned(bad).has_value()) << bad;
    }
}

TEST(McaVarParse, SizeSuffixesArePowersOf1024)
{
    EXPECT_EQ(parse_size("65536"), 65536u);
    EXPECT_EQ(parse_size("64k"), 65536u);
    EXPECT_EQ(parse_size("64K"), 65536u);
    EXPECT_EQ(parse_size("64kB"), 65536u);
    EXPECT_EQ(parse_size("64KiB"), 65536u);
    EXPECT_EQ(parse_size("1M"), 1048576u);
    EXPECT_EQ(parse_size("2G"), size_t{2} << 30);
    EXPECT_EQ(parse_size("1T"), size_t{1} << 40);
    EXPECT_EQ(parse_size("512B"), 512u);
    EXPECT_EQ(parse_size(" 8 k "), 8192u);
    for (const char *bad : {"12Q", "k", "", "-1k", "1.5M", "64kk", "64kBB", "20000000000T"}) {
        EXPECT_FALSE(parse_size(bad).has_value()) << bad;
    }
}

TEST(McaVarParse, SizeFormatsWithTheLargestExactSuffix)
{
    EXPECT_EQ(format_size(65536), "64k");
    EXPECT_EQ(format_size(1048576), "1M");
    EXPECT_EQ(format_size(size_t{3} << 30), "3G");
    EXPECT_EQ(format_size(size_t{2} << 40), "2T");
    EXPECT_EQ(format_size(1536), "1536");
    EXPECT_EQ(format_size(1000), "1000");
    EXPECT_EQ(format_size(0), "0");
    for (size_t v : {size_t{0}, size_t{1}, size_t{4096}, size_t{1536}, (size_t{5} << 30) + 1024}) {
        EXPECT_EQ(parse_size(format_size(v)), v) << "round trip of " << v;
    }
}

TEST(McaVarParse, DoubleIsFiniteAndLocaleFree)
{
    EXPECT_EQ(parse_double("1.5"), 1.5);
    EXPECT_EQ(parse_double("-2e3"), -2000.0);
    EXPECT_EQ(parse_double("+0.25"), 0.25);
    EXPECT_EQ(parse_double("3"), 3.0);
    for (const char *bad : {"", "abc", "1.5x", "1,5", "inf", "nan", "1e999"}) {
        EXPECT_FALSE(parse_double(bad).has_value()) << bad;
    }
    EXPECT_EQ(format_double(0.1), "0.1");
    EXPECT_EQ(format_double(2.0), "2");
}

TEST(McaVarParse, EnumTakesNameOrNumber)
{
    EXPECT_EQ(parse_enum("some", kLevels), 1);
    EXPECT_EQ(parse_enum("ALL", kLevels), 2);
    EXPECT_EQ(parse_enum("0", kLevels), 0);
    EXPECT_EQ(parse_enum(" 2 ", kLevels), 2);
    EXPECT_FALSE(parse_enum("7", kLevels).has_value());
    EXPECT_FALSE(parse_enum("most", kLevels).has_value());
    EXPECT_EQ(format_enum(2, kLevels), "all");
    EXPECT_EQ(format_enum(9, kLevels), "9");
}

TEST(McaVarParse, ListEntriesAreTrimmedAndNeverEmpty)
{
    EXPECT_EQ(parse_list("a, b ,c"), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(parse_list("tcp"), (std::vector<std::string>{"tcp"}));
    EXPECT_EQ(parse_list(""), std::vector<std::string>{});
    EXPECT_EQ(parse_list("  "), std::vector<std::string>{});
    for (const char *bad : {"a,,b", "a,", ",a", "a, ,b"}) {
        EXPECT_FALSE(parse_list(bad).has_value()) << bad;
    }
    auto r = parse_value(MCA_VAR_TYPE_LIST, {}, " tcp , self ");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(format_value(*r.value, {}), "tcp,self");
}

TEST(McaVarParse, StringIsTakenAsIs)
{
    auto r = parse_value(MCA_VAR_TYPE_STRING, {}, " a b ");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value->s, " a b ");
}

TEST(McaVarParse, ProblemsSayWhatWasExpected)
{
    EXPECT_NE(parse_value(MCA_VAR_TYPE_INT, {}, "abc").problem.find("expected an integer"), std::string::npos);
    EXPECT_NE(parse_value(MCA_VAR_TYPE_UNSIGNED, {}, "-1").problem.find("unsigned"), std::string::npos);
    EXPECT_NE(parse_value(MCA_VAR_TYPE_BOOL, {}, "x").problem.find("true/false"), std::string::npos);
    EXPECT_NE(parse_value(MCA_VAR_TYPE_SIZE, {}, "12Q").problem.find("k, M, G or T"), std::string::npos);
    EXPECT_NE(parse_value(MCA_VAR_TYPE_DOUBLE, {}, "x").problem.find("number"), std::string::npos);
    EXPECT_NE(parse_value(MCA_VAR_TYPE_LIST, {}, "a,,b").problem.find("empty"), std::string::npos);
    const std::string e = parse_value(MCA_VAR_TYPE_ENUM, kLevels, "7").problem;
    for (const char *name : {"none", "some", "all"}) {
        EXPECT_NE(e.find(name), std::string::npos) << e;
    }
    EXPECT_TRUE(parse_value(MCA_VAR_TYPE_INT, {}, "5").problem.empty());
}

TEST(McaVarParse, TypeAndScopeNames)
{
    EXPECT_EQ(type_name(MCA_VAR_TYPE_BOOL), "bool");
    EXPECT_EQ(type_name(MCA_VAR_TYPE_INT), "int");
    EXPECT_EQ(type_name(MCA_VAR_TYPE_UNSIGNED), "unsigned");
    EXPECT_EQ(type_name(MCA_VAR_TYPE_SIZE), "size");
    EXPECT_EQ(type_name(MCA_VAR_TYPE_DOUBLE), "double");
    EXPECT_EQ(type_name(MCA_VAR_TYPE_STRING), "string");
    EXPECT_EQ(type_name(MCA_VAR_TYPE_ENUM), "enum");
    EXPECT_EQ(type_name(MCA_VAR_TYPE_LIST), "list");
    EXPECT_EQ(scope_name(MCA_VAR_SCOPE_CONSTANT), "constant");
    EXPECT_EQ(scope_name(MCA_VAR_SCOPE_READONLY), "readonly");
    EXPECT_EQ(scope_name(MCA_VAR_SCOPE_LOCAL), "local");
    EXPECT_EQ(scope_name(MCA_VAR_SCOPE_GROUP), "group");
    EXPECT_EQ(scope_name(MCA_VAR_SCOPE_ALL), "all");
}

} // namespace
} // namespace tessera::mca
