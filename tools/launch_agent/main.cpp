/*
 * tessera_launch_agent: started by plm ssh on the remote host as `ssh <host> <path>/tessera_launch_agent`.
 * Its stdin is the channel from the launcher: the launch spec first (plm_base_agent_protocol.h), then
 * signal and input records; its stdout and stderr carry the program's. It takes no arguments: everything comes
 * through the channel, so that neither the program's arguments nor its environment (the job key) are
 * visible in `ps` on this host.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "frameworks/plm/base/plm_base_agent_protocol.h"
#include "frameworks/plm/base/plm_base_exec.h"
#include "mca/constants.h"
#include "mca/report.h"
#include "spec_reader.h"
#include "supervisor.h"
#include "tessera_config.h"

namespace agent = tessera::orte::plm::agent;
namespace plm = tessera::orte::plm;
using namespace tessera::orte::launch_agent;

namespace {

constexpr int kExitCannotStart = 127;

void usage(FILE *to)
{
    std::fprintf(to,
                 "usage: tessera_launch_agent\n"
                 "Starts one program for a Tessera launcher (plm ssh). The launch spec comes on stdin; the\n"
                 "program's output goes to stdout/stderr; closing stdin stops the program. Exit status: the\n"
                 "program's, 128+N when signal N ended it, 127 when it could not be started.\n");
}

std::string host_name()
{
    char name[HOST_NAME_MAX + 1] = {};
    if (gethostname(name, sizeof name - 1) != 0) {
        return "unknown-host";
    }
    return name;
}

void write_status(const std::string &line)
{
    size_t done = 0;
    while (done < line.size()) {
        ssize_t n = write(STDOUT_FILENO, line.data() + done, line.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return; /* the launcher is gone; the closed channel will stop us */
        }
        done += static_cast<size_t>(n);
    }
}

bool is_directory(const std::string &path)
{
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string last_error(int rc)
{
    auto errors = tessera::mca::reported(tessera::mca::Severity::Error);
    return errors.empty() ? std::string(tessera_strerror(rc)) : errors.back();
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1) {
        std::string arg = argv[1];
        if (arg == "--help" || arg == "-h") {
            usage(stdout);
            return 0;
        }
        if (arg == "--version") {
            std::printf("tessera_launch_agent (Tessera MPI) %s\n", TESSERA_VERSION);
            return 0;
        }
        std::fprintf(stderr, "tessera_launch_agent: unexpected argument '%s' (the launch spec comes on stdin)\n",
                     argv[1]);
        usage(stderr);
        return 2;
    }

    /* A closed ssh session must not kill us before we stop the program. */
    signal(SIGPIPE, SIG_IGN);
    /* Handled through a signalfd by the supervisor; blocked from now on so that none is lost. The
     * program starts with an empty mask (plm_base_exec resets it). */
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGCHLD, SIGTERM, SIGHUP, SIGINT}) {
        sigaddset(&set, sig);
    }
    sigprocmask(SIG_BLOCK, &set, nullptr);
    /* Orphans of the program become ours, so that its process group can be seen to empty. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    /* Errors go back to the launcher in the status line, not to our stderr. */
    tessera::mca::report_set_print(false);

    const std::string who = "tessera_launch_agent on " + host_name();
    agent::Decoder decoder;
    std::string error;
    std::optional<agent::LaunchSpec> spec = read_spec(STDIN_FILENO, &decoder, &error);
    if (!spec) {
        if (!error.empty()) {
            write_status(agent::encode_failed(TESSERA_ERR_BAD_PARAM, who + ": " + error));
        }
        return kExitCannotStart;
    }

    std::string working_dir = spec->working_dir;
    if (!spec->working_dir_required && !working_dir.empty() && !is_directory(working_dir)) {
        working_dir.clear(); /* the launcher's directory does not exist here: stay in ours */
    }
    std::vector<const char *> args;
    for (const std::string &a : spec->argv) {
        args.push_back(a.c_str());
    }
    args.push_back(nullptr);
    std::vector<const char *> env;
    for (const std::string &e : spec->env) {
        env.push_back(e.c_str());
    }
    env.push_back(nullptr);
    mca_plm_base_proc_spec_t proc{};
    proc.argv = args.data();
    proc.env = env.data();
    proc.working_dir = working_dir.empty() ? nullptr : working_dir.c_str();
    /* Output through us: our status line must come first on stdout, before anything of the program. */
    proc.flags = MCA_PLM_SPAWN_PIPE_STDOUT | MCA_PLM_SPAWN_PIPE_STDERR;

    /* With input records to come, the program's stdin is a pipe we feed; else /dev/null. */
    int input_pipe[2] = {-1, -1};
    if (spec->forward_stdin) {
        if (pipe2(input_pipe, O_CLOEXEC) != 0) {
            write_status(agent::encode_failed(TESSERA_ERROR, who + ": cannot make the stdin pipe of '" + spec->argv[0] +
                                                                 "': " + std::strerror(errno)));
            return kExitCannotStart;
        }
        proc.flags |= MCA_PLM_SPAWN_STDIN_FD;
        proc.stdin_fd = input_pipe[0];
    }

    plm::ExecPlan plan;
    int rc = plm::prepare_exec(proc, who, &plan);
    plm::Started started;
    if (rc == TESSERA_SUCCESS) {
        plan.parent_death_signal = SIGKILL;
        rc = plm::fork_exec(plan, &started);
    }
    if (input_pipe[0] >= 0) {
        close(input_pipe[0]); /* the program's copy is the only reader: its exit breaks the pipe */
    }
    if (rc != TESSERA_SUCCESS) {
        write_status(agent::encode_failed(rc, last_error(rc)));
        return kExitCannotStart;
    }
    if (input_pipe[1] >= 0) {
        fcntl(input_pipe[1], F_SETFL, fcntl(input_pipe[1], F_GETFL) | O_NONBLOCK);
    }
    write_status(agent::encode_started(started.pid));

    Program program;
    program.pid = started.pid;
    program.stdout_fd = started.stdout_fd;
    program.stderr_fd = started.stderr_fd;
    program.stdin_fd = input_pipe[1];
    program.name = spec->argv[0];
    return supervise(program, &decoder, spec->kill_grace, who);
}
