// Drives plm ssh against a real sshd (started by sshd_launch_test.sh): usage
//   plm_ssh_sshd_driver --mca plm_ssh_agent "ssh -p PORT -i KEY ..." HOST1 HOST2
// Checks, on each host: the environment additions reach the program and it runs under sshd
// (SSH_CONNECTION names the host); exit codes come back; signals are forwarded; terminate_all stops
// remote programs, and so does the death of the ssh client; the job key is on no command line while
// they run; a missing program is an error at spawn. Prints one line per check; exit status 0 when all passed.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "frameworks/plm/base/base.h"
#include "mca/cmdline.h"
#include "mca/report.h"
#include "mca/var_store.h"

namespace {

using Clock = std::chrono::steady_clock;

/* The remote programs sleep this long: a marker no other process on the machine has on its command
 * line (the script passes one unique to its run, since other build trees may run this test at once). */
std::string sleep_seconds = "1017";

int failures = 0;
mca_plm_base_module_t *plm = nullptr;

void check(bool ok, const std::string &what)
{
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    std::fflush(stdout);
    if (!ok) {
        ++failures;
    }
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

std::string run(const std::string &command)
{
    std::string out;
    FILE *p = popen(command.c_str(), "r");
    if (p == nullptr) {
        return out;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) {
        out.append(buf, n);
    }
    pclose(p);
    return out;
}

/* Reads a non-blocking pipe until `lines` lines or end-of-file (then closes it). */
std::string read_lines(int fd, int lines, double timeout = 30)
{
    std::string text;
    auto deadline = Clock::now() + std::chrono::duration<double>(timeout);
    while (lines < 0 || static_cast<int>(std::count(text.begin(), text.end(), '\n')) < lines) {
        char buf[512];
        ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
            text.append(buf, static_cast<size_t>(n));
            continue;
        }
        if (n == 0) {
            close(fd);
            break;
        }
        if (errno != EAGAIN && errno != EINTR) {
            break;
        }
        if (Clock::now() > deadline) {
            std::printf("  (timed out reading; got '%s')\n", text.c_str());
            break;
        }
        pollfd p{fd, POLLIN, 0};
        poll(&p, 1, 100);
    }
    return text;
}

int spawn(const std::string &host, std::vector<const char *> argv, std::vector<const char *> env,
          mca_plm_base_child_t *child)
{
    argv.push_back(nullptr);
    env.push_back(nullptr);
    mca_plm_base_proc_spec_t spec{};
    spec.host = host.c_str();
    spec.argv = argv.data();
    spec.env = env.data();
    spec.flags = MCA_PLM_SPAWN_PIPE_STDOUT | MCA_PLM_SPAWN_PIPE_STDERR;
    *child = mca_plm_base_child_t{};
    return plm->plm_spawn(plm, &spec, child);
}

mca_plm_base_exit_t wait_exit(double timeout = 30)
{
    mca_plm_base_exit_t e{};
    int rc = plm->plm_wait(plm, timeout, &e);
    if (rc != TESSERA_SUCCESS) {
        std::printf("  (wait: %s)\n", tessera_strerror(rc));
        e.code = -1;
    }
    return e;
}

void close_fds(const mca_plm_base_child_t &c)
{
    for (int fd : {c.stdout_fd, c.stderr_fd}) {
        if (fd >= 0) {
            close(fd);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    tessera::mca::CmdlineResult cmd = tessera::mca::parse_mca_args(std::span<char *>(argv + 1, argv + argc));
    if (!cmd.ok() || cmd.remaining.size() < 2) {
        std::fprintf(stderr, "usage: %s --mca plm_ssh_agent \"ssh ...\" HOST1 HOST2 %s\n", argv[0], cmd.error.c_str());
        return 2;
    }
    const std::vector<std::string> hosts = {cmd.remaining[0], cmd.remaining[1]};
    if (const char *marker = std::getenv("TESSERA_SSHD_TEST_SLEEP"); marker != nullptr && *marker != '\0') {
        sleep_seconds = marker;
    }
    tessera::mca::set_command_line("plm", "ssh");
    tessera::mca::set_command_line("plm_ssh_kill_grace", "2");
    if (tessera::mca::framework_register(&mca_plm_base_framework) != TESSERA_SUCCESS ||
        tessera::mca::framework_open(&mca_plm_base_framework) != TESSERA_SUCCESS) {
        std::fprintf(stderr, "cannot open the plm framework\n");
        return 1;
    }
    const mca_plm_base_component_t *component = nullptr;
    if (tessera::orte::plm::select_module(&plm, &component) != TESSERA_SUCCESS ||
        std::strcmp(component->base.mca_component_name, "ssh") != 0) {
        std::fprintf(stderr, "plm ssh was not selected\n");
        return 1;
    }

    const std::string key = random_hex(64);
    const std::string value = "value-" + random_hex(16);
    const std::string key_entry = "TESSERA_JOB_KEY=" + key;
    const std::string value_entry = "TESSERA_TEST_VALUE=" + value;

    // 1. Environment additions and SSH_CONNECTION, on both hosts.
    for (const std::string &host : hosts) {
        mca_plm_base_child_t c;
        int rc = spawn(host,
                       {"/bin/sh", "-c",
                        "printf '%s %s %s\\n' \"$TESSERA_TEST_VALUE\" \"${#TESSERA_JOB_KEY}\" \"$SSH_CONNECTION\""},
                       {key_entry.c_str(), value_entry.c_str()}, &c);
        check(rc == TESSERA_SUCCESS, "spawn on " + host + " (" + tessera_strerror(rc) + ")");
        if (rc != TESSERA_SUCCESS) {
            continue;
        }
        std::string out = read_lines(c.stdout_fd, -1);
        std::string err = read_lines(c.stderr_fd, -1);
        std::istringstream words(out);
        std::string got_value, key_length, client, client_port, server, server_port;
        words >> got_value >> key_length >> client >> client_port >> server >> server_port;
        check(got_value == value && key_length == "64", "environment additions reached the program on " + host +
                                                            " (output '" + out.substr(0, out.find('\n')) + "')");
        check(server == host, "the program ran under sshd on " + host + " (SSH_CONNECTION server '" + server + "')");
        check(err.empty(), "nothing on stderr from " + host + " ('" + err + "')");
        mca_plm_base_exit_t e = wait_exit();
        check(e.exited && e.code == 0, "exit 0 from " + host + " (" + tessera::orte::plm::describe_exit(e) + ")");
    }

    // 2. Exit codes.
    {
        mca_plm_base_child_t c;
        int rc = spawn(hosts[0], {"/bin/sh", "-c", "exit 3"}, {}, &c);
        mca_plm_base_exit_t e = rc == TESSERA_SUCCESS ? wait_exit() : mca_plm_base_exit_t{};
        check(rc == TESSERA_SUCCESS && e.exited && e.code == 3,
              "exit code 3 propagated from " + hosts[0] + " (" + tessera::orte::plm::describe_exit(e) + ")");
        close_fds(c);
    }

    // 3. A forwarded signal reaches the remote program (not the ssh client): exit 128+SIGUSR1.
    {
        mca_plm_base_child_t c;
        int rc = spawn(hosts[1], {"/bin/sh", "-c", "echo up; exec sleep 30"}, {}, &c);
        if (rc == TESSERA_SUCCESS) {
            read_lines(c.stdout_fd, 1);
            plm->plm_signal(plm, c.id, SIGUSR1);
        }
        mca_plm_base_exit_t e = rc == TESSERA_SUCCESS ? wait_exit() : mca_plm_base_exit_t{};
        check(rc == TESSERA_SUCCESS && e.exited && e.code == 128 + SIGUSR1,
              "SIGUSR1 forwarded to the program on " + hosts[1] + " (" + tessera::orte::plm::describe_exit(e) + ")");
        close_fds(c);
    }

    // 4. While remote programs run, the job key is on no command line; terminate_all stops them.
    {
        std::vector<mca_plm_base_child_t> children(hosts.size());
        const std::string script = "echo up; exec sleep " + sleep_seconds;
        bool started = true;
        for (size_t i = 0; i < hosts.size(); ++i) {
            started = spawn(hosts[i], {"/bin/sh", "-c", script.c_str()}, {key_entry.c_str(), value_entry.c_str()},
                            &children[i]) == TESSERA_SUCCESS &&
                      started;
        }
        check(started, "two remote sleeps started");
        for (const mca_plm_base_child_t &c : children) {
            read_lines(c.stdout_fd, 1);
        }
        std::string pids = run("pgrep -f '^sleep " + sleep_seconds + "$'");
        check(std::count(pids.begin(), pids.end(), '\n') == 2, "both remote sleeps are running (pgrep: " + pids + ")");
        std::string ps = run("ps -eo args");
        check(ps.find(key) == std::string::npos, "the job key is on no command line (ps -eo args)");
        check(ps.find(value) == std::string::npos, "no environment addition is on a command line");
        check(ps.find("tessera_launch_agent") != std::string::npos, "the launch agents are running");

        auto start = Clock::now();
        int rc = plm->plm_terminate_all(plm);
        double took = std::chrono::duration<double>(Clock::now() - start).count();
        check(rc == TESSERA_SUCCESS, "terminate_all returned (" + std::to_string(took) + " s)");
        for (size_t i = 0; i < hosts.size(); ++i) {
            mca_plm_base_exit_t e = wait_exit(0);
            check(e.exited && e.code == 128 + SIGTERM,
                  "remote sleep ended by SIGTERM (" + tessera::orte::plm::describe_exit(e) + ")");
        }
        std::string left;
        for (int i = 0; i < 100; ++i) {
            left = run("pgrep -f '^sleep " + sleep_seconds + "$'");
            if (left.empty()) {
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        check(left.empty(), "no remote sleep left after terminate_all (pgrep: '" + left + "')");
        for (const mca_plm_base_child_t &c : children) {
            close_fds(c);
        }
    }

    // 5. When the ssh client dies (killed here behind the launcher's back), sshd closes the session,
    //    the agent sees its stdin end and stops the program.
    {
        mca_plm_base_child_t c;
        const std::string script = "echo up; exec sleep " + sleep_seconds;
        int rc = spawn(hosts[0], {"/bin/sh", "-c", script.c_str()}, {}, &c);
        if (rc == TESSERA_SUCCESS) {
            read_lines(c.stdout_fd, 1);
            kill(-static_cast<pid_t>(c.id), SIGKILL);
        }
        mca_plm_base_exit_t e = rc == TESSERA_SUCCESS ? wait_exit() : mca_plm_base_exit_t{};
        std::string left;
        for (int i = 0; i < 100; ++i) {
            left = run("pgrep -f '^sleep " + sleep_seconds + "$'");
            if (left.empty()) {
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        check(rc == TESSERA_SUCCESS && e.signaled && e.signal == SIGKILL && left.empty(),
              "killing the ssh client stops the remote program (pgrep: '" + left + "')");
        close_fds(c);
    }

    // 6. A program the remote host does not have is an error at spawn.
    {
        tessera::mca::report_clear();
        mca_plm_base_child_t c;
        int rc = spawn(hosts[0], {"tessera-no-such-program-xyz"}, {}, &c);
        bool named = false;
        for (const std::string &m : tessera::mca::reported(tessera::mca::Severity::Error)) {
            named = named || m.find("tessera-no-such-program-xyz") != std::string::npos;
        }
        check(rc == TESSERA_ERR_NOT_FOUND && named, "a missing remote program is an error at spawn naming it");
    }

    tessera::mca::framework_close(&mca_plm_base_framework);
    std::printf("%s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
