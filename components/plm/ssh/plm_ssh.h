/*
 * plm ssh: internal declarations shared by the component's files.
 *
 * plm ssh starts a process on another host by running, locally and in a session of its own,
 *     <plm_ssh_agent words...> <host> <plm_ssh_remote_agent_path>
 * and writing the launch spec (argv, environment additions, working directory) to that command's
 * stdin, where tessera_launch_agent reads it on the other side (frameworks/plm/base/
 * plm_base_agent_protocol.h). The environment — the job key — is never on a command line, local or
 * remote. A local host (plm_base_exec.h: host_is_local) is started directly, as plm fork does.
 *
 * What the caller sees for a remote child: `id` is the local ssh client (its pid and process group);
 * stdout/stderr are the program's, as far as ssh carries them; its stdin is /dev/null, or with
 * MCA_PLM_SPAWN_STDIN_FD what arrives on the caller's descriptor, carried as input records through the
 * agent's channel (plm_ssh_input.h; MCA_PLM_SPAWN_INHERIT_STDIN is not honoured across hosts); signals are forwarded to the program's
 * process group by the agent (SIGKILL also kills the ssh client); terminate_all closes the channel, the
 * agent stops the program (SIGTERM, SIGKILL after plm_ssh_kill_grace), and the ssh client is killed if
 * it has not ended kill_grace + 2 s later. The exit reported is the ssh client's: the program's exit
 * code; 128+N when signal N killed the program (the agent also says so on the program's stderr); 255
 * when ssh itself failed (connection lost). Without a working directory in the spec, the program starts
 * in the launcher's directory when the other host has it, else in the remote home directory.
 * spawn() returns once the agent reports the program exec'd (or why it could not be): it waits for the
 * ssh connection, at most plm_ssh_start_timeout seconds, and calls the spec's while_waiting meanwhile.
 */
#ifndef TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_H
#define TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_H

#include <string>
#include <vector>

#include "frameworks/plm/plm.h"

extern "C" mca_plm_base_component_t mca_plm_ssh_component;

namespace tessera::orte::plm_ssh {

/* The parameters (plm_ssh_*), as registered. */
extern const char *agent_command;     /* plm_ssh_agent: the command, split like a shell does */
extern const char *remote_agent_path; /* plm_ssh_remote_agent_path: "" means this install's bindir */
extern double kill_grace;             /* plm_ssh_kill_grace */
extern double start_timeout;          /* plm_ssh_start_timeout */
extern double wait_slice;             /* plm_ssh_wait_slice */
extern double input_retry;            /* plm_ssh_input_retry */

/* What the launcher works with: checked and fixed when the component is opened. */
struct Settings {
    std::vector<std::string> agent_words;
    std::string remote_agent_path;
    double kill_grace = 1.0;
    double start_timeout = 120.0; /* seconds spawn() waits for the launch agent's status line */
    double wait_slice = 0.1;      /* seconds between two calls of the spec's while_waiting */
    double input_retry = 0.01;    /* seconds between two tries of a full agent channel (stdin) */
};

} // namespace tessera::orte::plm_ssh

#endif
