// tessera_launch_agent run directly (as sshd would run it, minus ssh): it starts the program from the
// spec on its stdin, says so first on stdout, passes the program's output and exit status on, forwards
// signals, and stops the program — and what the program left in its group — when its stdin closes.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "frameworks/plm/base/plm_base_agent_protocol.h"
#include "mca/constants.h"
#include "tests/support/process_gone.h"

#ifndef TESSERA_LAUNCH_AGENT_PATH
#error "TESSERA_LAUNCH_AGENT_PATH must name the built tessera_launch_agent"
#endif

namespace {

namespace agent = tessera::orte::plm::agent;
using Clock = std::chrono::steady_clock;
using testsupport::gone_within;

// One agent process with pipes on its three standard streams.
class AgentRun {
public:
    explicit AgentRun(std::vector<std::string> args = {})
    {
        int in[2], out[2], err[2];
        if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
            ADD_FAILURE() << "pipe: " << strerror(errno);
            return;
        }
        std::vector<char *> argv;
        std::string path = TESSERA_LAUNCH_AGENT_PATH;
        argv.push_back(path.data());
        for (std::string &a : args) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        pid_ = fork();
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            dup2(err[1], 2);
            execv(argv[0], argv.data());
            _exit(126);
        }
        close(in[0]);
        close(out[1]);
        close(err[1]);
        in_ = in[1];
        out_ = out[0];
        err_ = err[0];
        // The test process ignores nothing, but a write to an agent that exited must not kill it.
        signal(SIGPIPE, SIG_IGN);
    }
    ~AgentRun()
    {
        close_stdin();
        for (int fd : {out_, err_}) {
            if (fd >= 0) {
                close(fd);
            }
        }
        if (pid_ > 0 && !reaped_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }

    pid_t pid() const { return pid_; }

    void send(const std::string &bytes)
    {
        ASSERT_EQ(write(in_, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    }
    void close_stdin()
    {
        if (in_ >= 0) {
            close(in_);
            in_ = -1;
        }
    }
    // One line from stdout, without the newline ("" on end-of-file or timeout).
    std::string read_line(double timeout = 10) { return read_until(out_, "\n", timeout); }
    std::string read_stdout(double timeout = 10) { return read_until(out_, "", timeout); }
    std::string read_stderr(double timeout = 10) { return read_until(err_, "", timeout); }

    // The agent's exit status (waits at most `timeout` seconds).
    int exit_status(double timeout = 10)
    {
        auto deadline = Clock::now() + std::chrono::duration<double>(timeout);
        int status = 0;
        while (waitpid(pid_, &status, WNOHANG) == 0) {
            if (Clock::now() > deadline) {
                ADD_FAILURE() << "the agent did not exit within " << timeout << " s";
                return -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
    }

private:
    // Reads byte by byte up to `stop` (or to end-of-file when stop is empty).
    static std::string read_until(int fd, const std::string &stop, double timeout)
    {
        std::string text;
        auto deadline = Clock::now() + std::chrono::duration<double>(timeout);
        for (;;) {
            pollfd p{fd, POLLIN, 0};
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) {
                ADD_FAILURE() << "timed out reading; got '" << text << "'";
                return text;
            }
            char c;
            if (read(fd, &c, 1) != 1) {
                return text;
            }
            if (!stop.empty() && c == stop[0]) {
                return text;
            }
            text.push_back(c);
        }
    }

    pid_t pid_ = -1;
    int in_ = -1;
    int out_ = -1;
    int err_ = -1;
    bool reaped_ = false;
};

agent::LaunchSpec shell(const std::string &script, double grace = 1.0)
{
    agent::LaunchSpec s;
    s.argv = {"/bin/sh", "-c", script};
    s.kill_grace = grace;
    return s;
}

long started_pid(const std::string &line)
{
    auto status = agent::parse_status_line(line);
    if (!status || !status->started) {
        ADD_FAILURE() << "not a 'started' status line: '" << line << "'";
        return -1;
    }
    return status->pid;
}

TEST(LaunchAgent, RunsTheProgramWithEnvironmentAndDirectoryAndRelaysItsExit)
{
    char tmpl[] = "/tmp/tessera-agent-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    char real[PATH_MAX];
    ASSERT_NE(realpath(tmpl, real), nullptr);

    agent::LaunchSpec s = shell("printf '%s|%s\\n' \"$TESSERA_TEST_ADDED\" \"$(pwd -P)\"; echo oops >&2; exit 3");
    s.env = {"TESSERA_TEST_ADDED=hello world"};
    s.working_dir = tmpl;
    AgentRun run;
    run.send(agent::encode_spec(s));
    EXPECT_GT(started_pid(run.read_line()), 0);
    EXPECT_EQ(run.read_stdout(), "hello world|" + std::string(real) + "\n");
    EXPECT_EQ(run.read_stderr(), "oops\n");
    EXPECT_EQ(run.exit_status(), 3);
    rmdir(tmpl);
}

TEST(LaunchAgent, StatusLineComesBeforeAnyOutputOfTheProgram)
{
    for (int i = 0; i < 20; ++i) {
        AgentRun run;
        run.send(agent::encode_spec(shell("echo first")));
        std::string line = run.read_line();
        EXPECT_EQ(line.rfind(agent::kStatusPrefix, 0), 0u) << line;
        EXPECT_EQ(run.read_stdout(), "first\n");
        EXPECT_EQ(run.exit_status(), 0);
    }
}

TEST(LaunchAgent, MissingDirectoryIsAnErrorOnlyWhenRequired)
{
    agent::LaunchSpec s = shell("pwd");
    s.working_dir = "/nonexistent-tessera-dir";
    s.working_dir_required = false;
    {
        AgentRun run;
        run.send(agent::encode_spec(s));
        EXPECT_GT(started_pid(run.read_line()), 0);
        EXPECT_FALSE(run.read_stdout().empty());
        EXPECT_EQ(run.exit_status(), 0);
    }
    s.working_dir_required = true;
    AgentRun run;
    run.send(agent::encode_spec(s));
    auto status = agent::parse_status_line(run.read_line());
    ASSERT_TRUE(status.has_value());
    EXPECT_FALSE(status->started);
    EXPECT_EQ(status->code, TESSERA_ERR_NOT_FOUND);
    EXPECT_NE(status->message.find("/nonexistent-tessera-dir"), std::string::npos) << status->message;
    EXPECT_EQ(run.exit_status(), 127);
}

TEST(LaunchAgent, MissingProgramIsReportedInTheStatusLine)
{
    agent::LaunchSpec s;
    s.argv = {"tessera-no-such-program-xyz"};
    AgentRun run;
    run.send(agent::encode_spec(s));
    auto status = agent::parse_status_line(run.read_line());
    ASSERT_TRUE(status.has_value());
    EXPECT_FALSE(status->started);
    EXPECT_EQ(status->code, TESSERA_ERR_NOT_FOUND);
    EXPECT_NE(status->message.find("tessera-no-such-program-xyz"), std::string::npos) << status->message;
    EXPECT_NE(status->message.find("tessera_launch_agent on "), std::string::npos) << status->message;
    EXPECT_EQ(run.exit_status(), 127);
}

TEST(LaunchAgent, GarbageOnTheChannelIsRefused)
{
    AgentRun run;
    run.send("GET / HTTP/1.0\r\n\r\n");
    auto status = agent::parse_status_line(run.read_line());
    ASSERT_TRUE(status.has_value());
    EXPECT_FALSE(status->started);
    EXPECT_EQ(status->code, TESSERA_ERR_BAD_PARAM);
    EXPECT_NE(status->message.find("not a Tessera launch spec"), std::string::npos) << status->message;
    EXPECT_EQ(run.exit_status(), 127);
}

TEST(LaunchAgent, ChannelClosedBeforeTheSpecEndsQuietly)
{
    AgentRun run;
    run.send(std::string(agent::kMagic) + "arg 4\n/bin");
    run.close_stdin();
    EXPECT_EQ(run.read_stdout(), "");
    EXPECT_EQ(run.exit_status(), 127);
}

TEST(LaunchAgent, ClosingTheChannelStopsTheProgramAndItsGroup)
{
    AgentRun run;
    run.send(agent::encode_spec(shell("sleep 300 & echo $!; wait")));
    EXPECT_GT(started_pid(run.read_line()), 0);
    pid_t grandchild = static_cast<pid_t>(std::stol(run.read_line()));
    auto start = Clock::now();
    run.close_stdin();
    EXPECT_EQ(run.exit_status(), 128 + SIGTERM);
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(900)) << "SIGTERM sufficed: no grace wait";
    EXPECT_TRUE(gone_within(grandchild, 5)) << "sleep " << grandchild << " survived";
    EXPECT_EQ(run.read_stderr(), "") << "a teardown is not reported as a crash";
}

TEST(LaunchAgent, ProgramIgnoringSigtermIsKilledAfterTheGracePeriod)
{
    AgentRun run;
    run.send(agent::encode_spec(shell("trap '' TERM; echo ready; while :; do sleep 0.05; done", 0.5)));
    EXPECT_GT(started_pid(run.read_line()), 0);
    EXPECT_EQ(run.read_line(), "ready");
    auto start = Clock::now();
    run.close_stdin();
    EXPECT_EQ(run.exit_status(), 128 + SIGKILL);
    auto elapsed = Clock::now() - start;
    EXPECT_GE(elapsed, std::chrono::milliseconds(490));
    EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(LaunchAgent, SignalRecordsReachTheProgram)
{
    AgentRun run;
    run.send(agent::encode_spec(shell("trap 'echo got-usr1' USR1; echo ready; while :; do sleep 0.05; done")));
    EXPECT_GT(started_pid(run.read_line()), 0);
    EXPECT_EQ(run.read_line(), "ready");
    run.send(agent::encode_signal(SIGUSR1));
    EXPECT_EQ(run.read_line(), "got-usr1");
    run.send(agent::encode_signal(SIGKILL));
    EXPECT_EQ(run.exit_status(), 128 + SIGKILL);
    std::string said = run.read_stderr();
    EXPECT_NE(said.find("killed by signal 9"), std::string::npos) << said;
}

TEST(LaunchAgent, ProgramKilledBySignalExitsWith128PlusN)
{
    AgentRun run;
    run.send(agent::encode_spec(shell("kill -SEGV $$")));
    EXPECT_GT(started_pid(run.read_line()), 0);
    EXPECT_EQ(run.exit_status(), 128 + SIGSEGV);
    std::string said = run.read_stderr();
    EXPECT_NE(said.find("'/bin/sh' was killed by signal 11"), std::string::npos) << said;
}

TEST(LaunchAgent, LeftoversOfTheProgramDoNotHoldTheExit)
{
    // The shell leaves a background sleep holding stdout: the agent still ends (as would the ssh
    // session), and takes the sleep with it.
    AgentRun run;
    run.send(agent::encode_spec(shell("sleep 300 & echo $!; exit 5")));
    EXPECT_GT(started_pid(run.read_line()), 0);
    pid_t leftover = static_cast<pid_t>(std::stol(run.read_line()));
    EXPECT_EQ(run.exit_status(5), 5);
    EXPECT_TRUE(gone_within(leftover, 5)) << "sleep " << leftover << " survived";
}

TEST(LaunchAgent, SigtermToTheAgentStopsTheProgram)
{
    AgentRun run;
    run.send(agent::encode_spec(shell("echo ready; exec sleep 300")));
    long pid = started_pid(run.read_line());
    EXPECT_EQ(run.read_line(), "ready");
    kill(run.pid(), SIGTERM);
    EXPECT_EQ(run.exit_status(), 128 + SIGTERM);
    EXPECT_TRUE(gone_within(static_cast<pid_t>(pid), 5));
}

TEST(LaunchAgent, ArgumentsAreRefused)
{
    AgentRun help({"--help"});
    EXPECT_NE(help.read_stdout().find("usage: tessera_launch_agent"), std::string::npos);
    EXPECT_EQ(help.exit_status(), 0);
    AgentRun bad({"TESSERA_JOB_KEY=secret"});
    EXPECT_NE(bad.read_stderr().find("unexpected argument"), std::string::npos);
    EXPECT_EQ(bad.exit_status(), 2);
}

} // namespace
