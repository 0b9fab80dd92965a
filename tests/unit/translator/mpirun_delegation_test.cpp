// mpirun's delegation to a runtime's launcher (tools/mpirun/delegate.h): which settings delegate, and
// the command line and environment handed to mpirun.openmpi / mpiexec.hydra.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "delegate.h"
#include "mca/var_store.h"

using namespace tessera::mpirun;

namespace {

Options job(std::vector<std::string> program, int np)
{
    Options o;
    AppContext app;
    app.np = np;
    app.program = std::move(program);
    o.apps.push_back(std::move(app));
    return o;
}

bool has_sequence(const std::vector<std::string> &argv, const std::vector<std::string> &seq)
{
    return std::search(argv.begin(), argv.end(), seq.begin(), seq.end()) != argv.end();
}

std::string env_of(const Delegation &d, const std::string &name)
{
    for (const auto &[n, v] : d.env) {
        if (n == name) {
            return v;
        }
    }
    return "(unset)";
}

TEST(MpirunDelegation, OnlyARuntimeTranslatorNamedAloneDelegates)
{
    // Before any parameter is registered there is nothing to delegate.
    EXPECT_EQ(delegated_translator(), std::nullopt);
}

TEST(MpirunDelegation, LauncherCandidates)
{
    EXPECT_EQ(launcher_candidates("ompi").front(), "mpirun.openmpi");
    EXPECT_EQ(launcher_candidates("mpich").front(), "mpiexec.hydra");
    EXPECT_TRUE(launcher_candidates("native").empty());
}

TEST(MpirunDelegation, OpenMpiCommandLine)
{
    Options o = job({"/bin/prog", "a", "--mca", "b"}, 2);
    o.oversubscribe = true;
    o.tag_output = true;
    o.timeout = 2.5;
    o.exports.push_back({"FOO", std::string("x y,z")});
    tessera::mca::CmdlineResult mca;
    mca.mca = {{"translator", "ompi"}, {"btl", "self"}};
    std::string error;
    auto d = plan_delegation("ompi", "/usr/bin/mpirun.openmpi", o, mca, true, &error);
    ASSERT_TRUE(d) << error;
    const std::vector<std::string> &a = d->argv;
    EXPECT_EQ(a.front(), "/usr/bin/mpirun.openmpi");
    EXPECT_TRUE(has_sequence(a, {"-np", "2"}));
    EXPECT_TRUE(has_sequence(a, {"--allow-run-as-root"}));
    EXPECT_TRUE(has_sequence(a, {"--oversubscribe"}));
    EXPECT_TRUE(has_sequence(a, {"--bind-to", "none"})) << "ours binds nothing unless asked";
    EXPECT_TRUE(has_sequence(a, {"--tag-output"}));
    EXPECT_TRUE(has_sequence(a, {"--timeout", "3"}));
    EXPECT_TRUE(has_sequence(a, {"-x", "TESSERA_MCA_translator"}));
    EXPECT_TRUE(has_sequence(a, {"-x", "TESSERA_CMDLINE_MCA"}));
    EXPECT_TRUE(has_sequence(a, {"-x", "FOO"})) << "values travel in the environment: no quoting";
    EXPECT_TRUE(has_sequence(a, {"/bin/prog", "a", "--mca", "b"})) << "the program's arguments are its own";
    EXPECT_EQ(std::vector<std::string>(a.end() - 4, a.end()), (std::vector<std::string>{"/bin/prog", "a", "--mca", "b"}));
    EXPECT_EQ(env_of(*d, "TESSERA_MCA_translator"), "ompi");
    EXPECT_EQ(env_of(*d, "FOO"), "x y,z");
    EXPECT_NE(env_of(*d, "TESSERA_CMDLINE_MCA"), "(unset)");
}

TEST(MpirunDelegation, OpenMpiNotRootNoExtras)
{
    std::string error;
    auto d = plan_delegation("ompi", "mpirun.openmpi", job({"prog"}, 4), {}, false, &error);
    ASSERT_TRUE(d) << error;
    EXPECT_FALSE(has_sequence(d->argv, {"--allow-run-as-root"}));
    EXPECT_FALSE(has_sequence(d->argv, {"--oversubscribe"}));
    EXPECT_EQ(env_of(*d, "TESSERA_CMDLINE_MCA"), "(unset)") << "no --mca given";
}

TEST(MpirunDelegation, HydraCommandLine)
{
    Options o = job({"prog"}, 2);
    o.apps[0].host_lists = {"localhost:2"};
    o.bind_to = BindTo::Core;
    o.tag_output = true;
    o.timeout = 10;
    std::string error;
    auto d = plan_delegation("mpich", "/usr/bin/mpiexec.hydra", o, {}, true, &error);
    ASSERT_TRUE(d) << error;
    const std::vector<std::string> &a = d->argv;
    EXPECT_TRUE(has_sequence(a, {"-np", "2"}));
    EXPECT_TRUE(has_sequence(a, {"-hosts", "localhost:2"}));
    EXPECT_TRUE(has_sequence(a, {"-bind-to", "core"}));
    EXPECT_TRUE(has_sequence(a, {"-prepend-rank"}));
    EXPECT_TRUE(has_sequence(a, {"-genv", "TESSERA_MCA_translator", "mpich"}));
    EXPECT_FALSE(has_sequence(a, {"--allow-run-as-root"})) << "an Open MPI option";
    EXPECT_EQ(env_of(*d, "MPIEXEC_TIMEOUT"), "10");
    EXPECT_EQ(a.back(), "prog");
}

TEST(MpirunDelegation, BadExportIsRefused)
{
    Options o = job({"prog"}, 1);
    o.exports.push_back({"TESSERA_RANK", std::string("3")});
    std::string error;
    EXPECT_FALSE(plan_delegation("ompi", "mpirun.openmpi", o, {}, false, &error));
    EXPECT_NE(error.find("TESSERA_RANK"), std::string::npos) << error;
}

} // namespace
