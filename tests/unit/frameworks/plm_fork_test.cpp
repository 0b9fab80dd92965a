// plm fork, opened and selected through the MCA core as mpirun will: children start in their own
// process groups, their exit codes and signals come back, the environment reaches them, and a
// teardown leaves nothing running.
#include <gtest/gtest.h>

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/plm_launcher_test.h"
#include "tests/support/process_gone.h"

namespace {

using Clock = std::chrono::steady_clock;
using testsupport::gone_within;

class PlmFork : public testsupport::PlmLauncherTest {
protected:
    static void SetUpTestSuite() { open_launcher({{"plm", "fork"}, {"plm_fork_kill_grace", "1.0"}}); }

    // Fork starts processes on this host only.
    static mca_plm_base_child_t spawn(std::vector<const char *> argv, uint32_t flags = 0,
                                      std::vector<const char *> env = {}, const char *dir = nullptr,
                                      int expect = TESSERA_SUCCESS)
    {
        return PlmLauncherTest::spawn(nullptr, std::move(argv), flags, std::move(env), dir, expect);
    }
};

TEST_F(PlmFork, IsTheSelectedLauncher)
{
    EXPECT_STREQ(plm_component->base.mca_component_name, "fork");
    EXPECT_EQ(plm->plm_component, plm_component);
}

TEST_F(PlmFork, ExitCodeIsReported)
{
    mca_plm_base_child_t child = spawn({"/bin/sh", "-c", "exit 3"});
    EXPECT_GT(child.id, 0);
    mca_plm_base_exit_t e = wait_exit();
    EXPECT_EQ(e.id, child.id);
    EXPECT_EQ(e.exited, 1);
    EXPECT_EQ(e.code, 3);
    EXPECT_EQ(e.signaled, 0);
    // Reported once: nothing is left to report.
    EXPECT_EQ(plm->plm_wait(plm, 0, &e), TESSERA_ERR_NOT_FOUND);
}

TEST_F(PlmFork, ChildRunsInItsOwnProcessGroup)
{
    mca_plm_base_child_t child = spawn({"sleep", "30"});
    pid_t pid = static_cast<pid_t>(child.id);
    EXPECT_EQ(getpgid(pid), pid);
    EXPECT_NE(getpgrp(), pid);
}

TEST_F(PlmFork, WaitTimesOutWhileChildrenRun)
{
    spawn({"sleep", "30"}); // found in PATH
    mca_plm_base_exit_t e;
    auto start = Clock::now();
    EXPECT_EQ(plm->plm_wait(plm, 0, &e), TESSERA_ERR_TIMEOUT);
    EXPECT_EQ(plm->plm_wait(plm, 0.2, &e), TESSERA_ERR_TIMEOUT);
    EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(190));
}

TEST_F(PlmFork, TerminatedChildReportsTheSignalAndLeavesNothingBehind)
{
    // The shell starts a grandchild in the same group and prints its pid.
    mca_plm_base_child_t child = spawn({"/bin/sh", "-c", "sleep 30 & echo $!; wait"}, MCA_PLM_SPAWN_PIPE_STDOUT);
    std::string line = read_all(child.stdout_fd, 1);
    pid_t grandchild = static_cast<pid_t>(std::stol(line));
    ASSERT_GT(grandchild, 0);

    auto start = Clock::now();
    ASSERT_EQ(plm->plm_terminate_all(plm), TESSERA_SUCCESS);
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(900)); // SIGTERM sufficed: no grace wait
    mca_plm_base_exit_t e = wait_exit(0);
    EXPECT_EQ(e.id, child.id);
    EXPECT_EQ(e.signaled, 1);
    EXPECT_EQ(e.signal, SIGTERM);
    EXPECT_EQ(e.exited, 0);
    EXPECT_TRUE(gone_within(grandchild, 5)) << "grandchild " << grandchild << " survived the teardown";
    close(child.stdout_fd);
}

TEST_F(PlmFork, ChildIgnoringSigtermIsKilledAfterTheGracePeriod)
{
    mca_plm_base_child_t child = spawn({"/bin/sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"},
                                       MCA_PLM_SPAWN_PIPE_STDOUT);
    EXPECT_EQ(read_all(child.stdout_fd, 1), "ready\n");
    auto start = Clock::now();
    ASSERT_EQ(plm->plm_terminate_all(plm), TESSERA_SUCCESS);
    auto elapsed = Clock::now() - start;
    EXPECT_GE(elapsed, std::chrono::milliseconds(990)); // plm_fork_kill_grace = 1.0
    EXPECT_LT(elapsed, std::chrono::seconds(6));
    mca_plm_base_exit_t e = wait_exit(0);
    EXPECT_EQ(e.signaled, 1);
    EXPECT_EQ(e.signal, SIGKILL);
    close(child.stdout_fd);
}

TEST_F(PlmFork, SignalReachesTheChild)
{
    mca_plm_base_child_t child = spawn({"sleep", "30"});
    EXPECT_EQ(plm->plm_signal(plm, child.id, SIGUSR1), TESSERA_SUCCESS);
    mca_plm_base_exit_t e = wait_exit();
    EXPECT_EQ(e.signaled, 1);
    EXPECT_EQ(e.signal, SIGUSR1);
    // Its exit was reported: it is no longer the launcher's.
    EXPECT_EQ(plm->plm_signal(plm, child.id, SIGUSR1), TESSERA_ERR_NOT_FOUND);
}

TEST_F(PlmFork, EnvironmentAdditionsReachTheChildAndOverride)
{
    setenv("TESSERA_PLM_TEST_INHERITED", "from-parent", 1);
    setenv("TESSERA_PLM_TEST_OVERRIDDEN", "old", 1);
    mca_plm_base_child_t child =
        spawn({"/bin/sh", "-c",
               "printf '%s|%s|%s' \"$TESSERA_PLM_TEST_ADDED\" \"$TESSERA_PLM_TEST_OVERRIDDEN\" "
               "\"$TESSERA_PLM_TEST_INHERITED\""},
              MCA_PLM_SPAWN_PIPE_STDOUT, {"TESSERA_PLM_TEST_ADDED=hello world", "TESSERA_PLM_TEST_OVERRIDDEN=new"});
    EXPECT_EQ(read_all(child.stdout_fd), "hello world|new|from-parent");
    EXPECT_EQ(wait_exit().code, 0);
}

TEST_F(PlmFork, PathFromTheAdditionsIsUsedToFindTheProgram)
{
    char tmpl[] = "/tmp/tessera-plm-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string dir = tmpl;
    std::string script = dir + "/tessera-plm-hello";
    {
        std::ofstream f(script);
        f << "#!/bin/sh\necho found-me\n";
    }
    chmod(script.c_str(), 0755);
    std::string path = "PATH=" + dir + ":/usr/bin:/bin";
    mca_plm_base_child_t child = spawn({"tessera-plm-hello"}, MCA_PLM_SPAWN_PIPE_STDOUT, {path.c_str()});
    EXPECT_EQ(read_all(child.stdout_fd), "found-me\n");
    EXPECT_EQ(wait_exit().code, 0);
    unlink(script.c_str());
    rmdir(dir.c_str());
}

TEST_F(PlmFork, WorkingDirectoryAndStderrPipe)
{
    char tmpl[] = "/tmp/tessera-plm-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    char real[PATH_MAX];
    ASSERT_NE(realpath(tmpl, real), nullptr);
    mca_plm_base_child_t child = spawn({"/bin/sh", "-c", "pwd -P >&2; echo out"},
                                       MCA_PLM_SPAWN_PIPE_STDOUT | MCA_PLM_SPAWN_PIPE_STDERR, {}, tmpl);
    EXPECT_EQ(read_all(child.stderr_fd), std::string(real) + "\n");
    EXPECT_EQ(read_all(child.stdout_fd), "out\n");
    EXPECT_EQ(wait_exit().code, 0);
    rmdir(tmpl);
}

TEST_F(PlmFork, StdinIsEmptyUnlessInherited)
{
    mca_plm_base_child_t child = spawn({"/bin/sh", "-c", "cat; echo done"}, MCA_PLM_SPAWN_PIPE_STDOUT);
    EXPECT_EQ(read_all(child.stdout_fd), "done\n");
    EXPECT_EQ(wait_exit().code, 0);
}

TEST_F(PlmFork, ExitFdBecomesReadableAtExit)
{
    mca_plm_base_child_t child = spawn({"/bin/sh", "-c", "exit 0"});
    if (child.exit_fd < 0) {
        GTEST_SKIP() << "kernel without pidfd_open";
    }
    pollfd p{child.exit_fd, POLLIN, 0};
    EXPECT_EQ(poll(&p, 1, 10000), 1);
    EXPECT_EQ(wait_exit(0).code, 0);
}

TEST_F(PlmFork, MissingProgramIsAnErrorAtSpawn)
{
    spawn({"tessera-no-such-program-xyz"}, 0, {}, nullptr, TESSERA_ERR_NOT_FOUND);
    EXPECT_TRUE(reported_error_contains("tessera-no-such-program-xyz")) << "no error names the program";
    spawn({"/nonexistent/tessera-prog"}, 0, {}, nullptr, TESSERA_ERR_NOT_FOUND);
    EXPECT_TRUE(reported_error_contains("/nonexistent/tessera-prog"));
    mca_plm_base_exit_t e;
    EXPECT_EQ(plm->plm_wait(plm, 0, &e), TESSERA_ERR_NOT_FOUND); // no child was left to reap
}

TEST_F(PlmFork, BadWorkingDirectoryIsAnErrorAtSpawn)
{
    spawn({"/bin/true"}, 0, {}, "/nonexistent-tessera-dir", TESSERA_ERR_NOT_FOUND);
    EXPECT_TRUE(reported_error_contains("/nonexistent-tessera-dir"));
}

TEST_F(PlmFork, BadSpecsAreRefused)
{
    spawn({""}, 0, {}, nullptr, TESSERA_ERR_BAD_PARAM);
    spawn({"/bin/true"}, 0, {"NOT_AN_ASSIGNMENT"}, nullptr, TESSERA_ERR_BAD_PARAM);
    EXPECT_TRUE(reported_error_contains("NOT_AN_ASSIGNMENT"));

    const char *argv[] = {"/bin/true", nullptr};
    mca_plm_base_proc_spec_t spec{};
    spec.argv = argv;
    spec.host = "tessera-elsewhere.example";
    mca_plm_base_child_t child{};
    EXPECT_EQ(plm->plm_spawn(plm, &spec, &child), TESSERA_ERR_UNREACH);
    EXPECT_TRUE(reported_error_contains("tessera-elsewhere.example"));
    spec.host = "localhost";
    EXPECT_EQ(plm->plm_spawn(plm, &spec, &child), TESSERA_SUCCESS);
    EXPECT_EQ(wait_exit().code, 0);
}

TEST_F(PlmFork, ManyChildrenEachReportedOnce)
{
    std::vector<int64_t> ids;
    for (int i = 0; i < 8; ++i) {
        std::string cmd = "exit " + std::to_string(i);
        ids.push_back(spawn({"/bin/sh", "-c", cmd.c_str()}).id);
    }
    std::vector<int> codes(8, -1);
    for (int i = 0; i < 8; ++i) {
        mca_plm_base_exit_t e = wait_exit();
        auto it = std::find(ids.begin(), ids.end(), e.id);
        ASSERT_NE(it, ids.end());
        codes[static_cast<size_t>(it - ids.begin())] = e.code;
    }
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(codes[static_cast<size_t>(i)], i);
    }
    mca_plm_base_exit_t e;
    EXPECT_EQ(plm->plm_wait(plm, 0, &e), TESSERA_ERR_NOT_FOUND);
}

} // namespace
