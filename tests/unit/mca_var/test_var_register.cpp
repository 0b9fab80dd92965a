/* Registration, storage binding, bad values and what list_vars()/find_var() show. */
#include <cstring>

#include "mca/constants.h"
#include "mca/var.h"
#include "var_test_fixture.h"

namespace tessera::mca::test {
namespace {

using McaVarRegister = VarTest;

const mca_var_enum_value_t kModes[] = {{0, "off"}, {1, "fast"}, {2, "safe"}, {0, nullptr}};

TEST_F(McaVarRegister, DefaultStaysWhenNothingIsSet)
{
    int links = 3;
    const int idx = mca_var_register("btl", "tcp", "links", "Number of links", MCA_VAR_TYPE_UNSIGNED, nullptr,
                                     MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE, &links);
    ASSERT_GE(idx, 0);
    EXPECT_EQ(links, 3);
    auto info = find_var("btl_tcp_links");
    ASSERT_TRUE(info.has_value());
    EXPECT_EQ(info->index, idx);
    EXPECT_EQ(info->full_name, "btl_tcp_links");
    EXPECT_EQ(info->framework, "btl");
    EXPECT_EQ(info->component, "tcp");
    EXPECT_EQ(info->name, "links");
    EXPECT_EQ(info->help, "Number of links");
    EXPECT_EQ(info->type_name, "unsigned");
    EXPECT_EQ(info->scope_name, "local");
    EXPECT_EQ(info->level, 4);
    EXPECT_EQ(info->value, "3");
    EXPECT_EQ(info->default_value, "3");
    EXPECT_EQ(info->source.kind, SourceKind::Default);
    EXPECT_EQ(info->source.describe(), "default");
    EXPECT_EQ(error_count(), 0);
}

TEST_F(McaVarRegister, EmptyPartsAreLeftOutOfTheFullName)
{
    const char *sel = nullptr;
    ASSERT_GE(mca_var_register("btl", nullptr, nullptr, "Selection", MCA_VAR_TYPE_LIST, nullptr, MCA_INFO_LVL_2,
                               MCA_VAR_SCOPE_ALL, 0, &sel),
              0);
    int verbose = 0;
    ASSERT_GE(mca_var_register("btl", "", "base_verbose", "Verbosity", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_8,
                               MCA_VAR_SCOPE_LOCAL, 0, &verbose),
              0);
    EXPECT_GE(mca_var_find("btl"), 0);
    EXPECT_GE(mca_var_find("btl_base_verbose"), 0);
    EXPECT_EQ(sel, nullptr) << "a NULL default string stays NULL";
    EXPECT_EQ(find_var("btl")->value, "");
}

TEST_F(McaVarRegister, EveryTypeTakesItsValueFromTheCommandLine)
{
    bool b = false;
    int i = 0;
    unsigned u = 0;
    size_t z = 0;
    double d = 0;
    const char *s = "dflt";
    int e = 0;
    const char *l = "x";
    set_command_line("t_b", "yes");
    set_command_line("t_i", "-12");
    set_command_line("t_u", "0x10");
    set_command_line("t_z", "2M");
    set_command_line("t_d", "0.5");
    set_command_line("t_s", "hello world");
    set_command_line("t_e", "safe");
    set_command_line("t_l", " a , b ");
    ASSERT_GE(mca_var_register("t", nullptr, "b", "", MCA_VAR_TYPE_BOOL, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &b), 0);
    ASSERT_GE(mca_var_register("t", nullptr, "i", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &i), 0);
    ASSERT_GE(mca_var_register("t", nullptr, "u", "", MCA_VAR_TYPE_UNSIGNED, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &u), 0);
    ASSERT_GE(mca_var_register("t", nullptr, "z", "", MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &z), 0);
    ASSERT_GE(mca_var_register("t", nullptr, "d", "", MCA_VAR_TYPE_DOUBLE, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &d), 0);
    ASSERT_GE(mca_var_register("t", nullptr, "s", "", MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &s), 0);
    ASSERT_GE(mca_var_register("t", nullptr, "e", "", MCA_VAR_TYPE_ENUM, kModes, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &e), 0);
    ASSERT_GE(mca_var_register("t", nullptr, "l", "", MCA_VAR_TYPE_LIST, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &l), 0);
    EXPECT_TRUE(b);
    EXPECT_EQ(i, -12);
    EXPECT_EQ(u, 16u);
    EXPECT_EQ(z, size_t{2} << 20);
    EXPECT_EQ(d, 0.5);
    EXPECT_STREQ(s, "hello world");
    EXPECT_EQ(e, 2);
    EXPECT_STREQ(l, "a,b");
    EXPECT_EQ(find_var("t_z")->value, "2M");
    EXPECT_EQ(find_var("t_z")->default_value, "0");
    EXPECT_EQ(find_var("t_e")->value, "safe");
    EXPECT_EQ(find_var("t_s")->default_value, "dflt");
    EXPECT_EQ(find_var("t_b")->source.describe(), "command line");
    EXPECT_EQ(error_count(), 0) << joined(error_messages());
}

TEST_F(McaVarRegister, ASettingAfterRegistrationReResolves)
{
    int n = 1;
    ASSERT_GE(mca_var_register("fw", "c", "n", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &n), 0);
    EXPECT_EQ(n, 1);
    set_command_line("fw_c_n", "9");
    EXPECT_EQ(n, 9);
    EXPECT_EQ(find_var("fw_c_n")->source.kind, SourceKind::CommandLine);
    set_command_line("fw_c_n", "10");
    EXPECT_EQ(n, 10) << "a later --mca for the same name wins";
}

TEST_F(McaVarRegister, RegisteringAgainRebindsStorage)
{
    set_mca_env("fw_c_s", "from-env");
    const char *first = "a";
    const int idx = mca_var_register("fw", "c", "s", "", MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_1,
                                     MCA_VAR_SCOPE_LOCAL, 0, &first);
    ASSERT_GE(idx, 0);
    EXPECT_STREQ(first, "from-env");
    const char *second = "a";
    EXPECT_EQ(mca_var_register("fw", "c", "s", "", MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &second),
              idx);
    EXPECT_STREQ(second, "from-env");
    EXPECT_EQ(list_vars().size(), 2u) << "mca_param_files and fw_c_s, no duplicate";
    /* The same storage once more: it holds the resolved value now, which must not become the default. */
    EXPECT_EQ(mca_var_register("fw", "c", "s", "", MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &second),
              idx);
    EXPECT_EQ(find_var("fw_c_s")->default_value, "a");
    EXPECT_EQ(find_var("fw_c_s")->value, "from-env");
    EXPECT_EQ(error_count(), 0);
}

TEST_F(McaVarRegister, RegisteringAgainWithAnotherTypeIsAnError)
{
    int n = 0;
    double d = 0;
    ASSERT_GE(mca_var_register("fw", "c", "x", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &n), 0);
    EXPECT_EQ(mca_var_register("fw", "c", "x", "", MCA_VAR_TYPE_DOUBLE, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &d),
              TESSERA_ERR_EXISTS);
    EXPECT_TRUE(any_contains(errors(), "fw_c_x")) << joined(errors());
    EXPECT_TRUE(any_contains(errors(), "int")) << joined(errors());
}

TEST_F(McaVarRegister, BadRegistrationsAreRefused)
{
    int n = 0;
    EXPECT_EQ(mca_var_register("fw", "c", "x", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, nullptr),
              TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_var_register("fw", "c", "e", "", MCA_VAR_TYPE_ENUM, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &n),
              TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_var_register("fw", "c", "bad name", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &n),
              TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_var_register(nullptr, nullptr, nullptr, "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &n),
              TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_var_register("fw", "c", "lvl", "", MCA_VAR_TYPE_INT, nullptr, static_cast<mca_var_info_level_t>(10),
                               MCA_VAR_SCOPE_LOCAL, 0, &n),
              TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(error_count(), 5);
}

TEST_F(McaVarRegister, BadIntValueIsReportedAndTheDefaultKept)
{
    set_mca_env("fw_c_count", "abc");
    int count = 4;
    ASSERT_GE(mca_var_register("fw", "c", "count", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &count),
              0);
    EXPECT_EQ(count, 4);
    EXPECT_EQ(find_var("fw_c_count")->source.kind, SourceKind::Default);
    ASSERT_EQ(error_count(), 1);
    const std::string msg = error_messages()[0];
    EXPECT_NE(msg.find("\"fw_c_count\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"abc\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("expected an integer"), std::string::npos) << msg;
    EXPECT_NE(msg.find("environment"), std::string::npos) << msg;
    EXPECT_EQ(errors(), error_messages()) << "every error goes through report()";
}

TEST_F(McaVarRegister, BadValueFallsBackToTheNextLowerSource)
{
    set_mca_env("fw_c_count", "5");
    set_command_line("fw_c_count", "99999999999");
    int count = 4;
    ASSERT_GE(mca_var_register("fw", "c", "count", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &count),
              0);
    EXPECT_EQ(count, 5);
    EXPECT_EQ(find_var("fw_c_count")->source.describe(), "environment");
    ASSERT_EQ(error_count(), 1);
    EXPECT_NE(error_messages()[0].find("command line"), std::string::npos) << error_messages()[0];
    EXPECT_NE(error_messages()[0].find("99999999999"), std::string::npos) << error_messages()[0];
}

TEST_F(McaVarRegister, BadEnumValueListsTheNames)
{
    set_command_line("fw_c_mode", "7");
    int mode = 1;
    ASSERT_GE(mca_var_register("fw", "c", "mode", "", MCA_VAR_TYPE_ENUM, kModes, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &mode),
              0);
    EXPECT_EQ(mode, 1);
    ASSERT_EQ(error_count(), 1);
    const std::string msg = error_messages()[0];
    for (const char *part : {"fw_c_mode", "\"7\"", "off", "fast", "safe", "command line"}) {
        EXPECT_NE(msg.find(part), std::string::npos) << part << " in " << msg;
    }
    auto info = find_var("fw_c_mode");
    ASSERT_EQ(info->enumerators.size(), 3u);
    EXPECT_EQ(info->enumerators[2], (std::pair<int, std::string>{2, "safe"}));
    EXPECT_EQ(info->value, "fast");
}

TEST_F(McaVarRegister, BadSizeIsReportedOnceAcrossReResolution)
{
    set_mca_env("fw_c_limit", "12Q");
    size_t limit = 1024;
    ASSERT_GE(mca_var_register("fw", "c", "limit", "", MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &limit),
              0);
    EXPECT_EQ(limit, 1024u);
    set_command_line("fw_c_other", "1"); /* unrelated */
    ASSERT_GE(mca_var_register("fw", "c", "limit", "", MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &limit),
              0);
    EXPECT_EQ(error_count(), 1) << joined(error_messages());
    EXPECT_NE(error_messages()[0].find("12Q"), std::string::npos);
    EXPECT_NE(error_messages()[0].find("size"), std::string::npos);
    set_command_line("fw_c_limit", "4k");
    EXPECT_EQ(limit, 4096u);
}

TEST_F(McaVarRegister, HiddenValuesAreNotShown)
{
    set_mca_env("fw_c_secret", "hunter2");
    const char *secret = "none";
    ASSERT_GE(mca_var_register("fw", "c", "secret", "", MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_9,
                               MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_HIDDEN_VALUE, &secret),
              0);
    EXPECT_STREQ(secret, "hunter2");
    EXPECT_EQ(find_var("fw_c_secret")->value, "(hidden)");
    EXPECT_EQ(find_var("fw_c_secret")->default_value, "(hidden)");

    set_mca_env("fw_c_pin", "12x4");
    vars_finalize();
    int pin = 0;
    ASSERT_GE(mca_var_register("fw", "c", "pin", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_9,
                               MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_HIDDEN_VALUE, &pin),
              0);
    ASSERT_EQ(error_count(), 1);
    EXPECT_EQ(error_messages()[0].find("12x4"), std::string::npos) << error_messages()[0];
}

TEST_F(McaVarRegister, ConstantsCannotBeSet)
{
    set_command_line("fw_c_const", "2");
    int c = 1;
    ASSERT_GE(mca_var_register("fw", "c", "const", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_9,
                               MCA_VAR_SCOPE_CONSTANT, 0, &c),
              0);
    EXPECT_EQ(c, 1);
    ASSERT_EQ(error_count(), 1);
    EXPECT_NE(error_messages()[0].find("constant"), std::string::npos) << error_messages()[0];
    EXPECT_EQ(find_var("fw_c_const")->scope_name, "constant");
}

TEST_F(McaVarRegister, ListVarsInRegistrationOrderWithTheCoreParameterFirst)
{
    int a = 0;
    int b = 0;
    ASSERT_GE(mca_var_register("z", nullptr, "a", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &a), 0);
    ASSERT_GE(mca_var_register("a", nullptr, "b", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1, MCA_VAR_SCOPE_LOCAL, 0, &b), 0);
    auto vars = list_vars();
    ASSERT_EQ(vars.size(), 3u);
    EXPECT_EQ(vars[0].full_name, "mca_param_files");
    EXPECT_EQ(vars[0].type_name, "list");
    EXPECT_EQ(vars[0].level, 5);
    EXPECT_EQ(vars[1].full_name, "z_a");
    EXPECT_EQ(vars[2].full_name, "a_b");
    for (size_t i = 0; i < vars.size(); ++i) {
        EXPECT_EQ(vars[i].index, static_cast<int>(i));
    }
    EXPECT_EQ(mca_var_find("a_b"), 2);
    EXPECT_EQ(mca_var_find("nope"), TESSERA_ERR_NOT_FOUND);
    EXPECT_EQ(mca_var_find(nullptr), TESSERA_ERR_NOT_FOUND);
    EXPECT_FALSE(find_var("nope").has_value());
}

TEST_F(McaVarRegister, StrerrorNamesEveryCode)
{
    EXPECT_STREQ(tessera_strerror(TESSERA_SUCCESS), "success");
    EXPECT_STREQ(tessera_strerror(TESSERA_ERR_NOT_FOUND), "not found");
    for (int code = TESSERA_ERR_IO; code <= TESSERA_SUCCESS; ++code) {
        EXPECT_NE(std::strcmp(tessera_strerror(code), "unknown error code"), 0) << code;
    }
    EXPECT_STREQ(tessera_strerror(-999), "unknown error code");
}

} // namespace
} // namespace tessera::mca::test
