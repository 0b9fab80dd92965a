// mca_component_show_load_errors: which refusals are printed; load_errors() always has them all.
#include "mca/report.h"
#include "mca/var_store.h"
#include "testfw_fixture.h"

using namespace tessera::mca;
using ::testing::HasSubstr;

class McaFwShowLoadErrors : public McaFwTest {
protected:
    /* Registers both test frameworks with the given setting; returns the printed load-error warnings. */
    std::vector<std::string> printed_with(const std::string &value)
    {
        set_command_line("mca_component_show_load_errors", value);
        EXPECT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
        EXPECT_EQ(framework_register(&testfw2_framework), TESSERA_SUCCESS);
        return reports_containing(Severity::Warning, std::string(TESTFW_DSO_DIR) + "/mca_");
    }
    static constexpr size_t kTestfwErrors = 13;
    static constexpr size_t kTestfw2Errors = 1;
};

TEST_F(McaFwShowLoadErrors, AllPrintsEveryRefusal)
{
    EXPECT_EQ(printed_with("all").size(), kTestfwErrors + kTestfw2Errors);
    EXPECT_EQ(load_errors().size(), kTestfwErrors + kTestfw2Errors);
}

TEST_F(McaFwShowLoadErrors, NonePrintsNothingButKeepsThem)
{
    EXPECT_TRUE(printed_with("none").empty());
    EXPECT_EQ(load_errors().size(), kTestfwErrors + kTestfw2Errors);
    EXPECT_TRUE(reported(Severity::Error).empty());
}

TEST_F(McaFwShowLoadErrors, AFrameworkNamePrintsOnlyItsRefusals)
{
    const auto printed = printed_with("testfw2");
    ASSERT_EQ(printed.size(), kTestfw2Errors);
    EXPECT_THAT(printed[0], HasSubstr("mca_testfw2_broken.so: no symbol"));
    EXPECT_EQ(load_errors().size(), kTestfwErrors + kTestfw2Errors);
}

TEST_F(McaFwShowLoadErrors, FrameworkSlashComponentPrintsOnlyThat)
{
    const auto printed = printed_with("testfw/junk, testfw/oldmca");
    ASSERT_EQ(printed.size(), 2u);
    EXPECT_THAT(printed[0] + printed[1], HasSubstr("mca_testfw_junk.so"));
    EXPECT_THAT(printed[0] + printed[1], HasSubstr("mca_testfw_oldmca.so"));
}

TEST_F(McaFwShowLoadErrors, InvalidEntriesAreReportedOnceAndTheValidOnesStillApply)
{
    const auto printed = printed_with("testfw/junk/x,,testfw2,none,a b");
    ASSERT_EQ(printed.size(), kTestfw2Errors);
    const auto errors = reported(Severity::Error);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_THAT(errors[0], HasSubstr("bad value \"testfw/junk/x,,testfw2,none,a b\" for parameter "
                                     "\"mca_component_show_load_errors\" from command line: "
                                     "ignoring \"testfw/junk/x\", \"\", \"none\", \"a b\""));
    EXPECT_THAT(errors[0], HasSubstr("expected all, none, or a comma-separated list"));
}
