// Counted open and close: components open at the first open, close and unload at the last close.
#include <algorithm>

#include "mca/report.h"
#include "mca/var_store.h"
#include "testfw_fixture.h"

using namespace tessera::mca;
using ::testing::HasSubstr;

class McaFwLifecycle : public McaFwTest {};

TEST_F(McaFwLifecycle, OpenRegistersFirstWhenNeeded)
{
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_TRUE(framework_is_open(&testfw_framework));
    EXPECT_EQ(registered_frameworks(), std::vector<mca_base_framework_t *>{&testfw_framework});
    EXPECT_EQ(alpha_behaviour.opens, 1);
    EXPECT_EQ(dso_int(dso_path("good"), "testfw_good_open_count"), 1);
}

TEST_F(McaFwLifecycle, ComponentsCloseOnlyAtTheLastClose)
{
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(alpha_behaviour.opens, 1);

    ASSERT_EQ(framework_close(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_TRUE(framework_is_open(&testfw_framework));
    EXPECT_EQ(alpha_behaviour.closes, 0);
    EXPECT_EQ(dso_int(dso_path("good"), "testfw_good_close_count"), 0);

    ASSERT_EQ(framework_close(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_FALSE(framework_is_open(&testfw_framework));
    EXPECT_EQ(alpha_behaviour.closes, 1);
    EXPECT_EQ(beta_behaviour.closes, 1);
    EXPECT_FALSE(dso_loaded(dso_path("good")));
    EXPECT_FALSE(dso_loaded(dso_path("compat")));
    EXPECT_TRUE(framework_components(&testfw_framework).empty());
}

TEST_F(McaFwLifecycle, CloseWithoutOpenIsAnError)
{
    EXPECT_EQ(framework_close(&testfw_framework), TESSERA_ERR_BAD_PARAM);
    ASSERT_EQ(framework_register(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(framework_close(&testfw_framework), TESSERA_ERR_BAD_PARAM);
}

TEST_F(McaFwLifecycle, ReopeningReloadsTheDsos)
{
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    ASSERT_EQ(framework_close(&testfw_framework), TESSERA_SUCCESS);
    ASSERT_FALSE(dso_loaded(dso_path("good")));
    const size_t errors = load_errors().size();

    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(component_names(&testfw_framework), (std::vector<std::string>{"alpha", "beta", "compat", "good"}));
    EXPECT_EQ(dso_int(dso_path("good"), "testfw_good_open_count"), 1);
    EXPECT_EQ(dso_int(dso_path("good"), "testfw_good_register_count"), 1); // parameters rebound
    EXPECT_EQ(alpha_behaviour.opens, 2);
    EXPECT_EQ(alpha_behaviour.registers, 2);
    EXPECT_EQ(load_errors().size(), errors); // the same refusals are not recorded twice
}

TEST_F(McaFwLifecycle, AComponentWhoseOpenFailsIsDroppedWithAVerboseNote)
{
    beta_behaviour.open_rc = TESSERA_ERR_NOT_AVAILABLE;
    set_command_line("testfw_base_verbose", "1");
    testing::internal::CaptureStderr();
    const int rc = framework_open(&testfw_framework);
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_EQ(rc, TESSERA_SUCCESS);
    EXPECT_EQ(component_names(&testfw_framework), (std::vector<std::string>{"alpha", "compat", "good"}));
    EXPECT_THAT(err, HasSubstr("testfw: component beta dropped: its open failed"));
    ASSERT_EQ(framework_close(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(beta_behaviour.closes, 0); // never opened, so never closed
    EXPECT_EQ(alpha_behaviour.closes, 1);
}

TEST_F(McaFwLifecycle, QuietWithoutVerbose)
{
    beta_behaviour.open_rc = TESSERA_ERR_NOT_AVAILABLE;
    testing::internal::CaptureStderr();
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST_F(McaFwLifecycle, FinalizeClosesWhatIsStillOpenAndUnloads)
{
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    ASSERT_EQ(framework_register(&testfw2_framework), TESSERA_SUCCESS);
    frameworks_finalize();
    EXPECT_FALSE(framework_is_open(&testfw_framework));
    EXPECT_EQ(alpha_behaviour.closes, 1);
    EXPECT_FALSE(dso_loaded(dso_path("good")));
    EXPECT_TRUE(registered_frameworks().empty());
    EXPECT_EQ(testfw_framework.state, nullptr);

    // And the framework can start over.
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    EXPECT_EQ(alpha_behaviour.opens, 2);
}

namespace {

int fw_open_calls = 0;
int fw_close_calls = 0;
int fw_open_rc = TESSERA_SUCCESS;
/* Static, not on the stack: the MCA core keeps the pointer until frameworks_finalize in TearDown. */
mca_base_framework_t hooked_fw;

int count_open()
{
    ++fw_open_calls;
    return fw_open_rc;
}

int count_close()
{
    ++fw_close_calls;
    return TESSERA_SUCCESS;
}

} // namespace

TEST_F(McaFwLifecycle, FrameworkOpenAndCloseHooksRunOncePerCycle)
{
    hooked_fw = testfw_framework;
    hooked_fw.open = count_open;
    hooked_fw.close = count_close;
    mca_base_framework_t &fw = hooked_fw;
    fw_open_calls = fw_close_calls = 0;
    fw_open_rc = TESSERA_SUCCESS;
    ASSERT_EQ(framework_open(&fw), TESSERA_SUCCESS);
    ASSERT_EQ(framework_open(&fw), TESSERA_SUCCESS);
    EXPECT_EQ(fw_open_calls, 1);
    ASSERT_EQ(framework_close(&fw), TESSERA_SUCCESS);
    EXPECT_EQ(fw_close_calls, 0);
    ASSERT_EQ(framework_close(&fw), TESSERA_SUCCESS);
    EXPECT_EQ(fw_close_calls, 1);
}

TEST_F(McaFwLifecycle, AFailingFrameworkOpenClosesItsComponents)
{
    hooked_fw = testfw_framework;
    hooked_fw.open = count_open;
    hooked_fw.close = count_close;
    mca_base_framework_t &fw = hooked_fw;
    fw_open_rc = TESSERA_ERR_NOT_AVAILABLE;
    EXPECT_EQ(framework_open(&fw), TESSERA_ERR_NOT_AVAILABLE);
    fw_open_rc = TESSERA_SUCCESS;
    EXPECT_FALSE(framework_is_open(&fw));
    EXPECT_EQ(alpha_behaviour.closes, 1);
    EXPECT_FALSE(dso_loaded(dso_path("good")));
    EXPECT_THAT(reported(Severity::Error).at(0), HasSubstr("the testfw framework failed to open"));
}

TEST_F(McaFwLifecycle, ParametersOfAnUnloadedDsoCanStillBeSet)
{
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    ASSERT_EQ(framework_close(&testfw_framework), TESSERA_SUCCESS);
    ASSERT_FALSE(dso_loaded(dso_path("good")));

    // The parameter system writes the new value to the variable's storage: it must not be in the DSO.
    set_command_line("testfw_good_priority", "4");
    const auto var = find_var("testfw_good_priority");
    ASSERT_TRUE(var.has_value());
    EXPECT_EQ(var->value, "4");
    EXPECT_EQ(var->default_value, "30");

    // Loaded again, the component sees the value.
    ASSERT_EQ(framework_open(&testfw_framework), TESSERA_SUCCESS);
    std::vector<SelectedComponent> selected;
    ASSERT_EQ(select_many(&testfw_framework, &selected), TESSERA_SUCCESS);
    const auto good = std::find_if(selected.begin(), selected.end(), [](const SelectedComponent &s) {
        return std::string(s.component->mca_component_name) == "good";
    });
    ASSERT_NE(good, selected.end());
    EXPECT_EQ(good->priority, 4);
}
