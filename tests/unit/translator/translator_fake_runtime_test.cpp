// The real bindings of libmpi served by a runtime translator (the fake of fake_runtime_component.cpp,
// chosen with TESSERA_MCA_translator before the first MPI call, as mpirun's delegation does): calls
// reach its entries with no native argument check in the way, a binding entered from inside the
// runtime goes to the direct table, and a function it lacks is unsupported naming the runtime.
#include <gtest/gtest.h>

#include <mpi.h>
#include <stdlib.h>

#include <cstdint>
#include <string>

#include "frameworks/translator/base/base.h"
#include "mca/report.h"

namespace {

/* Before any MPI call of the process: the environment a delegated launch gives the ranks. */
class FakeRuntimeEnvironment : public ::testing::Environment {
public:
    void SetUp() override
    {
        setenv("TESSERA_MCA_mca_component_path", TESSERA_FAKERT_DIR, 1);
        setenv("TESSERA_MCA_translator", "fakert", 1);
    }
};
const auto *const environment = ::testing::AddGlobalTestEnvironment(new FakeRuntimeEnvironment);

TEST(FakeRuntimeBindings, CallsReachTheRuntimeThroughItsThunk)
{
    int version = 0, subversion = -1;
    EXPECT_EQ(MPI_Get_version(&version, &subversion), MPI_SUCCESS);
    EXPECT_EQ(version, 77);
    EXPECT_EQ(subversion, 1) << "the thunk's enter is visible inside the runtime";
    EXPECT_FALSE(tessera_translator_inside()) << "and undone on return";
    EXPECT_STREQ(mca_translator_base_runtime_name(), "Fake runtime 1.0 (libfake.so)");
}

TEST(FakeRuntimeBindings, NoNativeArgumentChecks)
{
    int size = 0;
    MPI_Comm unknown_to_native = reinterpret_cast<MPI_Comm>(static_cast<uintptr_t>(0x7f00001000));
    EXPECT_EQ(MPI_Comm_size(unknown_to_native, &size), MPI_SUCCESS) << "the runtime's objects are not ours";
    EXPECT_EQ(size, 5);
}

TEST(FakeRuntimeBindings, ReentrantCallsGoToTheDirectTable)
{
    int version = 0, subversion = 0, size = 0;
    MPI_Get_version(&version, &subversion); // bootstrap
    tessera_translator_enter();
    const int rc = MPI_Get_version(&version, &subversion);
    const int rc_size = MPI_Comm_size(MPI_COMM_WORLD, &size);
    tessera_translator_leave();
    EXPECT_EQ(rc, MPI_SUCCESS);
    EXPECT_EQ(version, 88);
    EXPECT_EQ(subversion, 8);
    EXPECT_EQ(rc_size, MPI_ERR_UNSUPPORTED_OPERATION) << "no direct entry: not translated instead";
    EXPECT_EQ(size, 0);
}

TEST(FakeRuntimeBindings, MissingFunctionNamesTheRuntime)
{
    tessera::mca::report_clear();
    int rank = -1;
    EXPECT_EQ(MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_ERR_UNSUPPORTED_OPERATION);
    bool named = false;
    for (const std::string &e : tessera::mca::reported(tessera::mca::Severity::Error)) {
        named = named || e.find("MPI_Comm_rank is not provided by Fake runtime 1.0 (libfake.so)") != std::string::npos;
    }
    EXPECT_TRUE(named) << "the fake has no error handler functions: the message is printed";
}

} // namespace
