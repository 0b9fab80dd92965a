/* Edit distance and "did you mean", and the report channel every diagnostic goes through. */
#include <gtest/gtest.h>

#include "mca/report.h"
#include "mca/suggest.h"

namespace tessera::mca {
namespace {

TEST(McaVarSuggest, EditDistance)
{
    EXPECT_EQ(edit_distance("", ""), 0u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("abc", "abc"), 0u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(edit_distance("path", "pth"), 1u);
    EXPECT_EQ(edit_distance("path", "paht"), 1u) << "a swap of neighbours counts one";
    EXPECT_EQ(edit_distance("ab", "ba"), 1u);
}

TEST(McaVarSuggest, ClosestNamesWithinThreshold)
{
    const std::vector<std::string> known = {"tcp", "self", "shm", "sm"};
    EXPECT_EQ(closest_names("tpc", known), (std::vector<std::string>{"tcp"}));
    EXPECT_EQ(closest_names("shm", known), (std::vector<std::string>{"shm", "sm"}));
    EXPECT_TRUE(closest_names("infiniband", known).empty());
    EXPECT_EQ(closest_names("TCP", known), (std::vector<std::string>{"tcp"})) << "case is ignored";
    EXPECT_EQ(closest_names("sh", known, 1), (std::vector<std::string>{"shm"})) << "ties keep input order";
    /* Threshold max(2, len/3): a 12-letter name tolerates 4 edits. */
    EXPECT_EQ(closest_names("abcdefghijkl", {"abcdefgvwxyz", "abcdefghwxyz", "abcdefghixyz"}),
              (std::vector<std::string>{"abcdefghixyz", "abcdefghwxyz"}));
}

TEST(McaVarSuggest, JoinAlternatives)
{
    EXPECT_EQ(join_alternatives({}), "");
    EXPECT_EQ(join_alternatives({"a"}), "a");
    EXPECT_EQ(join_alternatives({"a", "b"}), "a or b");
    EXPECT_EQ(join_alternatives({"a", "b", "c"}), "a, b or c");
}

TEST(McaVarReport, RecordsBySeverityAndClears)
{
    report_set_print(false);
    report_clear();
    report(Severity::Warning, "w1");
    report(Severity::Error, "e1");
    report(Severity::Warning, "w2");
    EXPECT_EQ(reported(Severity::Warning), (std::vector<std::string>{"w1", "w2"}));
    EXPECT_EQ(reported(Severity::Error), (std::vector<std::string>{"e1"}));
    report_clear();
    EXPECT_TRUE(reported(Severity::Warning).empty());
    EXPECT_TRUE(reported(Severity::Error).empty());
}

TEST(McaVarReport, PrintsOneLineToStderr)
{
    report_set_print(true);
    testing::internal::CaptureStderr();
    report(Severity::Error, "bad thing");
    report(Severity::Warning, "odd thing");
    const std::string out = testing::internal::GetCapturedStderr();
    report_set_print(false);
    report_clear();
    EXPECT_EQ(out, "tessera: error: bad thing\ntessera: warning: odd thing\n");
}

} // namespace
} // namespace tessera::mca
