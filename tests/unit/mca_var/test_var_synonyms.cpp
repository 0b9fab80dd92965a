/* Synonyms: old or alternative names that set the same parameter. */
#include "mca/constants.h"
#include "mca/var.h"
#include "var_test_fixture.h"

namespace tessera::mca::test {
namespace {

using McaVarSynonyms = VarTest;

int register_eager(int *storage)
{
    return mca_var_register("btl", "tcp", "eager_limit", "Eager limit", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_4,
                            MCA_VAR_SCOPE_LOCAL, 0, storage);
}

TEST_F(McaVarSynonyms, ASynonymSetsTheRealVariable)
{
    set_mca_env("btl_tcp_eager", "64");
    int eager = 1;
    const int idx = register_eager(&eager);
    ASSERT_GE(idx, 0);
    EXPECT_EQ(eager, 1);
    EXPECT_EQ(mca_var_register_synonym(idx, "btl", "tcp", "eager", MCA_VAR_FLAG_NONE), idx);
    EXPECT_EQ(eager, 64) << "registering the synonym re-resolves";
    EXPECT_EQ(mca_var_find("btl_tcp_eager"), idx);
    auto info = find_var("btl_tcp_eager");
    ASSERT_TRUE(info.has_value());
    EXPECT_EQ(info->full_name, "btl_tcp_eager_limit");
    EXPECT_EQ(info->synonyms, std::vector<std::string>{"btl_tcp_eager"});
    EXPECT_EQ(info->synonym_deprecated, std::vector<bool>{false});
    EXPECT_EQ(info->source.describe(), "environment");
    EXPECT_TRUE(warnings().empty()) << joined(warnings());
    EXPECT_EQ(warn_unknown_names(), 0) << "a synonym is a known name";
}

TEST_F(McaVarSynonyms, DeprecatedSynonymWarnsOnce)
{
    set_command_line("tcp_eager", "8");
    int eager = 1;
    const int idx = register_eager(&eager);
    ASSERT_EQ(mca_var_register_synonym(idx, nullptr, nullptr, "tcp_eager", MCA_VAR_FLAG_DEPRECATED), idx);
    EXPECT_EQ(eager, 8);
    ASSERT_EQ(warnings().size(), 1u) << joined(warnings());
    EXPECT_NE(warnings()[0].find("tcp_eager is deprecated; use btl_tcp_eager_limit"), std::string::npos)
        << warnings()[0];
    EXPECT_NE(warnings()[0].find("command line"), std::string::npos) << warnings()[0];
    /* Re-resolution (a new setting, a re-registration) must not repeat it. */
    set_command_line("tcp_eager", "9");
    ASSERT_EQ(register_eager(&eager), idx);
    EXPECT_EQ(eager, 9);
    EXPECT_EQ(warnings().size(), 1u) << joined(warnings());
    EXPECT_EQ(find_var("btl_tcp_eager_limit")->synonym_deprecated, std::vector<bool>{true});
}

TEST_F(McaVarSynonyms, UnusedDeprecatedSynonymSaysNothing)
{
    set_command_line("btl_tcp_eager_limit", "8");
    int eager = 1;
    const int idx = register_eager(&eager);
    ASSERT_EQ(mca_var_register_synonym(idx, nullptr, nullptr, "tcp_eager", MCA_VAR_FLAG_DEPRECATED), idx);
    EXPECT_TRUE(warnings().empty()) << joined(warnings());
}

TEST_F(McaVarSynonyms, TheHigherSourceWinsWhicheverNameItUses)
{
    set_mca_env("btl_tcp_eager_limit", "1");
    set_command_line("tcp_eager", "2");
    int eager = 0;
    const int idx = register_eager(&eager);
    ASSERT_EQ(mca_var_register_synonym(idx, nullptr, nullptr, "tcp_eager", 0), idx);
    EXPECT_EQ(eager, 2);
    EXPECT_EQ(find_var("btl_tcp_eager_limit")->source.describe(), "command line");

    vars_finalize();
    clear_mca_environment();
    set_mca_env("tcp_eager", "3");
    set_command_line("btl_tcp_eager_limit", "4");
    const int idx2 = register_eager(&eager);
    ASSERT_EQ(mca_var_register_synonym(idx2, nullptr, nullptr, "tcp_eager", 0), idx2);
    EXPECT_EQ(eager, 4);
}

TEST_F(McaVarSynonyms, AtTheSameSourceTheRealNameWins)
{
    /* Both spellings in the environment, and the synonym set "later" in the same file. */
    set_mca_env("tcp_eager", "5");
    set_mca_env("btl_tcp_eager_limit", "6");
    write_file(user_file(), "btl_tcp_eager_limit = 7\ntcp_eager = 8\n");
    int eager = 0;
    const int idx = register_eager(&eager);
    ASSERT_EQ(mca_var_register_synonym(idx, nullptr, nullptr, "tcp_eager", 0), idx);
    EXPECT_EQ(eager, 6);
    unsetenv("TESSERA_MCA_btl_tcp_eager_limit");
    unsetenv("TESSERA_MCA_tcp_eager");
    vars_finalize();
    const int idx2 = register_eager(&eager);
    ASSERT_EQ(mca_var_register_synonym(idx2, nullptr, nullptr, "tcp_eager", 0), idx2);
    EXPECT_EQ(eager, 7);
    EXPECT_EQ(find_var("btl_tcp_eager_limit")->source.describe(), "file:" + user_file() + ":1");
}

TEST_F(McaVarSynonyms, BadValueUnderASynonymNamesBoth)
{
    set_mca_env("tcp_eager", "lots");
    int eager = 1;
    const int idx = register_eager(&eager);
    ASSERT_EQ(mca_var_register_synonym(idx, nullptr, nullptr, "tcp_eager", 0), idx);
    EXPECT_EQ(eager, 1);
    ASSERT_EQ(error_count(), 1);
    EXPECT_NE(error_messages()[0].find("btl_tcp_eager_limit"), std::string::npos) << error_messages()[0];
    EXPECT_NE(error_messages()[0].find("tcp_eager\""), std::string::npos) << error_messages()[0];
    EXPECT_NE(error_messages()[0].find("lots"), std::string::npos) << error_messages()[0];
}

TEST_F(McaVarSynonyms, ASynonymCannotTakeAnotherVariablesName)
{
    int a = 0;
    int b = 0;
    const int ia = mca_var_register("x", nullptr, "a", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &a);
    const int ib = mca_var_register("x", nullptr, "b", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &b);
    EXPECT_EQ(mca_var_register_synonym(ia, "x", nullptr, "b", 0), TESSERA_ERR_EXISTS);
    EXPECT_EQ(mca_var_register_synonym(ia, "x", nullptr, "a", 0), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_var_register_synonym(ia, nullptr, nullptr, "old_a", 0), ia);
    EXPECT_EQ(mca_var_register_synonym(ia, nullptr, nullptr, "old_a", 0), ia) << "again, as after a reload";
    EXPECT_EQ(mca_var_register_synonym(ib, nullptr, nullptr, "old_a", 0), TESSERA_ERR_EXISTS);
    EXPECT_EQ(mca_var_register_synonym(99, nullptr, nullptr, "zz", 0), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(find_var("x_a")->synonyms.size(), 1u);
    EXPECT_EQ(error_count(), 4);
}

} // namespace
} // namespace tessera::mca::test
