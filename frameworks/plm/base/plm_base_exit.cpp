#include <cstring>
#include <string>

#include "frameworks/plm/base/base.h"

namespace tessera::orte::plm {

std::string describe_exit(const mca_plm_base_exit_t &exit)
{
    if (exit.signaled) {
        std::string text = "signal " + std::to_string(exit.signal);
        if (const char *name = strsignal(exit.signal); name != nullptr) {
            text += std::string(" (") + name + ")";
        }
        if (exit.core_dumped) {
            text += ", core dumped";
        }
        return text;
    }
    if (exit.exited) {
        return "exit code " + std::to_string(exit.code);
    }
    return "unknown status";
}

} // namespace tessera::orte::plm
