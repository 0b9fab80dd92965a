/* tessera_launch_agent: watching the program once it runs. */
#ifndef TESSERA_TOOLS_LAUNCH_AGENT_SUPERVISOR_H
#define TESSERA_TOOLS_LAUNCH_AGENT_SUPERVISOR_H

#include <sys/types.h>

#include <string>

#include "frameworks/plm/base/plm_base_agent_protocol.h"

namespace tessera::orte::launch_agent {

struct Program {
    pid_t pid = -1;     /* also its process group id */
    int stdout_fd = -1; /* read ends of its output pipes (non-blocking), relayed to ours */
    int stderr_fd = -1;
    int stdin_fd = -1;  /* write end of its stdin pipe (non-blocking), fed by input records, or -1 */
    std::string name;   /* argv[0], for messages */
};

/*
 * Runs until the program is over, then returns the agent's exit status. Meanwhile: relays the
 * program's stdout and stderr to the agent's; sends the signals that arrive as records on the channel
 * (fd 0, with `decoder` holding what was read past the spec) to the program's process group; writes
 * the input records to the program's stdin (reading no more of the channel while kMaxPendingInput
 * bytes wait for the program) and closes it at input-end; and on
 * end-of-file or garbage on the channel, or SIGTERM/SIGHUP/SIGINT to the agent, stops the program:
 * SIGTERM to its group, SIGKILL after `grace` seconds. When the program exits, what is left of its
 * group gets the same treatment (a leftover holding the output pipes would keep the ssh session open).
 * Expects SIGCHLD, SIGTERM, SIGHUP and SIGINT blocked and the agent to be a child subreaper.
 * Exit status: the program's, or 128+N when signal N ended it.
 */
int supervise(const Program &program, plm::agent::Decoder *decoder, double grace, const std::string &who);

} // namespace tessera::orte::launch_agent

#endif
