/* plm ssh: copying an ssh client's stdout to the launcher's own, for callers that did not ask for a
 * stdout pipe. The launch agent's status line arrives on that stream first, so plm ssh always reads the
 * ssh client's stdout itself; what follows is the program's output, which this relay passes on. */
#ifndef TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_RELAY_H
#define TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_RELAY_H

#include <mutex>
#include <utility>
#include <vector>

#include "components/plm/ssh/plm_ssh_wake_thread.h"

namespace tessera::orte::plm_ssh {

class OutputRelay {
public:
    OutputRelay() = default;
    OutputRelay(const OutputRelay &) = delete;
    OutputRelay &operator=(const OutputRelay &) = delete;
    /* Passes on what is still in flight (until end-of-file, at most kDrainSeconds), then stops. */
    ~OutputRelay();

    /* Copies from `from` (owned from here on; non-blocking) to `to` until end-of-file. Starts the
     * relay thread on first use. Returns false when the thread or its wake-up pipe cannot be made. */
    bool add(int from, int to);

    static constexpr double kDrainSeconds = 1.0;

private:
    void run();

    std::mutex mutex_;
    std::vector<std::pair<int, int>> pending_; /* handed over by add(), picked up by the thread */
    WakeThread thread_;
};

} // namespace tessera::orte::plm_ssh

#endif
