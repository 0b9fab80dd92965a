/* plm ssh: standard input for programs on other hosts. The caller's stdin pipe of such a program
 * (MCA_PLM_SPAWN_STDIN_FD) is read by one thread and sent, as input records, through the launch agent's
 * channel; the agent writes them to a pipe that is the program's stdin. The thread reads a pipe only
 * when the channel took everything read from it before, so a full channel stops the reading, the pipe
 * fills, and the caller (mpirun) stops reading its own stdin: bounded memory all the way. */
#ifndef TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_INPUT_H
#define TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_INPUT_H

#include <sys/types.h>

#include <mutex>
#include <string>
#include <vector>

#include "components/plm/ssh/plm_ssh_wake_thread.h"
#include "frameworks/plm/base/plm_base_children.h"

namespace tessera::orte::plm_ssh {

class InputRelay {
public:
    /* retry_ms: how often a record the channel had no room for is tried again (plm_ssh_input_retry). */
    InputRelay(plm::ChildTable &children, int retry_ms) : children_(children), retry_ms_(retry_ms) {}
    InputRelay(const InputRelay &) = delete;
    InputRelay &operator=(const InputRelay &) = delete;
    /* Stops at once: the job is over, what was not sent is nobody's input any more. */
    ~InputRelay();

    /* Sends what arrives on `from` (owned from here on) to the agent of child `pid`, then input-end.
     * False when the relay thread cannot be started. */
    bool add(pid_t pid, int from);

private:
    struct Stream {
        pid_t pid = -1;
        int fd = -1;
        std::string record; /* read, not yet taken by the channel */
        bool waiting = false; /* the channel is full: retry, do not read */
        bool ending = false;  /* record is the input-end */
    };

    void run();
    /* Hands the stream's record to the channel; false when the stream is over. */
    bool push(Stream &s);

    plm::ChildTable &children_;
    const int retry_ms_;
    std::mutex mutex_;
    std::vector<Stream> pending_;
    WakeThread thread_;
};

} // namespace tessera::orte::plm_ssh

#endif
