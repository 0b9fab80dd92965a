// The real bindings of libmpi under the native translator (a singleton: no mpirun): a function the
// engine lacks answers MPI_ERR_UNSUPPORTED_OPERATION, the argument checks (now in the checked wrappers
// the native translator installs) still raise their classes, and inside the runtime (depth set) a
// binding does not reach the native engine at all. MPI is initialized once for the suite (it cannot be
// initialized again after MPI_Finalize).
#include <gtest/gtest.h>

#include <mpi.h>

#include "frameworks/translator/base/base.h"

namespace {

class NativeBindings : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        ASSERT_EQ(MPI_Init(nullptr, nullptr), MPI_SUCCESS);
        ASSERT_EQ(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
    }
    static void TearDownTestSuite() { MPI_Finalize(); }
};

TEST_F(NativeBindings, NativeServesTheProcess)
{
    int size = 0;
    EXPECT_EQ(MPI_Comm_size(MPI_COMM_WORLD, &size), MPI_SUCCESS);
    EXPECT_EQ(size, 1);
    EXPECT_STREQ(mca_translator_base_runtime_name(), "Tessera's native engine");
}

TEST_F(NativeBindings, UnimplementedFunctionIsUnsupported)
{
    /* Dynamic processes (MPI_Comm_accept): not in the native engine. */
    MPI_Comm peer = MPI_COMM_NULL;
    EXPECT_EQ(MPI_Comm_accept("port", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &peer), MPI_ERR_UNSUPPORTED_OPERATION);
    EXPECT_EQ(PMPI_Comm_accept("port", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &peer), MPI_ERR_UNSUPPORTED_OPERATION);
}

TEST_F(NativeBindings, ArgumentChecksStillRaiseTheirClasses)
{
    int rank = -1;
    EXPECT_EQ(MPI_Comm_rank(MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Comm_rank(MPI_COMM_NULL, &rank), MPI_ERR_COMM);
    EXPECT_EQ(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_SUCCESS);
    EXPECT_EQ(rank, 0);
}

TEST_F(NativeBindings, TheReentryDepthIsARuntimeTranslatorsBusiness)
{
    /* The binding is a jump through the table; only a runtime translator's thunks read the depth, and
     * nothing sets it under the native engine. */
    int rank = -1;
    tessera_translator_enter();
    const int rc = MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm peer = MPI_COMM_NULL;
    const int unsupported = MPI_Comm_accept("port", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &peer); // not implemented
    tessera_translator_leave();
    EXPECT_EQ(rc, MPI_SUCCESS);
    EXPECT_EQ(rank, 0);
    EXPECT_EQ(unsupported, MPI_ERR_UNSUPPORTED_OPERATION) << "a fallback called from inside answers without raising";
}

} // namespace
