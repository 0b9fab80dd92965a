// plm ssh, opened and selected through the MCA core as mpirun does, with fake_ssh.sh as its agent
// command (the real ssh is in sshd_launch_test.sh): remote children go through the agent command and
// tessera_launch_agent, get their environment additions without any of them on a command line, report
// exit codes, receive forwarded signals and leave nothing behind at teardown; failures to start are
// errors at spawn that say why.
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/plm_launcher_test.h"
#include "tests/support/process_gone.h"

#ifndef TESSERA_FAKE_SSH
#error "TESSERA_FAKE_SSH must name fake_ssh.sh"
#endif

namespace {

using Clock = std::chrono::steady_clock;
using testsupport::gone_within;

constexpr const char *kRemote = "127.0.0.2";

class PlmSsh : public testsupport::PlmLauncherTest {
protected:
    static void SetUpTestSuite()
    {
        open_launcher({{"plm", "ssh"},
                       {"plm_ssh_agent", TESSERA_FAKE_SSH " -o BatchMode=yes"},
                       {"plm_ssh_kill_grace", "1.0"}});
    }
};

// Every process's command line (what `ps -eo args` shows), NULs as spaces.
std::vector<std::string> all_command_lines()
{
    std::vector<std::string> lines;
    DIR *proc = opendir("/proc");
    if (proc == nullptr) {
        return lines;
    }
    while (dirent *d = readdir(proc)) {
        if (d->d_name[0] < '0' || d->d_name[0] > '9') {
            continue;
        }
        std::ifstream f(std::string("/proc/") + d->d_name + "/cmdline", std::ios::binary);
        std::stringstream text;
        text << f.rdbuf();
        std::string line = text.str();
        std::replace(line.begin(), line.end(), '\0', ' ');
        lines.push_back(line);
    }
    closedir(proc);
    return lines;
}

std::string random_hex(size_t n)
{
    std::random_device rd;
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += "0123456789abcdef"[rd() % 16];
    }
    return s;
}

TEST_F(PlmSsh, IsTheSelectedLauncher)
{
    EXPECT_STREQ(plm_component->base.mca_component_name, "ssh");
    EXPECT_EQ(plm->plm_component, plm_component);
}

TEST_F(PlmSsh, RemoteChildRunsThroughTheAgentCommandWithItsEnvironment)
{
    mca_plm_base_child_t child =
        spawn(kRemote, {"/bin/sh", "-c", "printf '%s|%s' \"$TESSERA_PLM_TEST_ADDED\" \"$SSH_CONNECTION\""},
              MCA_PLM_SPAWN_PIPE_STDOUT, {"TESSERA_PLM_TEST_ADDED=hello world"});
    EXPECT_GT(child.id, 0);
    EXPECT_EQ(read_all(child.stdout_fd), "hello world|127.0.0.1 40000 127.0.0.2 22");
    mca_plm_base_exit_t e = wait_exit();
    EXPECT_EQ(e.id, child.id);
    EXPECT_EQ(e.exited, 1);
    EXPECT_EQ(e.code, 0);
    EXPECT_EQ(plm->plm_wait(plm, 0, &e), TESSERA_ERR_NOT_FOUND);
}

TEST_F(PlmSsh, ExitCodeIsReported)
{
    mca_plm_base_child_t child = spawn(kRemote, {"/bin/sh", "-c", "exit 3"});
    mca_plm_base_exit_t e = wait_exit();
    EXPECT_EQ(e.id, child.id);
    EXPECT_EQ(e.exited, 1);
    EXPECT_EQ(e.code, 3);
}

TEST_F(PlmSsh, ChildIsTheLocalAgentCommandInItsOwnGroup)
{
    mca_plm_base_child_t child = spawn(kRemote, {"sleep", "30"});
    pid_t pid = static_cast<pid_t>(child.id);
    EXPECT_EQ(getpgid(pid), pid);
    EXPECT_NE(getpgrp(), pid);
    EXPECT_EQ(getsid(pid), pid) << "the ssh client has no controlling terminal to prompt on";
}

TEST_F(PlmSsh, SignalIsForwardedToTheRemoteProgram)
{
    mca_plm_base_child_t child = spawn(kRemote, {"sleep", "30"});
    EXPECT_EQ(plm->plm_signal(plm, child.id, SIGUSR1), TESSERA_SUCCESS);
    mca_plm_base_exit_t e = wait_exit();
    // The program died of SIGUSR1; the ssh client, which carries exit codes only, survived to say so.
    EXPECT_EQ(e.exited, 1);
    EXPECT_EQ(e.code, 128 + SIGUSR1);
    EXPECT_EQ(plm->plm_signal(plm, child.id, SIGUSR1), TESSERA_ERR_NOT_FOUND);
}

TEST_F(PlmSsh, TerminateAllStopsRemoteProgramsAndWhatTheyStarted)
{
    mca_plm_base_child_t a = spawn(kRemote, {"/bin/sh", "-c", "sleep 300 & echo $!; wait"}, MCA_PLM_SPAWN_PIPE_STDOUT);
    mca_plm_base_child_t b = spawn("127.0.0.3", {"sleep", "300"});
    pid_t grandchild = static_cast<pid_t>(std::stol(read_all(a.stdout_fd, 1)));
    ASSERT_GT(grandchild, 0);
    auto start = Clock::now();
    ASSERT_EQ(plm->plm_terminate_all(plm), TESSERA_SUCCESS);
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(900)); // SIGTERM sufficed: no grace wait
    std::vector<int64_t> ids;
    for (int i = 0; i < 2; ++i) {
        mca_plm_base_exit_t e = wait_exit(0);
        ids.push_back(e.id);
        EXPECT_EQ(e.exited, 1);
        EXPECT_EQ(e.code, 128 + SIGTERM);
    }
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, (std::vector<int64_t>{std::min(a.id, b.id), std::max(a.id, b.id)}));
    EXPECT_TRUE(gone_within(grandchild, 5)) << "remote sleep " << grandchild << " survived the teardown";
    close(a.stdout_fd);
}

TEST_F(PlmSsh, RemoteProgramIgnoringSigtermIsKilledAfterTheGracePeriod)
{
    mca_plm_base_child_t child = spawn(
        kRemote, {"/bin/sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"}, MCA_PLM_SPAWN_PIPE_STDOUT);
    EXPECT_EQ(read_all(child.stdout_fd, 1), "ready\n");
    auto start = Clock::now();
    ASSERT_EQ(plm->plm_terminate_all(plm), TESSERA_SUCCESS);
    auto elapsed = Clock::now() - start;
    EXPECT_GE(elapsed, std::chrono::milliseconds(990)); // plm_ssh_kill_grace = 1.0, applied by the agent
    EXPECT_LT(elapsed, std::chrono::seconds(6));
    mca_plm_base_exit_t e = wait_exit(0);
    EXPECT_EQ(e.exited, 1);
    EXPECT_EQ(e.code, 128 + SIGKILL);
    close(child.stdout_fd);
}

TEST_F(PlmSsh, SecretsInTheEnvironmentAreOnNoCommandLine)
{
    const std::string key = random_hex(64);
    const std::string entry = "TESSERA_JOB_KEY=" + key;
    mca_plm_base_child_t child = spawn(kRemote, {"/bin/sh", "-c", "echo \"${#TESSERA_JOB_KEY}\"; exec sleep 30"},
                                       MCA_PLM_SPAWN_PIPE_STDOUT, {entry.c_str()});
    EXPECT_EQ(read_all(child.stdout_fd, 1), "64\n") << "the key reached the program";
    for (const std::string &line : all_command_lines()) {
        EXPECT_EQ(line.find(key), std::string::npos) << "the job key is visible in: " << line;
    }
    close(child.stdout_fd);
}

TEST_F(PlmSsh, RemoteStdinIsEmpty)
{
    mca_plm_base_child_t child = spawn(kRemote, {"/bin/sh", "-c", "cat; echo done"}, MCA_PLM_SPAWN_PIPE_STDOUT);
    EXPECT_EQ(read_all(child.stdout_fd), "done\n");
    EXPECT_EQ(wait_exit().code, 0);
}

TEST_F(PlmSsh, WorkingDirectoryIsTheGivenOneOrTheLaunchers)
{
    char tmpl[] = "/tmp/tessera-plm-ssh-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    char real[PATH_MAX];
    ASSERT_NE(realpath(tmpl, real), nullptr);
    mca_plm_base_child_t child = spawn(kRemote, {"/bin/sh", "-c", "pwd -P >&2"},
                                       MCA_PLM_SPAWN_PIPE_STDOUT | MCA_PLM_SPAWN_PIPE_STDERR, {}, tmpl);
    EXPECT_EQ(read_all(child.stderr_fd), std::string(real) + "\n");
    EXPECT_EQ(read_all(child.stdout_fd), "");
    EXPECT_EQ(wait_exit().code, 0);
    rmdir(tmpl);

    char here[PATH_MAX];
    ASSERT_NE(getcwd(here, sizeof here), nullptr);
    char here_real[PATH_MAX];
    ASSERT_NE(realpath(here, here_real), nullptr);
    child = spawn(kRemote, {"/bin/sh", "-c", "pwd -P"}, MCA_PLM_SPAWN_PIPE_STDOUT);
    EXPECT_EQ(read_all(child.stdout_fd), std::string(here_real) + "\n");
    EXPECT_EQ(wait_exit().code, 0);
}

TEST_F(PlmSsh, OutputIsRelayedWhenNoPipeWasAskedFor)
{
    int pipe_fds[2];
    ASSERT_EQ(pipe2(pipe_fds, O_CLOEXEC), 0);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[1]);
    mca_plm_base_proc_spec_t spec{};
    const char *argv[] = {"/bin/sh", "-c", "echo relayed-line", nullptr};
    spec.host = kRemote;
    spec.argv = argv;
    mca_plm_base_child_t child{};
    int rc = plm->plm_spawn(plm, &spec, &child);
    mca_plm_base_exit_t e{};
    int wrc = rc == TESSERA_SUCCESS ? plm->plm_wait(plm, 10, &e) : rc;
    // The relay holds the read end of the ssh client's stdout until end-of-file: collect the line,
    // then give the test its stdout back.
    std::string got;
    auto deadline = Clock::now() + std::chrono::seconds(10);
    while (got.find('\n') == std::string::npos && Clock::now() < deadline) {
        pollfd p{pipe_fds[0], POLLIN, 0};
        if (poll(&p, 1, 100) == 1) {
            char buf[256];
            ssize_t n = read(pipe_fds[0], buf, sizeof buf);
            if (n > 0) {
                got.append(buf, static_cast<size_t>(n));
            }
        }
    }
    dup2(saved, STDOUT_FILENO);
    close(saved);
    close(pipe_fds[0]);
    ASSERT_EQ(rc, TESSERA_SUCCESS);
    EXPECT_EQ(child.stdout_fd, -1);
    EXPECT_EQ(wrc, TESSERA_SUCCESS);
    EXPECT_EQ(e.code, 0);
    EXPECT_EQ(got, "relayed-line\n");
}

TEST_F(PlmSsh, LocalHostsAreStartedDirectly)
{
    for (const char *host : {"", "localhost", "127.0.0.1"}) {
        mca_plm_base_child_t child = spawn(host, {"/bin/sh", "-c", "echo $PPID"}, MCA_PLM_SPAWN_PIPE_STDOUT);
        EXPECT_EQ(read_all(child.stdout_fd), std::to_string(getpid()) + "\n") << host;
        EXPECT_EQ(wait_exit().code, 0);
    }
}

TEST_F(PlmSsh, MissingRemoteProgramIsAnErrorAtSpawn)
{
    spawn(kRemote, {"tessera-no-such-program-xyz"}, 0, {}, nullptr, TESSERA_ERR_NOT_FOUND);
    EXPECT_TRUE(reported_error_contains("tessera-no-such-program-xyz")) << "no error names the program";
    EXPECT_TRUE(reported_error_contains(kRemote)) << "no error names the host";
    spawn(kRemote, {"/bin/true"}, 0, {}, "/nonexistent-tessera-dir", TESSERA_ERR_NOT_FOUND);
    EXPECT_TRUE(reported_error_contains("/nonexistent-tessera-dir"));
    mca_plm_base_exit_t e;
    EXPECT_EQ(plm->plm_wait(plm, 0, &e), TESSERA_ERR_NOT_FOUND); // no child was left to reap
}

TEST_F(PlmSsh, UnreachableHostIsAnErrorAtSpawn)
{
    spawn("unreachable.example", {"/bin/true"}, MCA_PLM_SPAWN_PIPE_STDERR, {}, nullptr, TESSERA_ERR_UNREACH);
    EXPECT_TRUE(reported_error_contains("unreachable.example"));
    EXPECT_TRUE(reported_error_contains("Connection refused")) << "what ssh said is part of the error";
    mca_plm_base_exit_t e;
    EXPECT_EQ(plm->plm_wait(plm, 0, &e), TESSERA_ERR_NOT_FOUND);
}

TEST_F(PlmSsh, HostWithoutTheAgentIsAnErrorAtSpawn)
{
    spawn("noagent.example", {"/bin/true"}, 0, {}, nullptr, TESSERA_ERR_NOT_FOUND);
    EXPECT_TRUE(reported_error_contains("plm_ssh_remote_agent_path"));
}

TEST_F(PlmSsh, BadSpecsAreRefused)
{
    spawn(kRemote, {""}, 0, {}, nullptr, TESSERA_ERR_BAD_PARAM);
    spawn(kRemote, {"/bin/true"}, 0, {"NOT_AN_ASSIGNMENT"}, nullptr, TESSERA_ERR_BAD_PARAM);
    EXPECT_TRUE(reported_error_contains("NOT_AN_ASSIGNMENT"));
    spawn("-oProxyCommand=touch /tmp/x", {"/bin/true"}, 0, {}, nullptr, TESSERA_ERR_BAD_PARAM);
    EXPECT_TRUE(reported_error_contains("-oProxyCommand"));
}

TEST_F(PlmSsh, ManyRemoteChildrenEachReportedOnce)
{
    std::vector<int64_t> ids;
    for (int i = 0; i < 6; ++i) {
        std::string cmd = "exit " + std::to_string(i);
        ids.push_back(spawn(i % 2 ? "127.0.0.3" : kRemote, {"/bin/sh", "-c", cmd.c_str()}).id);
    }
    std::vector<int> codes(6, -1);
    for (int i = 0; i < 6; ++i) {
        mca_plm_base_exit_t e = wait_exit();
        auto it = std::find(ids.begin(), ids.end(), e.id);
        ASSERT_NE(it, ids.end());
        codes[static_cast<size_t>(it - ids.begin())] = e.code;
    }
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(codes[static_cast<size_t>(i)], i);
    }
}

} // namespace
