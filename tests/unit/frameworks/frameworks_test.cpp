// The frameworks: declared in their layers with their kinds, registered by the MPI layer's list,
// and their C headers giving the same layouts in C and C++.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "frameworks/btl/base/base.h"
#include "frameworks/coll/base/base.h"
#include "frameworks/dte/base/base.h"
#include "frameworks/ess/base/base.h"
#include "frameworks/io/base/base.h"
#include "frameworks/osc/base/base.h"
#include "frameworks/plm/base/base.h"
#include "frameworks/trace/base/base.h"
#include "frameworks/translator/base/base.h"
#include "mca/var_store.h"
#include "ompi/ompi_frameworks.h"
#include "orte/orte_frameworks.h"

extern "C" {
size_t fw_c_sizeof(int which);
int fw_c_trace_idle(void);
}

namespace {

TEST(Frameworks, RuntimeLayerHasThePlmAndTheEss)
{
    auto list = tessera::orte::frameworks();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_STREQ(list[0]->name, "plm");
    EXPECT_STREQ(list[1]->name, "ess");
    for (mca_base_framework_t *fw : list) {
        EXPECT_STREQ(fw->layer, "orte");
        EXPECT_EQ(fw->kind, MCA_FRAMEWORK_ONE_OF_MANY);
    }
}

TEST(Frameworks, MpiLayerListsAllNineInOrder)
{
    auto list = tessera::ompi::frameworks();
    ASSERT_EQ(list.size(), 9u);
    const char *names[] = {"plm", "ess", "btl", "dte", "coll", "osc", "io", "translator", "trace"};
    const mca_framework_kind_t kinds[] = {MCA_FRAMEWORK_ONE_OF_MANY, MCA_FRAMEWORK_ONE_OF_MANY,
                                          MCA_FRAMEWORK_MANY_OF_MANY, MCA_FRAMEWORK_PER_OBJECT,
                                          MCA_FRAMEWORK_PER_OBJECT,  MCA_FRAMEWORK_PER_OBJECT,
                                          MCA_FRAMEWORK_PER_OBJECT,  MCA_FRAMEWORK_ONE_OF_MANY,
                                          MCA_FRAMEWORK_MANY_OF_MANY};
    for (size_t i = 0; i < 9; ++i) {
        EXPECT_STREQ(list[i]->name, names[i]);
        EXPECT_EQ(list[i]->kind, kinds[i]) << names[i];
        EXPECT_STREQ(list[i]->layer, i < 2 ? "orte" : "ompi") << names[i];
        EXPECT_EQ(list[i]->version.major, 1) << names[i];
        EXPECT_NE(list[i]->description, nullptr);
        EXPECT_NE(list[i]->static_components, nullptr);
    }
    EXPECT_EQ(mca_btl_base_framework.component_struct_size, sizeof(mca_btl_base_component_t));
    EXPECT_EQ(mca_plm_base_framework.component_struct_size, sizeof(mca_plm_base_component_t));
    EXPECT_EQ(mca_ess_base_framework.component_struct_size, sizeof(mca_ess_base_component_t));
    EXPECT_EQ(mca_osc_base_framework.component_struct_size, sizeof(mca_osc_base_component_t));
    EXPECT_EQ(mca_io_base_framework.component_struct_size, sizeof(mca_io_base_component_t));
}

TEST(Frameworks, RegisterFrameworksRegistersEveryOneAndTheirParameters)
{
    ASSERT_EQ(tessera::ompi::register_frameworks(), TESSERA_SUCCESS);
    ASSERT_EQ(tessera::ompi::register_frameworks(), TESSERA_SUCCESS); // idempotent
    auto registered = tessera::mca::registered_frameworks();
    for (mca_base_framework_t *fw : tessera::ompi::frameworks()) {
        EXPECT_NE(std::find(registered.begin(), registered.end(), fw), registered.end()) << fw->name;
        EXPECT_TRUE(tessera::mca::find_var(fw->name).has_value()) << fw->name;
    }
    auto striping = tessera::mca::find_var("btl_base_striping");
    ASSERT_TRUE(striping.has_value());
    EXPECT_EQ(striping->value, "round_robin");
    ASSERT_EQ(striping->enumerators.size(), 2u);
    auto mixed = tessera::mca::find_var("btl_base_allow_mixed_exclusivity");
    ASSERT_TRUE(mixed.has_value());
    EXPECT_EQ(mixed->type_name, "bool");
    // Component parameters come with their components (DSOs from the build tree).
    EXPECT_TRUE(tessera::mca::find_var("plm_fork_kill_grace").has_value());
    EXPECT_TRUE(tessera::mca::find_var("trace_monitor_filename").has_value());
    // btl self is linked into libmpi (TESSERA_STATIC_COMPONENTS default).
    bool self_static = false;
    for (const auto &c : tessera::mca::framework_components(&mca_btl_base_framework)) {
        if (std::string(c.component->mca_component_name) == "self") {
            self_static = c.is_static();
        }
    }
    EXPECT_TRUE(self_static);
}

TEST(Frameworks, CHeadersHaveTheSameLayout)
{
    const size_t cxx[] = {sizeof(mca_plm_base_component_t),
                          sizeof(mca_plm_base_module_t),
                          sizeof(mca_plm_base_proc_spec_t),
                          sizeof(mca_btl_base_component_t),
                          sizeof(mca_btl_base_module_t),
                          sizeof(mca_btl_base_peer_t),
                          sizeof(mca_dte_base_component_t),
                          sizeof(mca_dte_plan_t),
                          sizeof(mca_coll_base_component_t),
                          sizeof(mca_coll_base_module_t),
                          sizeof(mca_translator_base_component_t),
                          sizeof(mca_translator_base_module_t),
                          sizeof(mca_trace_base_component_t),
                          sizeof(mca_trace_base_module_t),
                          offsetof(mca_btl_base_module_t, btl_send),
                          offsetof(mca_trace_base_module_t, trace_finalize),
                          sizeof(mca_ess_base_component_t),
                          sizeof(mca_ess_base_module_t),
                          sizeof(mca_ess_base_identity_t),
                          offsetof(mca_ess_base_identity_t, job_key)};
    for (int i = 0; i < static_cast<int>(std::size(cxx)); ++i) {
        EXPECT_EQ(fw_c_sizeof(i), cxx[i]) << "struct " << i;
    }
    EXPECT_EQ(fw_c_trace_idle(), 0);
}

TEST(Frameworks, ExitDescriptionsNameCodeAndSignal)
{
    mca_plm_base_exit_t e{};
    e.exited = 1;
    e.code = 3;
    EXPECT_EQ(tessera::orte::plm::describe_exit(e), "exit code 3");
    e = {};
    e.signaled = 1;
    e.signal = 9;
    e.core_dumped = 1;
    std::string text = tessera::orte::plm::describe_exit(e);
    EXPECT_EQ(text.rfind("signal 9 (", 0), 0u) << text;
    EXPECT_NE(text.find("core dumped"), std::string::npos) << text;
}

} // namespace
