/* The engine's parameters: bad values are errors that name the parameter, and MPI_Init's pml::init()
 * refuses to start with them. */
#include <gtest/gtest.h>

#include "mca/report.h"
#include "ompi/pml/pml.h"
#include "ompi/pml/pml_engine.h"

namespace tessera::test {
namespace {

using ompi::pml::check_params;
using ompi::pml::Params;

TEST(PmlParams, DefaultsAreValid)
{
    EXPECT_EQ(check_params(Params{}), "");
    EXPECT_EQ(Params{}.yield_when_idle, ompi::pml::kYieldAuto);
}

TEST(PmlParams, BadValuesNameTheParameter)
{
    Params p;
    p.pipeline_depth = 0;
    EXPECT_NE(check_params(p).find("pml_pipeline_depth: value 0"), std::string::npos);
    p = Params{};
    p.poll_spins = -1;
    EXPECT_NE(check_params(p).find("mpi_poll_spins"), std::string::npos);
    p = Params{};
    p.poll_spins_oversubscribed = -2;
    EXPECT_NE(check_params(p).find("mpi_poll_spins_oversubscribed: value -2"), std::string::npos);
    p = Params{};
    p.eager_limit = 16;
    EXPECT_NE(check_params(p).find("pml_eager_limit: value 16"), std::string::npos);
    p.eager_limit = 41;
    EXPECT_EQ(check_params(p), "");
    p = Params{};
    p.contention_threshold = -0.5;
    EXPECT_NE(check_params(p).find("pml_contention_threshold: value -0.5"), std::string::npos);
    p = Params{};
    p.contention_window = 0;
    EXPECT_NE(check_params(p).find("pml_contention_window: value 0"), std::string::npos);
}

TEST(PmlParams, InitRefusesBadValues)
{
    const Params saved = ompi::pml::params;
    ompi::pml::params.pipeline_depth = -4;
    tessera::mca::report_set_print(false);
    tessera::mca::report_clear();
    EXPECT_EQ(ompi::pml::init(), MPI_ERR_ARG);
    const auto errors = tessera::mca::reported(tessera::mca::Severity::Error);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("pml_pipeline_depth"), std::string::npos);
    ompi::pml::params = saved;
    tessera::mca::report_set_print(true);
    tessera::mca::report_clear();
}

} // namespace
} // namespace tessera::test
