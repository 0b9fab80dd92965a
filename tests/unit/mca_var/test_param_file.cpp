/* INI parameter files: sections, comments, quoting, and errors that name file and line. */
#include "mca/param_file.h"
#include "mca/var.h"
#include "var_test_fixture.h"

namespace tessera::mca::test {
namespace {

using McaVarIni = VarTest;

const FileSetting *find_setting(const ParamFile &f, const std::string &name)
{
    const FileSetting *found = nullptr;
    for (const auto &s : f.settings) {
        if (s.name == name) {
            found = &s;
        }
    }
    return found;
}

TEST_F(McaVarIni, TopLevelAndSections)
{
    const ParamFile f = parse_param_text("# comment\n"
                                         "mca_component_path = /opt/x\n"
                                         "; another comment\n"
                                         "\n"
                                         "[btl_tcp]\n"
                                         "links = 2\n"
                                         "  if_include = eth0 ; inline comment\n"
                                         "[btl]\n"
                                         "btl_key=v\n",
                                         "/p.conf");
    EXPECT_TRUE(f.errors.empty()) << joined(f.errors);
    ASSERT_EQ(f.settings.size(), 4u);
    EXPECT_EQ(f.settings[0].name, "mca_component_path");
    EXPECT_EQ(f.settings[0].value, "/opt/x");
    EXPECT_EQ(f.settings[0].line, 2);
    EXPECT_EQ(f.settings[1].name, "btl_tcp_links");
    EXPECT_EQ(f.settings[1].value, "2");
    EXPECT_EQ(f.settings[1].line, 6);
    EXPECT_EQ(f.settings[2].name, "btl_tcp_if_include") << "an indented line is a key, not a continuation";
    EXPECT_EQ(f.settings[2].value, "eth0");
    EXPECT_EQ(f.settings[2].line, 7);
    EXPECT_EQ(f.settings[3].name, "btl_btl_key");
    EXPECT_EQ(f.settings[3].line, 9);
}

TEST_F(McaVarIni, QuotesKeepBlanksAndCrlfIsAccepted)
{
    const ParamFile f = parse_param_text("a = \"  two words  \"\r\nb = 'x'\r\nc=\r\n", "/q.conf");
    EXPECT_TRUE(f.errors.empty()) << joined(f.errors);
    ASSERT_NE(find_setting(f, "a"), nullptr);
    EXPECT_EQ(find_setting(f, "a")->value, "  two words  ");
    EXPECT_EQ(find_setting(f, "b")->value, "x");
    ASSERT_NE(find_setting(f, "c"), nullptr);
    EXPECT_EQ(find_setting(f, "c")->value, "");
    EXPECT_EQ(find_setting(f, "c")->line, 3);
}

TEST_F(McaVarIni, MalformedLineIsAnErrorWithFileAndLine)
{
    const ParamFile f = parse_param_text("a = 1\n\nthis line has no equals sign\nb = 2\n", "/m.conf");
    ASSERT_EQ(f.errors.size(), 1u) << joined(f.errors);
    EXPECT_EQ(f.errors[0].rfind("file:/m.conf:3: malformed line \"this line has no equals sign\"", 0), 0u)
        << f.errors[0];
    EXPECT_NE(find_setting(f, "b"), nullptr) << "the rest of the file still counts";
}

TEST_F(McaVarIni, UnclosedSectionAndMissingName)
{
    const ParamFile f1 = parse_param_text("[btl_tcp\nlinks = 2\n", "/s.conf");
    ASSERT_EQ(f1.errors.size(), 1u) << joined(f1.errors);
    EXPECT_EQ(f1.errors[0].rfind("file:/s.conf:1:", 0), 0u) << f1.errors[0];
    const ParamFile f2 = parse_param_text("ok = 1\n= 5\n", "/n.conf");
    ASSERT_EQ(f2.errors.size(), 1u) << joined(f2.errors);
    EXPECT_EQ(f2.errors[0].rfind("file:/n.conf:2: missing parameter name", 0), 0u) << f2.errors[0];
}

TEST_F(McaVarIni, OverlongLineIsAnErrorNotMisparsed)
{
    /* The tail of a line longer than inih's buffer must not come back as a line of its own. */
    const std::string tail = "x_tail_key = 7";
    const std::string longline = "long_key = " + std::string(300, 'v') + " " + tail;
    const ParamFile f = parse_param_text("a = 1\n" + longline + "\nb = 2\n", "/l.conf");
    ASSERT_EQ(f.errors.size(), 1u) << joined(f.errors);
    EXPECT_EQ(f.errors[0].rfind("file:/l.conf:2: line is", 0), 0u) << f.errors[0];
    EXPECT_EQ(find_setting(f, "long_key"), nullptr);
    EXPECT_EQ(find_setting(f, "x_tail_key"), nullptr);
    ASSERT_NE(find_setting(f, "b"), nullptr);
    EXPECT_EQ(find_setting(f, "b")->line, 3) << "line numbers stay right after the long line";
}

TEST_F(McaVarIni, ALineJustUnderTheLimitIsRead)
{
    const std::string value(180, 'v');
    const ParamFile f = parse_param_text("k = " + value + "\n", "/ok.conf");
    EXPECT_TRUE(f.errors.empty()) << joined(f.errors);
    ASSERT_NE(find_setting(f, "k"), nullptr);
    EXPECT_EQ(find_setting(f, "k")->value, value);
}

TEST_F(McaVarIni, MissingFileAndDirectory)
{
    const ParamFile missing = read_param_file((dir_ / "nope.conf").string());
    EXPECT_TRUE(missing.missing);
    const ParamFile directory = read_param_file(dir_.string());
    EXPECT_FALSE(directory.missing);
    ASSERT_EQ(directory.errors.size(), 1u);
    EXPECT_NE(directory.errors[0].find("directory"), std::string::npos);
}

TEST_F(McaVarIni, ErrorsInTheUserFileAreReportedThroughTheStore)
{
    write_file(user_file(), "[p]\nx = 3\ngarbage\n" + std::string(250, 'y') + "\n");
    int x = 0;
    ASSERT_GE(mca_var_register("p", nullptr, "x", "", MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_1,
                               MCA_VAR_SCOPE_LOCAL, 0, &x),
              0);
    EXPECT_EQ(x, 3);
    EXPECT_EQ(find_var("p_x")->source.describe(), "file:" + user_file() + ":2");
    ASSERT_EQ(error_count(), 2) << joined(error_messages());
    EXPECT_EQ(error_messages()[0].rfind("file:" + user_file() + ":3: malformed line", 0), 0u) << error_messages()[0];
    EXPECT_EQ(error_messages()[1].rfind("file:" + user_file() + ":4: line is", 0), 0u) << error_messages()[1];
    EXPECT_TRUE(any_contains(errors(), ":3: malformed line")) << "reported, not only recorded";
}

} // namespace
} // namespace tessera::mca::test
