// Test support: whether a process has ended, seen from outside (it need not be the test's child).
#ifndef TESSERA_TESTS_SUPPORT_PROCESS_GONE_H
#define TESSERA_TESTS_SUPPORT_PROCESS_GONE_H

#include <sys/types.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

namespace testsupport {

// A process that is gone (or a zombie nobody reaps, as under a container's init) counts as ended.
inline bool process_gone(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) {
        return true;
    }
    std::string line;
    std::getline(stat, line);
    size_t paren = line.rfind(')');
    return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z';
}

// Whether the process ends within `seconds`.
inline bool gone_within(pid_t pid, double seconds)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!process_gone(pid)) {
        if (std::chrono::steady_clock::now() > deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

} // namespace testsupport

#endif
