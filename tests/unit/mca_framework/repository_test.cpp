// Finding components: the static table, then DSOs on mca_component_path; every refusal kept with its
// file and reason, and the process going on.
#include <algorithm>

#include "mca/report.h"
#include "mca/var_store.h"
#include "testfw_fixture.h"

using namespace tessera::mca;
using ::testing::HasSubstr;

class McaFwRepository : public McaFwTest {};

TEST_F(McaFwRepository, ListsStaticComponentsFirstThenGoodDsosWithTheirPath)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    const auto components = framework_components(&testfw_framework);
    std::vector<std::pair<std::string, std::string>> got;
    for (const auto &c : components) {
        got.emplace_back(c.component->mca_component_name, c.path);
    }
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"alpha", ""}, {"beta", ""}, {"compat", dso_path("compat")}, {"good", dso_path("good")}};
    EXPECT_EQ(got, expected);
    EXPECT_TRUE(components[0].is_static());
    EXPECT_FALSE(components[3].is_static());
    EXPECT_TRUE(dso_loaded(dso_path("good")));
}

TEST_F(McaFwRepository, RefusesEachBrokenDsoWithFileAndReason)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    const std::string build_id = TESSERA_BUILD_ID;
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"oldmca", "built for MCA 2.0.0, this library is MCA 1.0.0"},
        {"newmca", "built for MCA 1.1.0, this library is MCA 1.0.0"},
        {"oldfw", "built for testfw framework API 0.2.0, this library has testfw framework API 1.2.0"},
        {"newfw", "built for testfw framework API 1.3.0, this library has testfw framework API 1.2.0"},
        {"badid", "built with build id \"0.0.0-deadbeefdeadbeef\", this library has build id \"" + build_id + "\""},
        {"wrongfw", "the component is for framework \"otherfw\", its file name says framework \"testfw\""},
        {"misnamed", "the component calls itself \"other\", its file name says \"misnamed\""},
        {"small", "component struct is " + std::to_string(sizeof(mca_base_component_t)) +
                      " bytes, the testfw framework needs at least " + std::to_string(sizeof(testfw_component_t))},
        {"badmagic", "not a Tessera component (magic 0x12345678, expected 0x54535241)"},
        {"nosym", "no symbol mca_testfw_nosym_component"},
        {"unresolved", "testfw_symbol_nowhere"},
        {"junk", "cannot be loaded"},
        {"alpha", "duplicate of the static component testfw/alpha"},
    };
    for (const auto &[comp, reason] : expected) {
        const auto error = load_error_for(dso_path(comp));
        ASSERT_TRUE(error.has_value()) << comp << " was not refused";
        EXPECT_EQ(error->framework, "testfw");
        EXPECT_EQ(error->component, comp);
        EXPECT_THAT(error->reason, HasSubstr(reason)) << comp;
        EXPECT_FALSE(dso_loaded(dso_path(comp))) << comp << " left loaded";
    }
    EXPECT_EQ(load_errors().size(), expected.size());
    const auto names = component_names(&testfw_framework);
    for (const auto &[comp, reason] : expected) {
        if (comp != "alpha") {
            EXPECT_EQ(std::count(names.begin(), names.end(), comp), 0) << comp;
        }
    }
}

TEST_F(McaFwRepository, UnresolvedSymbolIsRefusedAtLoadNotAtFirstCall)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    const auto error = load_error_for(dso_path("unresolved"));
    ASSERT_TRUE(error.has_value());
    EXPECT_THAT(error->reason, HasSubstr("undefined symbol: testfw_symbol_nowhere"));
    // Opening the framework calls every open function; the process must survive it.
    EXPECT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
}

TEST_F(McaFwRepository, JunkFileReasonIsTheLoadersText)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    const auto error = load_error_for(dso_path("junk"));
    ASSERT_TRUE(error.has_value());
    // glibc says "file too short" or "invalid ELF header" depending on the size; either names the file.
    EXPECT_THAT(error->reason, HasSubstr(dso_path("junk")));
}

TEST_F(McaFwRepository, PrintsEachLoadErrorOnceAsAWarningByDefault)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(reports_containing(Severity::Warning, dso_path("oldmca") + ": built for MCA 2.0.0").size(), 1u);
    EXPECT_EQ(reports_containing(Severity::Warning, "mca_testfw_").size(), load_errors().size());
    EXPECT_TRUE(reported(Severity::Error).empty());
}

TEST_F(McaFwRepository, IgnoresDsosOfFrameworksNotRegistered)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    for (const auto &e : load_errors()) {
        EXPECT_EQ(e.framework, "testfw") << e.file;
    }
    const std::string broken = std::string(TESTFW_DSO_DIR) + "/mca_testfw2_broken.so";
    EXPECT_FALSE(load_error_for(broken).has_value());

    ASSERT_EQ(framework_register(&testfw2_framework), TESSERA_SUCCESS);
    const auto error = load_error_for(broken);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->framework, "testfw2");
    EXPECT_THAT(error->reason, HasSubstr("no symbol mca_testfw2_broken_component"));
    EXPECT_FALSE(load_error_for(std::string(TESTFW_DSO_DIR) + "/mca_otherfw_thing.so").has_value());
}

TEST_F(McaFwRepository, FirstDirectoryOnThePathWinsAndTheLaterCopyIsADuplicate)
{
    set_command_line("mca_component_path", std::string("/nonexistent/dir:") + TESTFW_DSO_DIR + ":" + TESTFW_DSO_DIR2);
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    const auto components = framework_components(&testfw_framework);
    const auto good = std::find_if(components.begin(), components.end(), [](const ComponentEntry &c) {
        return std::string(c.component->mca_component_name) == "good";
    });
    ASSERT_NE(good, components.end());
    EXPECT_EQ(good->path, dso_path("good"));
    const auto dup = load_error_for(dso_path("good", TESTFW_DSO_DIR2));
    ASSERT_TRUE(dup.has_value());
    EXPECT_THAT(dup->reason, HasSubstr("duplicate of " + dso_path("good")));
    EXPECT_FALSE(dso_loaded(dso_path("good", TESTFW_DSO_DIR2)));
}

TEST_F(McaFwRepository, EmptyPathFindsOnlyStaticComponents)
{
    set_command_line("mca_component_path", "");
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(component_names(&testfw_framework), (std::vector<std::string>{"alpha", "beta"}));
    EXPECT_TRUE(load_errors().empty());
}

TEST_F(McaFwRepository, RegistersTheParametersOfFrameworkAndComponents)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    const auto path = find_var("mca_component_path");
    ASSERT_TRUE(path.has_value());
    EXPECT_EQ(path->value, TESTFW_DSO_DIR);
    EXPECT_EQ(path->source.kind, SourceKind::CommandLine);
    EXPECT_THAT(path->default_value, HasSubstr(".tessera/components"));

    const auto show = find_var("mca_component_show_load_errors");
    ASSERT_TRUE(show.has_value());
    EXPECT_EQ(show->value, "all");

    const auto selection = find_var("testfw");
    ASSERT_TRUE(selection.has_value());
    EXPECT_EQ(selection->type, MCA_VAR_TYPE_STRING);
    EXPECT_EQ(selection->level, 2);
    EXPECT_THAT(selection->help, HasSubstr("alpha, beta, compat, good"));

    const auto verbose = find_var("testfw_base_verbose");
    ASSERT_TRUE(verbose.has_value());
    EXPECT_EQ(verbose->type, MCA_VAR_TYPE_INT);
    EXPECT_EQ(verbose->level, 8);

    // Each component's register function ran once, the DSO's too.
    EXPECT_EQ(alpha_behaviour.registers, 1);
    EXPECT_EQ(beta_behaviour.registers, 1);
    EXPECT_EQ(dso_int(dso_path("good"), "testfw_good_register_count"), 1);
    EXPECT_TRUE(find_var("testfw_good_priority").has_value());
}

TEST_F(McaFwRepository, RegisterIsIdempotent)
{
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    const size_t errors = load_errors().size();
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(registered_frameworks(), (std::vector<mca_base_framework_t *>{&testfw_framework}));
    EXPECT_EQ(alpha_behaviour.registers, 1);
    EXPECT_EQ(load_errors().size(), errors);
}

TEST_F(McaFwRepository, FrameworksAreListedInRegistrationOrder)
{
    ASSERT_EQ(framework_register(&testfw2_framework), TESSERA_SUCCESS);
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(registered_frameworks(), (std::vector<mca_base_framework_t *>{&testfw2_framework, &testfw_framework}));
    frameworks_finalize();
    EXPECT_TRUE(registered_frameworks().empty());
    EXPECT_TRUE(load_errors().empty());
    EXPECT_FALSE(dso_loaded(dso_path("good")));
}
