/*
 * Sources and precedence: default < system file < user file < --tune files < environment < --mca,
 * each value remembering exactly where it came from.
 */
#include "mca/constants.h"
#include "mca/var.h"
#include "var_test_fixture.h"

namespace tessera::mca::test {
namespace {

using McaVarSources = VarTest;

int register_int(const char *name, int *storage)
{
    return mca_var_register("p", nullptr, name, "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1,
                            MCA_VAR_SCOPE_LOCAL, 0, storage);
}

TEST_F(McaVarSources, PrecedenceOfAllSixSources)
{
    /* p_kN is set by the N lowest sources (after the default), so it must end up with source N. */
    write_file(system_file(), "p_k1 = 1\np_k2 = 1\np_k3 = 1\np_k4 = 1\np_k5 = 1\np_k6 = 1\n");
    write_file(user_file(), "# user\np_k2 = 2\np_k3 = 2\np_k4 = 2\np_k5 = 2\np_k6 = 2\n");
    const std::string tune1 = write_file(dir_ / "a.conf", "p_k3 = 3\np_k4 = 3\np_k5 = 3\np_k6 = 3\n");
    const std::string tune2 = write_file(dir_ / "b.conf", "\n\np_k4 = 4\np_k5 = 4\np_k6 = 4\n");
    add_tune_file(tune1);
    add_tune_file(tune2);
    set_mca_env("p_k5", "5");
    set_mca_env("p_k6", "5");
    set_command_line("p_k6", "6");

    int v[7] = {};
    for (int k = 0; k <= 6; ++k) {
        const std::string name = "k" + std::to_string(k);
        ASSERT_GE(register_int(name.c_str(), &v[k]), 0);
    }
    EXPECT_EQ(load_sources(), TESSERA_SUCCESS);
    for (int k = 0; k <= 6; ++k) {
        EXPECT_EQ(v[k], k) << "p_k" << k;
    }
    EXPECT_EQ(find_var("p_k0")->source.describe(), "default");
    EXPECT_EQ(find_var("p_k1")->source.describe(), "file:" + system_file() + ":1");
    EXPECT_EQ(find_var("p_k1")->source.kind, SourceKind::SystemFile);
    EXPECT_EQ(find_var("p_k2")->source.describe(), "file:" + user_file() + ":2");
    EXPECT_EQ(find_var("p_k2")->source.kind, SourceKind::UserFile);
    EXPECT_EQ(find_var("p_k3")->source.describe(), "file:" + tune1 + ":1");
    EXPECT_EQ(find_var("p_k3")->source.kind, SourceKind::TuneFile);
    EXPECT_EQ(find_var("p_k4")->source.describe(), "file:" + tune2 + ":3");
    EXPECT_EQ(find_var("p_k4")->source.file, tune2);
    EXPECT_EQ(find_var("p_k4")->source.line, 3);
    EXPECT_EQ(find_var("p_k5")->source.describe(), "environment");
    EXPECT_EQ(find_var("p_k6")->source.describe(), "command line");
    EXPECT_EQ(find_var("p_k6")->source.kind, SourceKind::CommandLine);
    EXPECT_EQ(error_count(), 0) << joined(error_messages());
}

TEST_F(McaVarSources, ALaterTuneFileOverridesAnEarlierOne)
{
    const std::string a = write_file(dir_ / "a.conf", "p_x = 1\n");
    const std::string b = write_file(dir_ / "b.conf", "p_x = 2\n");
    add_tune_file(b);
    add_tune_file(a);
    int x = 0;
    ASSERT_GE(register_int("x", &x), 0);
    EXPECT_EQ(x, 1);
    EXPECT_EQ(find_var("p_x")->source.file, a);
}

TEST_F(McaVarSources, TheCommandLineIsNotFoldedIntoTheEnvironment)
{
    set_command_line("p_x", "6");
    int x = 0;
    ASSERT_GE(register_int("x", &x), 0);
    EXPECT_EQ(std::getenv("TESSERA_MCA_p_x"), nullptr);
    EXPECT_EQ(find_var("p_x")->source.kind, SourceKind::CommandLine);
}

TEST_F(McaVarSources, SettingsBeforeTheFirstUseAreKept)
{
    /* A tool parses --mca and --tune before anything registers. */
    const std::string t = write_file(dir_ / "t.conf", "p_y = 3\n");
    set_command_line("p_x", "2");
    add_tune_file(t);
    int x = 0;
    int y = 0;
    ASSERT_GE(register_int("x", &x), 0);
    ASSERT_GE(register_int("y", &y), 0);
    EXPECT_EQ(x, 2);
    EXPECT_EQ(y, 3);
}

TEST_F(McaVarSources, ATuneFileAddedLaterIsReadAtOnce)
{
    int x = 0;
    ASSERT_GE(register_int("x", &x), 0);
    EXPECT_EQ(x, 0);
    add_tune_file(write_file(dir_ / "late.conf", "p_x = 12\n"));
    EXPECT_EQ(x, 12);
}

TEST_F(McaVarSources, ParamFilesNamesMoreFiles)
{
    const std::string extra = write_file(dir_ / "conf" / "extra.conf", "p_x = 7\nmca_param_files = more.conf\n");
    write_file(dir_ / "conf" / "more.conf", "p_y = 8\n");
    set_mca_env("mca_param_files", extra);
    int x = 0;
    int y = 0;
    ASSERT_GE(register_int("x", &x), 0);
    ASSERT_GE(register_int("y", &y), 0);
    EXPECT_EQ(x, 7);
    EXPECT_EQ(y, 8) << "a relative name in a file is relative to that file";
    EXPECT_EQ(find_var("p_x")->source.describe(), "file:" + extra + ":1");
    EXPECT_EQ(find_var("p_x")->source.kind, SourceKind::TuneFile);
    EXPECT_EQ(find_var("mca_param_files")->source.describe(), "environment");
    EXPECT_EQ(error_count(), 0) << joined(error_messages());
}

TEST_F(McaVarSources, ParamFilesFromTheCommandLine)
{
    const std::string f1 = write_file(dir_ / "f1.conf", "p_x = 1\np_y = 1\n");
    const std::string f2 = write_file(dir_ / "f2.conf", "p_y = 2\n");
    set_command_line("mca_param_files", f1 + ", " + f2);
    int x = 0;
    int y = 0;
    ASSERT_GE(register_int("x", &x), 0);
    ASSERT_GE(register_int("y", &y), 0);
    EXPECT_EQ(x, 1);
    EXPECT_EQ(y, 2);
    /* Named after start-up: read at once. */
    set_command_line("mca_param_files", write_file(dir_ / "f3.conf", "p_x = 3\n"));
    EXPECT_EQ(x, 3);
}

TEST_F(McaVarSources, MissingTuneFileIsAnErrorButMissingSystemAndUserFilesAreNot)
{
    int x = 0;
    ASSERT_GE(register_int("x", &x), 0);
    EXPECT_EQ(error_count(), 0);
    const std::string missing = (dir_ / "no-such.conf").string();
    add_tune_file(missing);
    ASSERT_EQ(error_count(), 1);
    EXPECT_NE(error_messages()[0].find("file:" + missing), std::string::npos) << error_messages()[0];
    EXPECT_NE(error_messages()[0].find("cannot read"), std::string::npos) << error_messages()[0];
}

TEST_F(McaVarSources, LoadSourcesReportsFailureAndReadsNothingTwice)
{
    add_tune_file((dir_ / "no-such.conf").string());
    EXPECT_EQ(load_sources(), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(load_sources(), TESSERA_SUCCESS);
    EXPECT_EQ(error_count(), 1);
    add_tune_file((dir_ / "no-such.conf").string());
    EXPECT_EQ(error_count(), 1) << "a file already read is not read again";
}

TEST_F(McaVarSources, FinalizeForgetsEverythingAndTheNextUseRereads)
{
    set_mca_env("p_x", "1");
    set_command_line("p_y", "1");
    int x = 0;
    int y = 0;
    ASSERT_GE(register_int("x", &x), 0);
    EXPECT_EQ(x, 1);
    vars_finalize();
    set_mca_env("p_x", "2");
    EXPECT_EQ(list_vars().size(), 1u) << "only mca_param_files again";
    x = 0;
    ASSERT_GE(register_int("x", &x), 0);
    ASSERT_GE(register_int("y", &y), 0);
    EXPECT_EQ(x, 2);
    EXPECT_EQ(y, 0) << "the command line was dropped too";
}

TEST_F(McaVarSources, TesseraPrefixPointsAtTheSystemFile)
{
    write_file(system_file(), "p_x = 41\n");
    int x = 0;
    ASSERT_GE(register_int("x", &x), 0);
    EXPECT_EQ(x, 41);
    const std::filesystem::path other = dir_ / "other-prefix";
    write_file(other / "etc" / "tessera-mca-params.conf", "p_x = 42\n");
    setenv("TESSERA_PREFIX", other.c_str(), 1);
    vars_finalize();
    ASSERT_GE(register_int("x", &x), 0);
    EXPECT_EQ(x, 42);
}

TEST_F(McaVarSources, BadValueInAFileNamesFileAndLine)
{
    write_file(user_file(), "\n[p]\nx = 1O\n");
    int x = 5;
    ASSERT_GE(register_int("x", &x), 0);
    EXPECT_EQ(x, 5);
    ASSERT_EQ(error_count(), 1);
    const std::string msg = error_messages()[0];
    EXPECT_NE(msg.find("file:" + user_file() + ":3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"1O\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"p_x\""), std::string::npos) << msg;
}

/* A value that parses but breaks a component's rule is said with where it was set (bad_value). */
TEST_F(McaVarSources, ABrokenRuleNamesWhereTheValueWasSet)
{
    const std::string tune = write_file(dir_ / "t.conf", "\np_f = 7\n");
    add_tune_file(tune);
    set_mca_env("p_e", "-2");
    set_command_line("p_c", "0");
    int f = 0, e = 0, c = 0, d = 0;
    ASSERT_GE(register_int("f", &f), 0);
    ASSERT_GE(register_int("e", &e), 0);
    ASSERT_GE(register_int("c", &c), 0);
    ASSERT_GE(register_int("d", &d), 0);
    EXPECT_EQ(load_sources(), TESSERA_SUCCESS);
    EXPECT_EQ(bad_value("p_c", "0", "must be at least 1"),
              "p_c: value 0 from command line (--mca p_c) must be at least 1");
    EXPECT_EQ(bad_value("p_e", "-2", "must be at least 0"),
              "p_e: value -2 from environment (TESSERA_MCA_p_e) must be at least 0");
    EXPECT_EQ(bad_value("p_f", "7", "is not in 1..4"), "p_f: value 7 from file:" + tune + ":2 is not in 1..4");
    EXPECT_EQ(bad_value("p_d", "0", "must be positive"), "p_d: value 0 from default must be positive");
    EXPECT_EQ(bad_value("p_unregistered", "1", "is wrong"), "p_unregistered: value 1 from default is wrong");
}

} // namespace
} // namespace tessera::mca::test
