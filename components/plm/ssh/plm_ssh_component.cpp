/* plm ssh: registration, open and query. Its priority is below fork's, so that a job on this host
 * alone is started by fork; mpirun picks ssh by name when some host is another machine. */
#include <cmath>
#include <iterator>
#include <memory>
#include <string>

#include "components/plm/ssh/plm_ssh.h"
#include "components/plm/ssh/plm_ssh_agent_command.h"
#include "components/plm/ssh/plm_ssh_launcher.h"
#include "mca/report.h"
#include "mca/var.h"
#include "opal/install_dirs.h"

namespace tessera::orte::plm_ssh {

constexpr const char *kDefaultAgent = "ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new";

const char *agent_command = kDefaultAgent;
const char *remote_agent_path = "";
double kill_grace = 1.0;
double start_timeout = 120.0;
double wait_slice = 0.1;
double input_retry = 0.01;

namespace {

constexpr int kPriority = 5;

Settings settings;
/* The module handed out by query; the Launcher behind it lives until close. */
constinit plm::LauncherModule module(&mca_plm_ssh_component);

void bad_value(const char *name, const std::string &value, const std::string &why)
{
    tessera::mca::report(tessera::mca::Severity::Error, tessera::mca::bad_value(name, "'" + value + "'", why));
}

int register_params(const mca_base_component_t *)
{
    agent_command = kDefaultAgent;
    remote_agent_path = "";
    kill_grace = 1.0;
    start_timeout = 120.0;
    int rc = mca_var_register("plm", "ssh", "agent",
                              "Command that runs a program on another host, followed by the host and the "
                              "command; split into words like a shell does (quotes and backslashes, no "
                              "expansions)",
                              MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_2, MCA_VAR_SCOPE_LOCAL,
                              MCA_VAR_FLAG_NONE, &agent_command);
    if (rc >= 0) {
        rc = mca_var_register("plm", "ssh", "remote_agent_path",
                              "Path of tessera_launch_agent on the other hosts; empty: the same path as "
                              "in this installation (<prefix>/bin/tessera_launch_agent)",
                              MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL,
                              MCA_VAR_FLAG_NONE, &remote_agent_path);
    }
    if (rc < 0) {
        return rc;
    }
    /* Rows with their ranges, so that mpirun refuses a bad value before it starts any rank. */
    const mca_var_row_t rows[] = {
        {"kill_grace", MCA_VAR_TYPE_DOUBLE, "1", "0", nullptr,
         "Seconds a process is given to exit after SIGTERM when the job is torn down, before SIGKILL (applied "
         "by the launch agent on the remote host)",
         MCA_INFO_LVL_5, nullptr, &kill_grace},
        {"start_timeout", MCA_VAR_TYPE_DOUBLE, "120", "0.001", nullptr,
         "Seconds a remote start may take, from running the agent command until the launch agent reports the "
         "program started; beyond, that rank cannot be started",
         MCA_INFO_LVL_4, nullptr, &start_timeout},
        /* At most 0.1: plm.h promises the caller a call at least every 100 ms. */
        {"wait_slice", MCA_VAR_TYPE_DOUBLE, "0.1", "0.001", "0.1",
         "Seconds between two calls of the caller's while_waiting during a remote start (mpirun serves its "
         "signals, its wire-up service and the output then); smaller answers sooner and costs more wake-ups",
         MCA_INFO_LVL_6, nullptr, &wait_slice},
        {"input_retry", MCA_VAR_TYPE_DOUBLE, "0.01", "0.001", "1",
         "Seconds between two tries to send stdin to a remote rank whose launch agent channel is full (the "
         "rank reads slower than its input comes); smaller follows a slow reader more closely, with more wake-ups",
         MCA_INFO_LVL_6, nullptr, &input_retry},
    };
    return mca_var_register_rows("plm", "ssh", rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

int open_component()
{
    Settings s;
    std::string error;
    const std::string agent_text = agent_command != nullptr ? agent_command : "";
    auto words = split_command(agent_text, &error);
    if (!words) {
        bad_value("plm_ssh_agent", agent_text, "cannot be split into words: " + error);
        return TESSERA_ERR_BAD_PARAM;
    }
    if (words->empty()) {
        bad_value("plm_ssh_agent", agent_text, "names no command");
        return TESSERA_ERR_BAD_PARAM;
    }
    s.agent_words = std::move(*words);

    s.remote_agent_path = remote_agent_path != nullptr ? remote_agent_path : "";
    if (s.remote_agent_path.empty()) {
        s.remote_agent_path = tessera::opal::install_dirs().bindir + "/tessera_launch_agent";
    }

    if (!std::isfinite(kill_grace) || kill_grace < 0.0) {
        bad_value("plm_ssh_kill_grace", std::to_string(kill_grace), "is not a number of seconds >= 0");
        return TESSERA_ERR_BAD_PARAM;
    }
    s.kill_grace = kill_grace;
    if (!std::isfinite(start_timeout) || start_timeout <= 0.0) {
        bad_value("plm_ssh_start_timeout", std::to_string(start_timeout), "is not a number of seconds > 0");
        return TESSERA_ERR_BAD_PARAM;
    }
    s.start_timeout = start_timeout;
    s.wait_slice = wait_slice;
    s.input_retry = input_retry;
    settings = std::move(s);
    return TESSERA_SUCCESS;
}

int close_component()
{
    module.close();
    return TESSERA_SUCCESS;
}

int query(void **out_module, int *priority)
{
    return module.query([] { return std::make_unique<Launcher>(settings); }, kPriority, out_module, priority);
}

} // namespace
} // namespace tessera::orte::plm_ssh

using namespace tessera::orte::plm_ssh;

mca_plm_base_component_t mca_plm_ssh_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_plm_base_component_t, "plm", MCA_PLM_BASE_VERSION, "ssh", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = open_component,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .reserved = {},
};
