/* The --mca / --tune parser that mpirun and the tools share. */
#include <string>
#include <vector>

#include "mca/cmdline.h"
#include "mca/var.h"
#include "var_test_fixture.h"

namespace tessera::mca::test {
namespace {

using McaVarCmdline = VarTest;

/* argv-like storage that outlives the parse. */
struct Args {
    explicit Args(std::vector<std::string> a) : strings(std::move(a))
    {
        for (auto &s : strings) {
            ptrs.push_back(s.data());
        }
    }
    std::span<char *> span() { return ptrs; }
    std::vector<std::string> strings;
    std::vector<char *> ptrs;
};

std::vector<std::string> as_strings(const std::vector<char *> &v)
{
    return {v.begin(), v.end()};
}

TEST_F(McaVarCmdline, RecognisesEveryFormAndKeepsTheRestInOrder)
{
    const std::string t1 = write_file(dir_ / "t1.conf", "c_t1 = 3\n");
    const std::string t2 = write_file(dir_ / "t2.conf", "c_t2 = 4\n");
    Args args({"prog", "--mca", "c_a", "1", "-v", "-mca", "c_b", "-2", "--tune", t1, "pos", "--tune=" + t2, "last"});
    CmdlineResult r = parse_mca_args(args.span());
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(as_strings(r.remaining), (std::vector<std::string>{"prog", "-v", "pos", "last"}));
    EXPECT_EQ(r.mca, (std::vector<std::pair<std::string, std::string>>{{"c_a", "1"}, {"c_b", "-2"}}));
    EXPECT_EQ(r.tune_files, (std::vector<std::string>{t1, t2}));

    int a = 0, b = 0, v1 = 0, v2 = 0;
    ASSERT_GE(mca_var_register("c", nullptr, "a", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &a), 0);
    ASSERT_GE(mca_var_register("c", nullptr, "b", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &b), 0);
    ASSERT_GE(mca_var_register("c", nullptr, "t1", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &v1), 0);
    ASSERT_GE(mca_var_register("c", nullptr, "t2", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &v2), 0);
    EXPECT_EQ(a, 1);
    EXPECT_EQ(b, -2) << "a value may start with '-'";
    EXPECT_EQ(v1, 3);
    EXPECT_EQ(v2, 4);
    EXPECT_EQ(find_var("c_a")->source.describe(), "command line");
    EXPECT_EQ(find_var("c_t2")->source.describe(), "file:" + t2 + ":1");
}

TEST_F(McaVarCmdline, DoubleDashEndsTheOptions)
{
    Args args({"--mca", "c_a", "1", "--", "--mca", "c_b", "2"});
    CmdlineResult r = scan_mca_args(args.span());
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(as_strings(r.remaining), (std::vector<std::string>{"--", "--mca", "c_b", "2"}));
    EXPECT_EQ(r.mca.size(), 1u);
}

TEST_F(McaVarCmdline, MissingValueIsAClearErrorAndNothingIsApplied)
{
    Args args({"prog", "--mca", "c_a", "1", "--mca", "c_b"});
    CmdlineResult r = parse_mca_args(args.span());
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find("--mca c_b needs a value"), std::string::npos) << r.error;
    int a = 0;
    ASSERT_GE(mca_var_register("c", nullptr, "a", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &a), 0);
    EXPECT_EQ(a, 0) << "an invalid command line applies nothing";
}

TEST_F(McaVarCmdline, MissingNameOrFile)
{
    {
        Args args({"-mca"});
        CmdlineResult r = scan_mca_args(args.span());
        EXPECT_NE(r.error.find("-mca needs a parameter name and a value"), std::string::npos) << r.error;
    }
    {
        Args args({"x", "--tune"});
        CmdlineResult r = scan_mca_args(args.span());
        EXPECT_NE(r.error.find("--tune needs the name of a parameter file"), std::string::npos) << r.error;
    }
    {
        Args args({"--tune="});
        CmdlineResult r = scan_mca_args(args.span());
        EXPECT_FALSE(r.ok());
    }
    {
        Args args({"--mca", "btl=tcp", "self"});
        CmdlineResult r = scan_mca_args(args.span());
        EXPECT_NE(r.error.find("--mca btl tcp"), std::string::npos) << r.error;
    }
}

TEST_F(McaVarCmdline, SimilarLookingOptionsAreLeftAlone)
{
    Args args({"--mcaX", "--tuner", "-tune", "--mca-list"});
    CmdlineResult r = scan_mca_args(args.span());
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.remaining.size(), 4u);
}

} // namespace
} // namespace tessera::mca::test
