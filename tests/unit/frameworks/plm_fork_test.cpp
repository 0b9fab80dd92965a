// plm fork, opened and selected through the MCA core as mpirun will: children start in their own
// process groups, their exit codes and signals come back, the environment reaches them, and a
// teardown leaves nothing running.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <climits>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "frameworks/plm/base/base.h"
#include "mca/report.h"
#include "mca/var_store.h"

namespace {

using Clock = std::chrono::steady_clock;

mca_plm_base_module_t *plm = nullptr;
const mca_plm_base_component_t *plm_component = nullptr;

class PlmFork : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        tessera::mca::set_command_line("plm", "fork");
        tessera::mca::set_command_line("plm_fork_kill_grace", "1.0");
        ASSERT_EQ(tessera::mca::framework_register(&mca_plm_base_framework), TESSERA_SUCCESS);
        ASSERT_EQ(tessera::mca::framework_open(&mca_plm_base_framework), TESSERA_SUCCESS);
        ASSERT_EQ(tessera::orte::plm::select_module(&plm, &plm_component), TESSERA_SUCCESS);
    }
    static void TearDownTestSuite() { tessera::mca::framework_close(&mca_plm_base_framework); }

    void SetUp() override
    {
        ASSERT_NE(plm, nullptr);
        tessera::mca::report_clear();
    }
    // Every test leaves no child behind: whatever is left is torn down and reported.
    void TearDown() override
    {
        plm->plm_terminate_all(plm);
        mca_plm_base_exit_t e;
        while (plm->plm_wait(plm, 0, &e) == TESSERA_SUCCESS) {
        }
    }

    static mca_plm_base_child_t spawn(std::vector<const char *> argv, uint32_t flags = 0,
                                      std::vector<const char *> env = {}, const char *dir = nullptr,
                                      int expect = TESSERA_SUCCESS)
    {
        argv.push_back(nullptr);
        if (!env.empty()) {
            env.push_back(nullptr);
        }
        mca_plm_base_proc_spec_t spec{};
        spec.argv = argv.data();
        spec.env = env.empty() ? nullptr : env.data();
        spec.working_dir = dir;
        spec.flags = flags;
        mca_plm_base_child_t child{};
        child.stdout_fd = child.stderr_fd = child.exit_fd = -1;
        EXPECT_EQ(plm->plm_spawn(plm, &spec, &child), expect) << argv[0];
        return child;
    }

    static mca_plm_base_exit_t wait_exit(double timeout = 10)
    {
        mca_plm_base_exit_t e{};
        EXPECT_EQ(plm->plm_wait(plm, timeout, &e), TESSERA_SUCCESS);
        return e;
    }

    // Reads a non-blocking pipe to end-of-file (or `max_lines` lines), then closes it if done.
    static std::string read_all(int fd, int max_lines = -1, double timeout = 10)
    {
        std::string text;
        const auto deadline = Clock::now() + std::chrono::duration<double>(timeout);
        for (;;) {
            if (max_lines >= 0 && std::count(text.begin(), text.end(), '\n') >= max_lines) {
                return text;
            }
            char buf[512];
            ssize_t n = read(fd, buf, sizeof buf);
            if (n > 0) {
                text.append(buf, static_cast<size_t>(n));
                continue;
            }
            if (n == 0) {
                close(fd);
                return text;
            }
            if (errno != EAGAIN && errno != EINTR) {
                ADD_FAILURE() << "read: " << strerror(errno);
                return text;
            }
            if (Clock::now() > deadline) {
                ADD_FAILURE() << "no end of output within " << timeout << " s; got: " << text;
                return text;
            }
            pollfd p{fd, POLLIN, 0};
            poll(&p, 1, 50);
        }
    }

    static bool reported_error_contains(const std::string &needle)
    {
        for (const std::string &m : tessera::mca::reported(tessera::mca::Severity::Error)) {
            if (m.find(needle) != std::string::npos) {
                return true;
            }
        }
        return false;
    }
};

// A process that is gone (or a zombie nobody reaps, as under a container's init) counts as ended.
bool process_gone(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) {
        return true;
    }
    std::string line;
    std::getline(stat, line);
    size_t paren = line.rfind(')');
    return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z';
}

bool gone_within(pid_t pid, double seconds)
{
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (!process_gone(pid)) {
        if (Clock::now() > deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

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
