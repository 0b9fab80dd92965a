// The ess framework as MPI_Init uses it (frameworks/ess/base/base.h): the component the environment
// selects, what each tells the process, and the launches a singleton must refuse. No launcher runs
// here: the mpirun component is given a service of the test's own, the pmix component no server.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <string>
#include <vector>

#include "frameworks/ess/base/base.h"
#include "mca/constants.h"
#include "mca/report.h"
#include "mca/var_store.h"
#include "orte/kv/job_key.h"
#include "orte/kv/kv_server.h"
#include "tests/unit/orte_kv/kv_test_support.h"

namespace ess = tessera::orte::ess;

namespace {

const char *const kLaunchVars[] = {"TESSERA_KV_URI", "TESSERA_JOBID", "TESSERA_RANK", "TESSERA_SIZE",
                                   "TESSERA_LOCAL_RANK", "TESSERA_LOCAL_SIZE", "TESSERA_NODE_ID", "TESSERA_HOST",
                                   "TESSERA_JOB_KEY", "PMIX_RANK", "PMIX_NAMESPACE", "PMIX_SERVER_URI41",
                                   "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI2", "PMIX_SERVER_URI21",
                                   "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_STEP_ID", "SLURM_STEPID",
                                   "SLURM_PROCID"};

class Ess : public ::testing::Test {
protected:
    void SetUp() override
    {
        for (const char *v : kLaunchVars) {
            unsetenv(v);
        }
        tessera::mca::set_command_line("ess", "");
        tessera::mca::set_command_line("ess_singleton_ignore_launch", "0");
        tessera::mca::report_clear();
    }
    void TearDown() override { ess::finalize(); }
};

TEST_F(Ess, NoLauncherIsASingleton)
{
    std::string error;
    auto who = ess::start(&error);
    ASSERT_TRUE(who) << error;
    EXPECT_EQ(ess::component_name(), "singleton");
    EXPECT_TRUE(who->singleton);
    EXPECT_EQ(who->rank, 0);
    EXPECT_EQ(who->size, 1);
    EXPECT_EQ(who->job_key, "");
    // A singleton reads back what it put.
    const std::byte card[] = {std::byte{1}, std::byte{2}};
    ASSERT_EQ(ess::put("card", card), TESSERA_SUCCESS);
    ASSERT_EQ(ess::fence(true), TESSERA_SUCCESS);
    auto got = ess::get(0, "card");
    ASSERT_TRUE(got);
    EXPECT_EQ(got->size(), 2u);
    EXPECT_FALSE(ess::get(1, "card"));
    EXPECT_NE(ess::abort(3, "nobody to tell"), TESSERA_SUCCESS) << "the caller prints the message itself";
}

TEST_F(Ess, SrunWithoutPmiIsRefusedNamingMpiPmix)
{
    setenv("SLURM_STEP_NUM_TASKS", "4", 1);
    setenv("SLURM_NTASKS", "4", 1);
    setenv("SLURM_STEP_ID", "0", 1);
    setenv("SLURM_PROCID", "2", 1);
    std::string error;
    EXPECT_FALSE(ess::start(&error));
    EXPECT_NE(error.find("--mpi=pmix"), std::string::npos) << error;
    EXPECT_NE(error.find("4 tasks"), std::string::npos) << error;
    EXPECT_NE(error.find("ess_singleton_ignore_launch"), std::string::npos) << error;
    EXPECT_FALSE(ess::active());
}

TEST_F(Ess, SlurmTasksOfAnOlderSrunAreSeenThroughSlurmNtasks)
{
    setenv("SLURM_NTASKS", "2", 1);
    setenv("SLURM_STEPID", "3", 1);
    EXPECT_NE(ess::unserved_launch().find("--mpi=pmix"), std::string::npos);
}

TEST_F(Ess, OneTaskOrAnAllocationShellIsASingleton)
{
    setenv("SLURM_STEP_NUM_TASKS", "1", 1);
    setenv("SLURM_STEP_ID", "0", 1);
    EXPECT_EQ(ess::unserved_launch(), "") << "srun -n 1: nobody else to find";
    unsetenv("SLURM_STEP_NUM_TASKS");
    unsetenv("SLURM_STEP_ID");
    setenv("SLURM_NTASKS", "8", 1);
    EXPECT_EQ(ess::unserved_launch(), "") << "a program started by hand in salloc's shell is not a task of a step";
    std::string error;
    EXPECT_TRUE(ess::start(&error)) << error;
}

TEST_F(Ess, SingletonsOnPurposeWithTheParameter)
{
    setenv("SLURM_STEP_NUM_TASKS", "4", 1);
    tessera::mca::set_command_line("ess_singleton_ignore_launch", "1");
    std::string error;
    auto who = ess::start(&error);
    ASSERT_TRUE(who) << error;
    EXPECT_TRUE(who->singleton);
}

TEST_F(Ess, PmixLaunchWithoutAServerFailsInsteadOfRunningAlone)
{
    // What srun --mpi=pmix sets, but no server behind it: the pmix component is chosen and says why
    // it cannot start; the process never becomes a singleton.
    setenv("PMIX_RANK", "0", 1);
    setenv("PMIX_NAMESPACE", "slurm.pmix.77.0", 1);
    std::string error;
    EXPECT_FALSE(ess::start(&error));
    EXPECT_EQ(ess::component_name(), "pmix");
    EXPECT_NE(error.find("ess pmix: cannot reach the PMIx server"), std::string::npos) << error;
}

TEST_F(Ess, ExplicitSingletonUnderAPmixLaunchStillRefuses)
{
    setenv("PMIX_RANK", "0", 1);
    setenv("PMIX_NAMESPACE", "slurm.pmix.77.0", 1);
    tessera::mca::set_command_line("ess", "singleton");
    std::string error;
    EXPECT_FALSE(ess::start(&error));
    EXPECT_NE(error.find("PMIx server"), std::string::npos) << error;
}

TEST_F(Ess, MpirunLaunchIsServedByTheMpirunComponent)
{
    const std::string key = tessera::orte::generate_job_key();
    std::string error;
    tessera::orte::KvServerOptions options;
    options.nranks = 1;
    options.job_key = key;
    kvtest::ServerThread server(options);
    setenv("TESSERA_KV_URI", server.uri().c_str(), 1);
    setenv("TESSERA_JOBID", "4242", 1);
    setenv("TESSERA_RANK", "0", 1);
    setenv("TESSERA_SIZE", "1", 1);
    setenv("TESSERA_LOCAL_RANK", "0", 1);
    setenv("TESSERA_LOCAL_SIZE", "1", 1);
    setenv("TESSERA_NODE_ID", "0", 1);
    setenv("TESSERA_HOST", "node7", 1);
    setenv("TESSERA_JOB_KEY", key.c_str(), 1);
    // Also under a PMIx server: a rank of our mpirun is mpirun's.
    setenv("PMIX_RANK", "3", 1);
    setenv("PMIX_NAMESPACE", "slurm.pmix.77.0", 1);
    auto who = ess::start(&error);
    ASSERT_TRUE(who) << error;
    EXPECT_EQ(ess::component_name(), "mpirun");
    EXPECT_FALSE(who->singleton);
    EXPECT_EQ(who->jobid, 4242u);
    EXPECT_EQ(who->host, "node7");
    EXPECT_EQ(who->job_key, key);
    EXPECT_EQ(who->launcher, "mpirun");
    const std::byte card[] = {std::byte{7}};
    ASSERT_EQ(ess::put("card", card), TESSERA_SUCCESS);
    ASSERT_EQ(ess::commit(), TESSERA_SUCCESS);
    ASSERT_EQ(ess::fence(true), TESSERA_SUCCESS);
    auto got = ess::get(0, "card");
    ASSERT_TRUE(got);
    EXPECT_EQ(got->size(), 1u);
    EXPECT_EQ(ess::finalize(), TESSERA_SUCCESS);
    EXPECT_FALSE(ess::active());
}

} // namespace
