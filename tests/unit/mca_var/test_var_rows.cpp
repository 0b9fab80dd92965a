/* Parameters registered as rows: the row's default goes to the storage, its range is shown and checked
 * (an error naming the parameter, the value, the range and where the value was set), and a row that
 * contradicts itself is refused. */
#include <iterator>
#include <string>

#include "mca/constants.h"
#include "mca/var.h"
#include "var_test_fixture.h"

namespace tessera::mca::test {
namespace {

using McaVarRows = VarTest;

struct Storage {
    int links = -7; /* overwritten by the row's default */
    size_t frag = 0;
    double linger = -1;
    const char *names = "stale";
};

int register_rows(Storage &s)
{
    const mca_var_row_t rows[] = {
        {"links", MCA_VAR_TYPE_INT, "1", "1", "16", "Links per peer", MCA_INFO_LVL_4, nullptr, &s.links},
        {"frag", MCA_VAR_TYPE_SIZE, "128k", "1k", "64M", "Largest fragment", MCA_INFO_LVL_5, nullptr, &s.frag},
        {"linger", MCA_VAR_TYPE_DOUBLE, "1", "0", nullptr, "Seconds", MCA_INFO_LVL_6, nullptr, &s.linger},
        {"names", MCA_VAR_TYPE_STRING, nullptr, nullptr, nullptr, "Names", MCA_INFO_LVL_4, nullptr, &s.names},
    };
    return mca_var_register_rows("btl", "tcp", rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

TEST_F(McaVarRows, TheRowGivesDefaultAndRange)
{
    Storage s;
    ASSERT_EQ(register_rows(s), TESSERA_SUCCESS);
    EXPECT_EQ(s.links, 1);
    EXPECT_EQ(s.frag, 131072u);
    EXPECT_EQ(s.linger, 1.0);
    EXPECT_EQ(s.names, nullptr);
    const auto links = find_var("btl_tcp_links");
    ASSERT_TRUE(links.has_value());
    EXPECT_EQ(links->default_value, "1");
    EXPECT_EQ(links->level, 4);
    EXPECT_EQ(range_text(*links), "1..16");
    const auto frag = find_var("btl_tcp_frag");
    EXPECT_EQ(frag->min_value, "1k");
    EXPECT_EQ(frag->max_value, "64M");
    EXPECT_EQ(range_text(*frag), "1k..64M");
    EXPECT_EQ(range_text(*find_var("btl_tcp_linger")), "at least 0");
    EXPECT_EQ(range_text(*find_var("btl_tcp_names")), "");
    EXPECT_EQ(mca_var_check_ranges("btl", "tcp"), 0);
    EXPECT_EQ(error_count(), 0);
}

TEST_F(McaVarRows, AValueOutsideItsRangeIsAnErrorNamingEverything)
{
    set_command_line("btl_tcp_links", "17");
    set_command_line("btl_tcp_frag", "100");
    set_command_line("btl_tcp_linger", "-0.5");
    Storage s;
    ASSERT_EQ(register_rows(s), TESSERA_SUCCESS);
    EXPECT_EQ(s.links, 17) << "the value stays what was set: the component that owns it is not opened";
    EXPECT_EQ(mca_var_check_ranges("btl", "tcp"), 3);
    const std::vector<std::string> errors = reported(Severity::Error);
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_EQ(errors[0], "btl_tcp_links: value 17 from command line (--mca btl_tcp_links) is not in 1..16");
    EXPECT_EQ(errors[1], "btl_tcp_frag: value 100 from command line (--mca btl_tcp_frag) is not in 1k..64M");
    EXPECT_EQ(errors[2], "btl_tcp_linger: value -0.500000 from command line (--mca btl_tcp_linger) must be at least 0");
    EXPECT_EQ(mca_var_check_ranges("btl", "other"), 0) << "only the component asked about";
}

TEST_F(McaVarRows, RegisteringAgainKeepsTheRowsDefault)
{
    Storage s;
    ASSERT_EQ(register_rows(s), TESSERA_SUCCESS);
    set_command_line("btl_tcp_links", "4");
    EXPECT_EQ(s.links, 4);
    Storage again;
    ASSERT_EQ(register_rows(again), TESSERA_SUCCESS);
    EXPECT_EQ(again.links, 4);
    EXPECT_EQ(find_var("btl_tcp_links")->default_value, "1");
}

TEST_F(McaVarRows, ARowThatContradictsItselfIsRefused)
{
    int i = 0;
    bool b = false;
    const struct {
        mca_var_row_t row;
        const char *error;
    } cases[] = {
        {{"a", MCA_VAR_TYPE_INT, "x", nullptr, nullptr, "", MCA_INFO_LVL_4, nullptr, &i}, "its default \"x\""},
        {{"b", MCA_VAR_TYPE_INT, nullptr, nullptr, nullptr, "", MCA_INFO_LVL_4, nullptr, &i}, "needs a default"},
        {{"c", MCA_VAR_TYPE_INT, "5", "9", "1", "", MCA_INFO_LVL_4, nullptr, &i}, "its range 9..1 is empty"},
        {{"d", MCA_VAR_TYPE_INT, "0", "1", "9", "", MCA_INFO_LVL_4, nullptr, &i}, "its default 0 is not in its range 1..9"},
        {{"e", MCA_VAR_TYPE_BOOL, "true", "0", nullptr, "", MCA_INFO_LVL_4, nullptr, &b}, "has no range"},
        {{"f", MCA_VAR_TYPE_INT, "1", "one", nullptr, "", MCA_INFO_LVL_4, nullptr, &i}, "its minimum \"one\""},
    };
    for (const auto &c : cases) {
        report_clear();
        EXPECT_EQ(mca_var_register_rows("x", "y", &c.row, 1, MCA_VAR_SCOPE_LOCAL), TESSERA_ERR_BAD_PARAM) << c.error;
        const std::vector<std::string> errors = error_messages();
        ASSERT_FALSE(errors.empty()) << c.error;
        EXPECT_NE(errors.back().find(c.error), std::string::npos) << errors.back();
    }
}

} // namespace
} // namespace tessera::mca::test
