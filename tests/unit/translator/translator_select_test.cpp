// Selection of the translator as the first MPI call makes it (frameworks/translator/base): native by
// default, a runtime translator when the environment shows its launcher, the `translator` parameter
// over both, and the reasons of a component that declines. The runtime translator here is the fake of
// fake_runtime_component.cpp, the only DSO on the component path, so the result never depends on
// which runtimes this machine has.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <cstring>
#include <string>
#include <thread>

#include "frameworks/translator/base/base.h"
#include "mca/framework.h"
#include "mca/report.h"
#include "mca/var_store.h"
#include "ompi/runtime/coverage.h"
#include "tessera_mpi_dispatch.h"

namespace {

const char *const kLauncherVars[] = {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMIX_NAMESPACE",
                                     "PMI_RANK", "PMI_FD", "PMI_PORT", "PMI_SIZE"};

std::string component_of(const mca_translator_base_module_t *m)
{
    const char *name = m->translator_component->base.mca_component_name;
    return std::string(name, strnlen(name, sizeof m->translator_component->base.mca_component_name));
}

bool reported_error_containing(const std::string &text)
{
    for (const std::string &e : tessera::mca::reported(tessera::mca::Severity::Error)) {
        if (e.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

class TranslatorSelect : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        tessera::mca::set_command_line("mca_component_path", TESSERA_FAKERT_DIR);
        ASSERT_EQ(tessera::mca::framework_register(&mca_translator_base_framework), TESSERA_SUCCESS);
    }
    void SetUp() override
    {
        for (const char *v : kLauncherVars) {
            unsetenv(v);
        }
        unsetenv("TESSERA_FAKERT_DECLINE");
        unsetenv("TESSERA_FAKERT_FINALIZED");
        tessera::mca::set_command_line("translator", "");
        tessera::mca::report_clear();
    }
    void TearDown() override { mca_translator_base_finalize(); }

    static std::string select_name()
    {
        mca_translator_base_module_t *m = nullptr;
        if (mca_translator_base_select(&m) != TESSERA_SUCCESS || m == nullptr) {
            return "(none)";
        }
        return component_of(m);
    }
};

TEST_F(TranslatorSelect, LauncherIsReadFromTheEnvironment)
{
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_NONE);
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_OPENMPI);
    unsetenv("OMPI_COMM_WORLD_SIZE");
    setenv("OMPI_COMM_WORLD_RANK", "1", 1);
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_OPENMPI);
    unsetenv("OMPI_COMM_WORLD_RANK");
    setenv("PMIX_RANK", "0", 1);
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_PMIX) << "PMIX_RANK alone: srun --mpi=pmix";
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_OPENMPI) << "Open MPI's mpirun sets both";
    unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("PMIX_RANK");
    setenv("PMI_RANK", "1", 1);
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_HYDRA);
    unsetenv("PMI_RANK");
    setenv("PMI_FD", "7", 1);
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_HYDRA);
    unsetenv("PMI_FD");
    setenv("PMI_PORT", "node1:4242", 1);
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_HYDRA);
    unsetenv("PMI_PORT");
    setenv("PMI_RANK", "", 1);
    EXPECT_EQ(mca_translator_base_launcher(), MCA_TRANSLATOR_LAUNCHER_NONE) << "an empty variable says nothing";
}

TEST_F(TranslatorSelect, NativeByDefault)
{
    mca_translator_base_module_t *m = nullptr;
    ASSERT_EQ(mca_translator_base_select(&m), TESSERA_SUCCESS);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(component_of(m), "native");
    EXPECT_EQ(mca_translator_base_selected(), m);
    EXPECT_STREQ(mca_translator_base_runtime_name(), "Tessera's native engine");
}

TEST_F(TranslatorSelect, ExplicitNative)
{
    tessera::mca::set_command_line("translator", "native");
    EXPECT_EQ(select_name(), "native");
}

TEST_F(TranslatorSelect, OpenMpiLauncherPicksTheRuntimeTranslator)
{
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    EXPECT_EQ(select_name(), "fakert");
    EXPECT_STREQ(mca_translator_base_runtime_name(), "Fake runtime 1.0 (libfake.so)");
}

TEST_F(TranslatorSelect, PmixLaunchIsServedByTheNativeEngine)
{
    // What srun --mpi=pmix sets: PMIx, and none of Open MPI's own variables.
    setenv("PMIX_RANK", "1", 1);
    setenv("PMIX_NAMESPACE", "slurm.pmix.12.0", 1);
    EXPECT_EQ(select_name(), "native");
}

TEST_F(TranslatorSelect, ExplicitRuntimeTranslatorUnderAPmixLaunch)
{
    setenv("PMIX_RANK", "1", 1);
    setenv("PMIX_NAMESPACE", "slurm.pmix.12.0", 1);
    tessera::mca::set_command_line("translator", "fakert");
    EXPECT_EQ(select_name(), "fakert") << "--mca translator still decides";
}

TEST_F(TranslatorSelect, AnotherLauncherLeavesNative)
{
    setenv("PMI_RANK", "0", 1); // hydra: the fake (an Open MPI translator) answers 0
    EXPECT_EQ(select_name(), "native");
}

TEST_F(TranslatorSelect, ExplicitNativeWinsOverTheLauncher)
{
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    tessera::mca::set_command_line("translator", "native");
    EXPECT_EQ(select_name(), "native");
}

TEST_F(TranslatorSelect, ExplicitRuntimeTranslatorWithoutItsLauncher)
{
    tessera::mca::set_command_line("translator", "fakert");
    EXPECT_EQ(select_name(), "fakert") << "priority 0 still wins when it is the only one allowed";
}

TEST_F(TranslatorSelect, ExcludingTheRuntimeTranslatorUnderItsLauncher)
{
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    tessera::mca::set_command_line("translator", "^fakert");
    EXPECT_EQ(select_name(), "native");
}

TEST_F(TranslatorSelect, DeclineReasonIsReportedWhenNamed)
{
    setenv("TESSERA_FAKERT_DECLINE", "cannot dlopen /nowhere/libfake.so: no such file", 1);
    tessera::mca::report_set_print(false);
    tessera::mca::set_command_line("translator", "fakert");
    mca_translator_base_module_t *m = nullptr;
    EXPECT_NE(mca_translator_base_select(&m), TESSERA_SUCCESS);
    tessera::mca::report_set_print(true);
    EXPECT_EQ(mca_translator_base_selected(), nullptr);
    EXPECT_TRUE(reported_error_containing("no MPI runtime can serve this process"));
    EXPECT_TRUE(reported_error_containing("fakert: cannot dlopen /nowhere/libfake.so"));
    EXPECT_STREQ(mca_translator_base_decline_reason("fakert"), "cannot dlopen /nowhere/libfake.so: no such file");
}

TEST_F(TranslatorSelect, DeclinedRuntimeTranslatorFallsBackToNative)
{
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    setenv("TESSERA_FAKERT_DECLINE", "library missing", 1);
    EXPECT_EQ(select_name(), "native") << "under its launcher but unable to load: native serves";
}

TEST_F(TranslatorSelect, SelectsOncePerProcess)
{
    EXPECT_EQ(select_name(), "native");
    mca_translator_base_module_t *m = nullptr;
    EXPECT_EQ(mca_translator_base_select(&m), TESSERA_ERR_EXISTS);
}

TEST_F(TranslatorSelect, FinalizeCallsTheModuleAndAllowsANewSelection)
{
    tessera::mca::set_command_line("translator", "fakert");
    ASSERT_EQ(select_name(), "fakert");
    EXPECT_EQ(mca_translator_base_finalize(), TESSERA_SUCCESS);
    EXPECT_STREQ(getenv("TESSERA_FAKERT_FINALIZED"), "1");
    EXPECT_EQ(mca_translator_base_selected(), nullptr);
    EXPECT_STREQ(mca_translator_base_runtime_name(), "Tessera's native engine");
    tessera::mca::set_command_line("translator", "");
    EXPECT_EQ(select_name(), "native");
}

TEST_F(TranslatorSelect, LayoutCheck)
{
    EXPECT_STREQ(mca_translator_base_layout(), TESSERA_MPI_LAYOUT);
    EXPECT_EQ(mca_translator_base_layout_check("x", TESSERA_MPI_LAYOUT, mca_translator_base_layout()), TESSERA_SUCCESS);
    tessera::mca::report_set_print(false);
    EXPECT_EQ(mca_translator_base_layout_check("ompi", "tessera-mpi-abi-table/663/0000", TESSERA_MPI_LAYOUT),
              TESSERA_ERR_VERSION);
    EXPECT_EQ(mca_translator_base_layout_check("ompi", TESSERA_MPI_LAYOUT, nullptr), TESSERA_ERR_VERSION);
    tessera::mca::report_set_print(true);
    EXPECT_TRUE(reported_error_containing("translator ompi: built for dispatch table layout tessera-mpi-abi-table/663"));
}

TEST_F(TranslatorSelect, ARuntimeTranslatorRefusesAnotherLayout)
{
    tessera::mca::set_command_line("translator", "fakert");
    mca_translator_base_module_t *m = nullptr;
    ASSERT_EQ(mca_translator_base_select(&m), TESSERA_SUCCESS);
    tessera_mpi_dispatch_t table = tessera_mpi_unsupported_fallbacks;
    size_t filled = 99;
    tessera::mca::report_set_print(false);
    EXPECT_EQ(m->translator_fill(m, "tessera-mpi-abi-table/1/x", reinterpret_cast<mca_translator_base_fn_t *>(&table),
                                 TESSERA_MPI_FUNCTION_COUNT, &filled),
              TESSERA_ERR_VERSION);
    tessera::mca::report_set_print(true);
    EXPECT_EQ(table.Get_version, tessera_mpi_unsupported_fallbacks.Get_version) << "nothing filled";
}

TEST_F(TranslatorSelect, DirectTableHasTheDispatchLayout)
{
    size_t entries = 0;
    mca_translator_base_fn_t *direct = mca_translator_base_direct_table(&entries);
    EXPECT_EQ(entries, static_cast<size_t>(TESSERA_MPI_FUNCTION_COUNT));
    EXPECT_EQ(static_cast<void *>(direct), static_cast<void *>(&tessera_mpi_direct));
}

TEST_F(TranslatorSelect, NativeFillsWhatItImplementsBehindChecks)
{
    mca_translator_base_module_t *m = nullptr;
    ASSERT_EQ(mca_translator_base_select(&m), TESSERA_SUCCESS);
    tessera_mpi_dispatch_t table = tessera_mpi_unsupported_fallbacks;
    size_t filled = 0;
    ASSERT_EQ(m->translator_fill(m, TESSERA_MPI_LAYOUT, reinterpret_cast<mca_translator_base_fn_t *>(&table),
                                 TESSERA_MPI_FUNCTION_COUNT, &filled),
              TESSERA_SUCCESS);
    size_t counted = 0;
    for (size_t i = 0; i < TESSERA_MPI_FUNCTION_COUNT; ++i) {
        counted += tessera_mpi_slot_filled(&table, i) != 0;
    }
    EXPECT_EQ(filled, counted);
    EXPECT_GE(filled, 21u);
    EXPECT_NE(table.Comm_rank, tessera_mpi_unsupported_fallbacks.Comm_rank);
    EXPECT_NE(table.Send, tessera_mpi_unsupported_fallbacks.Send);
    EXPECT_EQ(table.Comm_accept, tessera_mpi_unsupported_fallbacks.Comm_accept) << "not implemented: keeps its fallback";
    size_t entries = 0;
    mca_translator_base_fn_t *direct = mca_translator_base_direct_table(&entries);
    for (size_t i = 0; i < entries; ++i) {
        EXPECT_EQ(direct[i], nullptr) << "the native engine has no runtime to call directly";
    }
}

TEST_F(TranslatorSelect, CoverageCountsWhatTheSelectedTranslatorFills)
{
    tessera::ompi::TranslatorCoverage native = tessera::ompi::translator_coverage();
    EXPECT_EQ(native.error, "");
    EXPECT_EQ(native.component, "native");
    ASSERT_EQ(native.functions.size(), static_cast<size_t>(TESSERA_MPI_FUNCTION_COUNT));
    size_t native_count = 0;
    for (const auto &f : native.functions) {
        native_count += f.implemented;
    }
    EXPECT_GE(native_count, 21u);

    tessera::mca::set_command_line("translator", "fakert");
    tessera::ompi::TranslatorCoverage fake = tessera::ompi::translator_coverage();
    EXPECT_EQ(fake.error, "");
    EXPECT_EQ(fake.component, "fakert");
    EXPECT_EQ(fake.runtime, "Fake runtime 1.0 (libfake.so)");
    std::string names;
    for (const auto &f : fake.functions) {
        if (f.implemented) {
            names += (names.empty() ? "" : " ") + f.name;
        }
    }
    /* The runtime's two, and the ABI's questions about itself, which Tessera answers for every runtime. */
    EXPECT_EQ(names, "MPI_Abi_get_fortran_booleans MPI_Abi_get_fortran_info MPI_Abi_get_info MPI_Abi_get_version "
                     "MPI_Abi_set_fortran_booleans MPI_Abi_set_fortran_info MPI_Comm_size MPI_Get_version")
        << "in the table's order";
    EXPECT_EQ(tessera_mpi_direct.Get_version, nullptr) << "the runtime's functions went with its selection";
    EXPECT_EQ(mca_translator_base_selected(), nullptr) << "coverage releases its selection";
}

} // namespace
