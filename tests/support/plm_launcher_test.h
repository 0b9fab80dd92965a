// Test support for the plm launchers (fork, ssh): the fixture of a launcher's test suite. The suite's
// launcher is opened and selected through the MCA core as mpirun does; every test leaves no child behind.
#ifndef TESSERA_TESTS_SUPPORT_PLM_LAUNCHER_TEST_H
#define TESSERA_TESTS_SUPPORT_PLM_LAUNCHER_TEST_H

#include <gtest/gtest.h>

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/plm/base/base.h"
#include "mca/report.h"
#include "mca/var_store.h"

namespace testsupport {

class PlmLauncherTest : public ::testing::Test {
protected:
    // For the suite's SetUpTestSuite: sets the parameters (name, value) on the command line, opens the
    // plm framework and selects its launcher into `plm`.
    static void open_launcher(const std::vector<std::pair<const char *, const char *>> &params)
    {
        for (const auto &[name, value] : params) {
            tessera::mca::set_command_line(name, value);
        }
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

    // Spawns argv on `host` (NULL: this host) and expects `expect` from the launcher.
    static mca_plm_base_child_t spawn(const char *host, std::vector<const char *> argv, uint32_t flags = 0,
                                      std::vector<const char *> env = {}, const char *dir = nullptr,
                                      int expect = TESSERA_SUCCESS)
    {
        argv.push_back(nullptr);
        if (!env.empty()) {
            env.push_back(nullptr);
        }
        mca_plm_base_proc_spec_t spec{};
        spec.host = host;
        spec.argv = argv.data();
        spec.env = env.empty() ? nullptr : env.data();
        spec.working_dir = dir;
        spec.flags = flags;
        mca_plm_base_child_t child{};
        child.stdout_fd = child.stderr_fd = child.exit_fd = -1;
        EXPECT_EQ(plm->plm_spawn(plm, &spec, &child), expect)
            << argv[0] << (host != nullptr ? std::string(" on ") + host : std::string());
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
        using Clock = std::chrono::steady_clock;
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

    static inline mca_plm_base_module_t *plm = nullptr;
    static inline const mca_plm_base_component_t *plm_component = nullptr;
};

} // namespace testsupport

#endif
