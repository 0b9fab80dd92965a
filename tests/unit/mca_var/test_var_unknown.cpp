/* Names set by the user that no parameter answers to: warned about once, with the closest names. */
#include "mca/var.h"
#include "var_test_fixture.h"

namespace tessera::mca::test {
namespace {

using McaVarUnknown = VarTest;

class McaVarUnknownWithPath : public VarTest {
protected:
    void register_path()
    {
        ASSERT_GE(mca_var_register("mca", "component", "path", "Where DSOs are", MCA_VAR_TYPE_STRING, nullptr,
                                   MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL, 0, &path_),
                  0);
    }
    const char *path_ = "/lib/tessera";
};

TEST_F(McaVarUnknownWithPath, MisspelledEnvironmentNameSuggestsTheRealOne)
{
    set_mca_env("mca_component_pth", "/x");
    register_path();
    EXPECT_EQ(warn_unknown_names(), 1);
    ASSERT_EQ(warnings().size(), 1u) << joined(warnings());
    const std::string w = warnings()[0];
    EXPECT_NE(w.find("\"mca_component_pth\""), std::string::npos) << w;
    EXPECT_NE(w.find("environment (TESSERA_MCA_mca_component_pth)"), std::string::npos) << w;
    EXPECT_NE(w.find("did you mean: mca_component_path?"), std::string::npos) << w;
    EXPECT_EQ(warning_messages(), warnings());
    EXPECT_STREQ(path_, "/lib/tessera") << "the misspelled name changed nothing";
}

TEST_F(McaVarUnknownWithPath, RepeatedCallsDoNotWarnAgain)
{
    set_mca_env("mca_component_pth", "/x");
    register_path();
    EXPECT_EQ(warn_unknown_names(), 1);
    EXPECT_EQ(warn_unknown_names(), 1);
    EXPECT_EQ(warnings().size(), 1u) << joined(warnings());
}

TEST_F(McaVarUnknownWithPath, NamesAlreadyWarnedAboutByMpirunAreCountedButNotRepeated)
{
    set_mca_env("mca_component_pth", "/x");
    set_mca_env("mca_component_pat", "/y");
    register_path();
    EXPECT_EQ(unknown_names().size(), 2u);
    EXPECT_EQ(warn_unknown_names({"mca_component_pth"}), 2);
    ASSERT_EQ(warnings().size(), 1u) << joined(warnings());
    EXPECT_NE(warnings()[0].find("\"mca_component_pat\""), std::string::npos) << warnings()[0];
}

TEST_F(McaVarUnknownWithPath, FileKeysAndCommandLineNamesAreCheckedToo)
{
    write_file(user_file(), "\n[mca_component]\npaht = /y\n");
    set_command_line("mca_compnent_path", "/z");
    register_path();
    EXPECT_EQ(warn_unknown_names(), 2);
    ASSERT_EQ(warnings().size(), 2u) << joined(warnings());
    EXPECT_TRUE(any_contains(warnings(), "\"mca_component_paht\" set in file:" + user_file() + ":3; did you mean: "
                                         "mca_component_path?"))
        << joined(warnings());
    EXPECT_TRUE(any_contains(warnings(), "\"mca_compnent_path\" set in command line (--mca mca_compnent_path)"))
        << joined(warnings());
}

TEST_F(McaVarUnknownWithPath, TheSameNameFromTwoSourcesIsTwoWarnings)
{
    set_mca_env("mca_component_pth", "/x");
    set_command_line("mca_component_pth", "/x");
    register_path();
    EXPECT_EQ(warn_unknown_names(), 2);
    EXPECT_EQ(warnings().size(), 2u);
}

TEST_F(McaVarUnknown, NothingCloseMeansNoSuggestion)
{
    set_mca_env("completely_unrelated_thing", "1");
    int x = 0;
    ASSERT_GE(mca_var_register("btl", "tcp", "links", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &x),
              0);
    EXPECT_EQ(warn_unknown_names(), 1);
    ASSERT_EQ(warnings().size(), 1u);
    EXPECT_EQ(warnings()[0].find("did you mean"), std::string::npos) << warnings()[0];
}

TEST_F(McaVarUnknown, UpToThreeSuggestionsBestFirst)
{
    int v[5] = {};
    const char *names[] = {"btl_tcp_linkz", "btl_tcp_links", "btl_tcp_lin", "btl_tcp_linkxx", "btl_tcp_lonkk"};
    for (int i = 0; i < 5; ++i) {
        ASSERT_GE(mca_var_register(nullptr, nullptr, names[i], "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1,
                                   MCA_VAR_SCOPE_LOCAL, 0, &v[i]),
                  0);
    }
    set_command_line("btl_tcp_link", "1");
    EXPECT_EQ(warn_unknown_names(), 1);
    ASSERT_EQ(warnings().size(), 1u);
    /* Distance 1: linkz, links, lin; then 2: linkxx, lonkk - only the three closest are named. */
    EXPECT_NE(warnings()[0].find("did you mean: btl_tcp_linkz, btl_tcp_links or btl_tcp_lin?"), std::string::npos)
        << warnings()[0];
}

TEST_F(McaVarUnknown, RegisteredNamesAndTheCoreParameterAreKnown)
{
    set_mca_env("mca_param_files", "");
    set_command_line("x_y", "1");
    int y = 0;
    ASSERT_GE(mca_var_register("x", nullptr, "y", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &y),
              0);
    EXPECT_EQ(warn_unknown_names(), 0);
    EXPECT_TRUE(warnings().empty()) << joined(warnings());
}

} // namespace
} // namespace tessera::mca::test
