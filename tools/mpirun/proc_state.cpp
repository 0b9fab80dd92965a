#include "proc_state.h"

#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <string>

namespace tessera::mpirun {
namespace {

/* include/linux/sched.h: set by do_exit() before the process's files (its sockets) are closed. */
constexpr unsigned long kPfExiting = 0x4;

} // namespace

bool stat_says_dying(std::string_view stat)
{
    /* "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": comm may hold spaces and ')'. */
    const size_t close = stat.rfind(')');
    if (close == std::string_view::npos) {
        return false;
    }
    std::string_view rest = stat.substr(close + 1);
    std::string_view fields[7];
    for (std::string_view &f : fields) {
        const size_t begin = rest.find_first_not_of(' ');
        if (begin == std::string_view::npos) {
            return false;
        }
        rest.remove_prefix(begin);
        const size_t end = rest.find(' ');
        f = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
    }
    const std::string_view state = fields[0], flags = fields[6];
    if (state == "Z" || state == "X" || state == "x") {
        return true;
    }
    unsigned long value = 0;
    const auto [ptr, ec] = std::from_chars(flags.data(), flags.data() + flags.size(), value);
    return ec == std::errc() && ptr == flags.data() + flags.size() && (value & kPfExiting) != 0;
}

bool process_dying(int64_t pid)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/stat";
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    char buf[1024];
    const ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    return n > 0 && stat_says_dying(std::string_view(buf, static_cast<size_t>(n)));
}

} // namespace tessera::mpirun
