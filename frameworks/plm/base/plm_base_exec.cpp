/* plm base: process creation. The exec outcome comes back through a close-on-exec pipe: end-of-file
 * means the exec happened, a record means it failed and says where and why — so a missing program is
 * an error at spawn time, not a child that mysteriously exits 127. */
#include "frameworks/plm/base/plm_base_exec.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <string_view>

#include "mca/report.h"

extern char **environ;

namespace tessera::orte::plm {
namespace {

using tessera::mca::report;
using tessera::mca::Severity;

/* What the child writes to the status pipe when it cannot exec. */
struct ChildFailure {
    int stage; /* kStage* */
    int error; /* errno */
};
constexpr int kStageStdio = 1;
constexpr int kStageChdir = 2;
constexpr int kStageExec = 3;

std::string_view env_name(std::string_view entry) { return entry.substr(0, entry.find('=')); }

bool is_executable_file(const std::string &path)
{
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string default_path()
{
    size_t n = confstr(_CS_PATH, nullptr, 0);
    if (n == 0) {
        return "/usr/bin:/bin";
    }
    std::string s(n, '\0');
    confstr(_CS_PATH, s.data(), n);
    s.resize(n - 1);
    return s;
}

/* execvp's rules, but done in the parent and with the PATH the child will have. */
int find_program(const std::string &who, const std::string &name, const std::vector<std::string> &env,
                 std::string *out)
{
    if (name.find('/') != std::string::npos) {
        *out = name;
        return TESSERA_SUCCESS;
    }
    std::string path = default_path();
    for (const std::string &e : env) {
        if (env_name(e) == "PATH") {
            path = e.substr(5);
        }
    }
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find(':', start);
        if (end == std::string::npos) {
            end = path.size();
        }
        std::string dir = path.substr(start, end - start);
        std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
        if (is_executable_file(candidate)) {
            *out = candidate;
            return TESSERA_SUCCESS;
        }
        start = end + 1;
    }
    report(Severity::Error, who + ": cannot start '" + name + "': not found in PATH (" + path + ")");
    return TESSERA_ERR_NOT_FOUND;
}

/* Runs in the child between fork and exec: async-signal-safe calls only. */
[[noreturn]] void child_exec(const ExecPlan &plan, pid_t parent, int status_fd, int out_fd, int err_fd)
{
    auto fail = [status_fd](int stage) {
        ChildFailure f{stage, errno};
        ssize_t ignored = write(status_fd, &f, sizeof f);
        (void)ignored;
        _exit(127);
    };

    if (plan.new_session) {
        setsid();
    } else {
        setpgid(0, 0);
    }
    if (plan.parent_death_signal != 0) {
        prctl(PR_SET_PDEATHSIG, plan.parent_death_signal);
        /* The parent may have died before the prctl: then nobody would ever send the signal. */
        if (getppid() != parent) {
            _exit(127);
        }
    }
    /* The launcher may block or ignore signals (mpirun ignores SIGPIPE); a rank starts clean. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) {
        sigaction(sig, &dfl, nullptr);
    }

    if (plan.stdin_fd >= 0) {
        if (dup2(plan.stdin_fd, STDIN_FILENO) < 0) {
            fail(kStageStdio);
        }
    } else if ((plan.flags & MCA_PLM_SPAWN_INHERIT_STDIN) == 0) {
        int null_fd = open("/dev/null", O_RDONLY);
        if (null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0) {
            fail(kStageStdio);
        }
        if (null_fd != STDIN_FILENO) {
            close(null_fd);
        }
    }
    if (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0) {
        fail(kStageStdio);
    }
    if (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0) {
        fail(kStageStdio);
    }
    if (!plan.working_dir.empty() && chdir(plan.working_dir.c_str()) != 0) {
        fail(kStageChdir);
    }
    execve(plan.program.c_str(), plan.argv.data(), plan.envp.data());
    fail(kStageExec);
    _exit(127); /* not reached; fail() does not return */
}

class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }
    int get() const { return fd_; }
    int release()
    {
        int fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset(int fd = -1)
    {
        if (fd_ >= 0) {
            close(fd_);
        }
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

bool make_pipe(Fd *read_end, Fd *write_end)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        return false;
    }
    read_end->reset(fds[0]);
    write_end->reset(fds[1]);
    return true;
}

} // namespace

bool host_is_local(const char *host)
{
    if (host == nullptr || host[0] == '\0') {
        return true;
    }
    std::string_view h(host);
    if (h == "localhost" || h == "127.0.0.1" || h == "::1") {
        return true;
    }
    char name[HOST_NAME_MAX + 1] = {};
    if (gethostname(name, sizeof name - 1) != 0) {
        return false;
    }
    std::string_view self(name);
    /* "node1" and "node1.example.org" name the same host. */
    auto short_name = [](std::string_view s) { return s.substr(0, s.find('.')); };
    return h == self || (short_name(h) == short_name(self) && (h.find('.') == h.npos || self.find('.') == self.npos));
}

int error_code_for_errno(int err)
{
    switch (err) {
    case ENOENT:
    case ENOTDIR:
        return TESSERA_ERR_NOT_FOUND;
    case ENOMEM:
    case EMFILE:
    case ENFILE:
    case EAGAIN:
        return TESSERA_ERR_OUT_OF_RESOURCE;
    default:
        return TESSERA_ERROR;
    }
}

int prepare_exec(const mca_plm_base_proc_spec_t &spec, const std::string &who, ExecPlan *plan)
{
    plan->who = who;
    if (spec.argv == nullptr || spec.argv[0] == nullptr || spec.argv[0][0] == '\0') {
        report(Severity::Error, who + ": cannot start a process without a program (empty argv)");
        return TESSERA_ERR_BAD_PARAM;
    }

    for (const char *const *a = spec.argv; *a != nullptr; ++a) {
        plan->args.emplace_back(*a);
    }
    for (char **e = environ; e != nullptr && *e != nullptr; ++e) {
        plan->env.emplace_back(*e);
    }
    if (spec.env != nullptr) {
        for (const char *const *e = spec.env; *e != nullptr; ++e) {
            std::string_view entry(*e);
            size_t eq = entry.find('=');
            if (eq == std::string_view::npos || eq == 0) {
                report(Severity::Error, who + ": environment entry '" + std::string(entry) + "' for '" +
                                            plan->args[0] + "' is not NAME=value");
                return TESSERA_ERR_BAD_PARAM;
            }
            std::string_view name = entry.substr(0, eq);
            bool replaced = false;
            for (std::string &existing : plan->env) {
                if (env_name(existing) == name) {
                    existing = std::string(entry);
                    replaced = true;
                }
            }
            if (!replaced) {
                plan->env.emplace_back(entry);
            }
        }
    }

    int rc = find_program(who, plan->args[0], plan->env, &plan->program);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    if (spec.working_dir != nullptr) {
        plan->working_dir = spec.working_dir;
    }
    plan->flags = spec.flags;
    if ((spec.flags & MCA_PLM_SPAWN_STDIN_FD) != 0 && spec.stdin_fd >= 0) {
        plan->stdin_fd = spec.stdin_fd;
    }
    if (spec.flags & MCA_PLM_SPAWN_DIE_WITH_LAUNCHER) {
        plan->parent_death_signal = SIGKILL;
    }

    for (std::string &a : plan->args) {
        plan->argv.push_back(a.data());
    }
    plan->argv.push_back(nullptr);
    for (std::string &e : plan->env) {
        plan->envp.push_back(e.data());
    }
    plan->envp.push_back(nullptr);
    return TESSERA_SUCCESS;
}

int fork_exec(const ExecPlan &plan, Started *started)
{
    Fd status_r, status_w, out_r, out_w, err_r, err_w;
    bool ok = make_pipe(&status_r, &status_w);
    if (ok && (plan.flags & MCA_PLM_SPAWN_PIPE_STDOUT)) {
        ok = make_pipe(&out_r, &out_w);
    }
    if (ok && (plan.flags & MCA_PLM_SPAWN_PIPE_STDERR)) {
        ok = make_pipe(&err_r, &err_w);
    }
    if (!ok) {
        int err = errno;
        report(Severity::Error, plan.who + ": cannot start '" + plan.args[0] + "': pipe: " + strerror(err));
        return error_code_for_errno(err);
    }

    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        report(Severity::Error, plan.who + ": cannot start '" + plan.args[0] + "': fork: " + strerror(err));
        return error_code_for_errno(err);
    }
    if (pid == 0) {
        child_exec(plan, parent, status_w.get(), out_w.get(), err_w.get());
    }

    /* Also here: whichever of parent and child runs first, the group exists before anyone signals it.
     * EACCES after the child's exec (or EPERM once it leads its own session) is harmless — the child
     * did it itself. */
    if (!plan.new_session) {
        setpgid(pid, pid);
    }
    status_w.reset();
    out_w.reset();
    err_w.reset();

    ChildFailure failure{};
    ssize_t n;
    do {
        n = read(status_r.get(), &failure, sizeof failure);
    } while (n < 0 && errno == EINTR);
    if (n > 0) {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        const char *what = failure.stage == kStageChdir ? "cannot enter working directory '"
                           : failure.stage == kStageStdio ? "cannot set up stdin/stdout/stderr"
                                                          : "cannot execute '";
        std::string text = plan.who + ": cannot start '" + plan.args[0] + "': " + what;
        if (failure.stage == kStageChdir) {
            text += plan.working_dir + "'";
        } else if (failure.stage == kStageExec) {
            text += plan.program + "'";
        }
        text += std::string(": ") + strerror(failure.error);
        report(Severity::Error, text);
        return error_code_for_errno(failure.error);
    }
    for (Fd *fd : {&out_r, &err_r}) {
        if (fd->get() >= 0) {
            fcntl(fd->get(), F_SETFL, fcntl(fd->get(), F_GETFL) | O_NONBLOCK);
        }
    }
    started->pid = pid;
    started->stdout_fd = out_r.release();
    started->stderr_fd = err_r.release();
    return TESSERA_SUCCESS;
}

} // namespace tessera::orte::plm
