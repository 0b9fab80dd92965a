#include "components/trace/monitor/trace_monitor_dump.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "mca/constants.h"
#include "mca/report.h"

namespace tessera::ompi::trace_monitor {

std::string format_report(const Report &r)
{
    std::ostringstream out;
    out << "# tessera trace monitor: messages and bytes sent by world rank " << r.world_rank << " of "
        << r.world_size << " (job " << r.jobid;
    if (!r.hostname.empty()) {
        out << ", host " << r.hostname;
    }
    out << ")\n";
    out << "# comm <comm_id> <peer> <world_peer> <messages> <bytes> <comm_name>\n";
    std::map<int, Totals> world;
    for (const auto &[key, totals] : r.sent) {
        int world_peer = -1;
        std::string name;
        if (auto it = r.comms.find(key.comm_id); it != r.comms.end()) {
            name = it->second.name;
            const std::vector<int> &map = it->second.world_ranks;
            if (key.peer >= 0 && static_cast<size_t>(key.peer) < map.size()) {
                world_peer = map[static_cast<size_t>(key.peer)];
            }
        }
        out << "comm " << key.comm_id << ' ' << key.peer << ' ' << world_peer << ' ' << totals.messages << ' '
            << totals.bytes << ' ' << (name.empty() ? "-" : name) << '\n';
        if (world_peer >= 0) {
            world[world_peer].messages += totals.messages;
            world[world_peer].bytes += totals.bytes;
        }
    }
    out << "# world <world_peer> <messages> <bytes>\n";
    for (const auto &[peer, totals] : world) {
        out << "world " << peer << ' ' << totals.messages << ' ' << totals.bytes << '\n';
    }
    return out.str();
}

std::string output_path(const std::string &pattern, int world_rank, int world_size)
{
    if (pattern.empty()) {
        return pattern;
    }
    std::string path;
    bool substituted = false;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'r') {
            path += std::to_string(world_rank);
            substituted = true;
            ++i;
        } else {
            path += pattern[i];
        }
    }
    if (!substituted && world_size > 1) {
        path += "." + std::to_string(world_rank);
    }
    return path;
}

int write_report(const std::string &path, const std::string &text)
{
    if (path.empty()) {
        std::fwrite(text.data(), 1, text.size(), stderr);
        std::fflush(stderr);
        return TESSERA_SUCCESS;
    }
    FILE *f = std::fopen(path.c_str(), "w");
    int err = errno;
    bool ok = f != nullptr && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f != nullptr) {
        if (!ok) {
            err = errno;
        }
        if (std::fclose(f) != 0 && ok) {
            ok = false;
            err = errno;
        }
    }
    if (!ok) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "trace monitor: cannot write the counts to '" + path + "' (trace_monitor_filename): " +
                                 std::strerror(err));
        return TESSERA_ERR_IO;
    }
    return TESSERA_SUCCESS;
}

} // namespace tessera::ompi::trace_monitor
