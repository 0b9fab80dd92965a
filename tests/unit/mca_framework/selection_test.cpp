// The selection parameter ("a,b", "^a,b") and one-of-many / many-of-many selection.
#include "mca/report.h"
#include "mca/select.h"
#include "mca/var_store.h"
#include "testfw_fixture.h"

using namespace tessera::mca;
using ::testing::HasSubstr;

class McaFwSelect : public McaFwTest {
protected:
    /* Opens testfw with the selection given on the command line; returns framework_open's code. */
    int open_with(const std::string &selection)
    {
        set_command_line("testfw", selection);
        return framework_open(&testfw_framework);
    }
    std::string only_error()
    {
        const auto errors = reported(Severity::Error);
        EXPECT_EQ(errors.size(), 1u);
        return errors.empty() ? "" : errors.front();
    }
};

TEST_F(McaFwSelect, EmptyValueOpensEveryComponent)
{
    ASSERT_EQ(open_with(""), TESSERA_SUCCESS);
    EXPECT_EQ(component_names(&testfw_framework), (std::vector<std::string>{"alpha", "beta", "compat", "good"}));
}

TEST_F(McaFwSelect, IncludeListOpensOnlyThoseAndUnloadsTheRest)
{
    ASSERT_EQ(open_with("good, alpha"), TESSERA_SUCCESS);
    EXPECT_EQ(component_names(&testfw_framework), (std::vector<std::string>{"alpha", "good"}));
    EXPECT_EQ(alpha_behaviour.opens, 1);
    EXPECT_EQ(beta_behaviour.opens, 0);
    EXPECT_FALSE(dso_loaded(dso_path("compat")));
    EXPECT_EQ(dso_int(dso_path("good"), "testfw_good_open_count"), 1);
}

TEST_F(McaFwSelect, ExcludeListOpensAllButThose)
{
    ASSERT_EQ(open_with("^alpha,good"), TESSERA_SUCCESS);
    EXPECT_EQ(component_names(&testfw_framework), (std::vector<std::string>{"beta", "compat"}));
    EXPECT_EQ(alpha_behaviour.opens, 0);
    EXPECT_FALSE(dso_loaded(dso_path("good")));
}

TEST_F(McaFwSelect, CaretInTheMiddleIsAnErrorNamingParameterValueAndSource)
{
    EXPECT_EQ(open_with("alpha,^beta"), TESSERA_ERR_BAD_PARAM);
    const std::string error = only_error();
    EXPECT_THAT(error, HasSubstr("bad value \"alpha,^beta\" for parameter \"testfw\" from command line: "));
    EXPECT_THAT(error, HasSubstr("'^' must be the first character"));
    EXPECT_FALSE(framework_is_open(&testfw_framework));
    EXPECT_EQ(alpha_behaviour.opens + beta_behaviour.opens, 0);
}

TEST_F(McaFwSelect, TwoCaretsAreAnError)
{
    EXPECT_EQ(open_with("^alpha,^beta"), TESSERA_ERR_BAD_PARAM);
    EXPECT_THAT(only_error(), HasSubstr("'^' appears 2 times; it may appear only once"));
}

TEST_F(McaFwSelect, EmptyEntriesAreErrors)
{
    for (const char *value : {"alpha,,beta", "alpha,", ",alpha", "^", "^ ,beta"}) {
        report_clear();
        EXPECT_EQ(open_with(value), TESSERA_ERR_BAD_PARAM) << value;
        EXPECT_THAT(only_error(), HasSubstr("is empty")) << value;
    }
}

TEST_F(McaFwSelect, UnknownIncludeIsAnErrorWithSuggestionAndTheFullList)
{
    EXPECT_EQ(open_with("alpah"), TESSERA_ERR_BAD_PARAM);
    const std::string error = only_error();
    EXPECT_THAT(error, HasSubstr("bad value \"alpah\" for parameter \"testfw\" from command line: "));
    EXPECT_THAT(error, HasSubstr("there is no testfw component \"alpah\" (did you mean alpha?); "
                                     "the testfw components are"));
    EXPECT_THAT(error, HasSubstr("the testfw components are: alpha, beta, compat, good"));
}

TEST_F(McaFwSelect, IncludingARefusedComponentSaysWhyItWasRefused)
{
    EXPECT_EQ(open_with("oldmca"), TESSERA_ERR_BAD_PARAM);
    EXPECT_THAT(only_error(), HasSubstr(dso_path("oldmca") + ": built for MCA 2.0.0, this library is MCA 1.0.0"));
}

TEST_F(McaFwSelect, UnknownExcludeIsOnlyAWarning)
{
    ASSERT_EQ(open_with("^gooood"), TESSERA_SUCCESS);
    EXPECT_TRUE(reported(Severity::Error).empty());
    const auto warnings = reports_containing(
        Severity::Warning, "value \"^gooood\" for parameter \"testfw\" from command line: nothing to exclude");
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_THAT(warnings[0], HasSubstr("(did you mean good?)"));
    EXPECT_EQ(component_names(&testfw_framework).size(), 4u);
}

TEST_F(McaFwSelect, ParseSelectionGivesTheList)
{
    Selection s;
    ASSERT_EQ(parse_selection("testfw", " ^ a , b ", {"a", "b", "c"}, {}, &s), TESSERA_SUCCESS);
    EXPECT_TRUE(s.exclude);
    EXPECT_EQ(s.names, (std::vector<std::string>{"a", "b"}));
    EXPECT_FALSE(s.allows("a"));
    EXPECT_TRUE(s.allows("c"));
    ASSERT_EQ(parse_selection("testfw", "c,a,c", {"a", "b", "c"}, {}, &s), TESSERA_SUCCESS);
    EXPECT_FALSE(s.exclude);
    EXPECT_EQ(s.names, (std::vector<std::string>{"c", "a"}));
    EXPECT_FALSE(s.allows("b"));
}

TEST_F(McaFwSelect, SelectOneKeepsTheHighestPriorityAndUnloadsTheRest)
{
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    SelectedComponent selected;
    ASSERT_EQ(select_one(&testfw_framework, &selected), TESSERA_SUCCESS);
    EXPECT_STREQ(selected.component->mca_component_name, "good");
    EXPECT_EQ(selected.priority, 30);
    EXPECT_STREQ(static_cast<const char *>(selected.module), "good module");
    EXPECT_EQ(component_names(&testfw_framework), std::vector<std::string>{"good"});
    EXPECT_EQ(alpha_behaviour.closes, 1);
    EXPECT_EQ(beta_behaviour.closes, 1);
    EXPECT_FALSE(dso_loaded(dso_path("compat")));
    EXPECT_EQ(dso_int(dso_path("good"), "testfw_good_close_count"), 0);
}

TEST_F(McaFwSelect, SelectOneFollowsAComponentsPriorityParameter)
{
    set_command_line("testfw_good_priority", "5");
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    SelectedComponent selected;
    ASSERT_EQ(select_one(&testfw_framework, &selected), TESSERA_SUCCESS);
    EXPECT_STREQ(selected.component->mca_component_name, "beta");
    EXPECT_EQ(selected.module, &beta_behaviour);
    EXPECT_FALSE(dso_loaded(dso_path("good")));
}

TEST_F(McaFwSelect, SelectOneBreaksTiesByName)
{
    beta_behaviour.priority = 40;
    alpha_behaviour.priority = 40;
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    SelectedComponent selected;
    ASSERT_EQ(select_one(&testfw_framework, &selected), TESSERA_SUCCESS);
    EXPECT_STREQ(selected.component->mca_component_name, "alpha");
}

TEST_F(McaFwSelect, SelectOneSkipsComponentsThatDecline)
{
    set_command_line("testfw_good_priority", "-1");
    beta_behaviour.query_rc = TESSERA_ERR_NOT_AVAILABLE;
    beta_behaviour.priority = 100;
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    SelectedComponent selected;
    ASSERT_EQ(select_one(&testfw_framework, &selected), TESSERA_SUCCESS);
    EXPECT_STREQ(selected.component->mca_component_name, "alpha");
    EXPECT_EQ(beta_behaviour.closes, 1);
}

TEST_F(McaFwSelect, SelectOneWithNoTakerIsNotFound)
{
    alpha_behaviour.query_rc = TESSERA_ERR_NOT_AVAILABLE;
    ASSERT_EQ(open_with("alpha"), TESSERA_SUCCESS);
    SelectedComponent selected;
    EXPECT_EQ(select_one(&testfw_framework, &selected), TESSERA_ERR_NOT_FOUND);
    EXPECT_TRUE(component_names(&testfw_framework).empty());
    EXPECT_EQ(alpha_behaviour.closes, 1);
}

TEST_F(McaFwSelect, SelectingAFrameworkThatIsNotOpenFails)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    SelectedComponent selected;
    EXPECT_EQ(select_one(&testfw_framework, &selected), TESSERA_ERR_BAD_PARAM);
    EXPECT_THAT(only_error(), HasSubstr("the framework is not open"));
}

TEST_F(McaFwSelect, SelectManyKeepsEveryTakerInDescendingPriority)
{
    alpha_behaviour.query_rc = TESSERA_ERR_NOT_AVAILABLE;
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    std::vector<SelectedComponent> selected;
    ASSERT_EQ(select_many(&testfw_framework, &selected), TESSERA_SUCCESS);
    std::vector<std::pair<std::string, int>> got;
    for (const auto &s : selected) {
        got.emplace_back(s.component->mca_component_name, s.priority);
    }
    // compat has no query function: it accepts with priority 0.
    EXPECT_EQ(got, (std::vector<std::pair<std::string, int>>{{"good", 30}, {"beta", 20}, {"compat", 0}}));
    EXPECT_EQ(component_names(&testfw_framework), (std::vector<std::string>{"good", "beta", "compat"}));
    EXPECT_EQ(alpha_behaviour.closes, 1);
    EXPECT_EQ(beta_behaviour.closes, 0);
}

TEST_F(McaFwSelect, OptInFrameworkSelectsNothingUntilNamed)
{
    struct ResetFlags {
        ~ResetFlags() { testfw_framework.flags = 0; }
    } reset;
    testfw_framework.flags = MCA_FRAMEWORK_FLAG_OPT_IN;
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    std::vector<SelectedComponent> selected;
    EXPECT_EQ(select_many(&testfw_framework, &selected), TESSERA_SUCCESS);
    EXPECT_TRUE(selected.empty()) << "an opt-in framework ran a component nobody asked for";
    framework_close(&testfw_framework);

    set_command_line("testfw", "beta");
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(select_many(&testfw_framework, &selected), TESSERA_SUCCESS);
    ASSERT_EQ(selected.size(), 1u);
    EXPECT_STREQ(selected[0].component->mca_component_name, "beta");
}
