#include "hosts.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <fstream>
#include <sstream>

#include "opal/binding.h"

namespace tessera::mpirun {
namespace {

std::optional<int> parse_slots(std::string_view text)
{
    int value = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || p != text.data() + text.size() || value < 1) {
        return std::nullopt;
    }
    return value;
}

bool valid_host_name(std::string_view name)
{
    if (name.empty()) {
        return false;
    }
    for (char c : name) {
        if (c <= ' ' || c == ':' || c == ',' || c == '=' || c == '#' || c == '/') {
            return false;
        }
    }
    return true;
}

std::string this_host_name()
{
    char buf[HOST_NAME_MAX + 1] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) {
        return "";
    }
    return buf;
}

std::string short_name(const std::string &name)
{
    return name.substr(0, name.find('.'));
}

/* Exact match with an address of one of this machine's interfaces (127.0.0.1 is lo's; 127.0.0.2 is
 * routed to lo but belongs to no interface, which is what lets tests use it as another host). */
bool is_interface_address(const std::string &name)
{
    in_addr v4{};
    in6_addr v6{};
    const bool is_v4 = inet_pton(AF_INET, name.c_str(), &v4) == 1;
    const bool is_v6 = !is_v4 && inet_pton(AF_INET6, name.c_str(), &v6) == 1;
    if (!is_v4 && !is_v6) {
        return false;
    }
    ifaddrs *list = nullptr;
    if (getifaddrs(&list) != 0) {
        return false;
    }
    bool found = false;
    for (ifaddrs *ifa = list; ifa != nullptr && !found; ifa = ifa->ifa_next) {
        if (ifa->ifa_addr == nullptr) {
            continue;
        }
        if (is_v4 && ifa->ifa_addr->sa_family == AF_INET) {
            found = reinterpret_cast<sockaddr_in *>(ifa->ifa_addr)->sin_addr.s_addr == v4.s_addr;
        } else if (is_v6 && ifa->ifa_addr->sa_family == AF_INET6) {
            found = std::memcmp(&reinterpret_cast<sockaddr_in6 *>(ifa->ifa_addr)->sin6_addr, &v6, sizeof v6) == 0;
        }
    }
    freeifaddrs(list);
    return found;
}

} // namespace

std::optional<std::vector<Host>> parse_host_list(const std::string &text, std::string *error)
{
    std::vector<Host> hosts;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        Host h;
        const size_t colon = item.find(':');
        h.name = item.substr(0, colon);
        if (!valid_host_name(h.name)) {
            *error = "--host: '" + item + "' is not a host name (expected name or name:slots)";
            return std::nullopt;
        }
        if (colon != std::string::npos) {
            auto slots = parse_slots(std::string_view(item).substr(colon + 1));
            if (!slots) {
                *error = "--host: '" + item + "': slots must be a number >= 1";
                return std::nullopt;
            }
            h.slots = *slots;
        }
        hosts.push_back(std::move(h));
    }
    if (hosts.empty() || text.back() == ',') {
        *error = "--host: '" + text + "' has an empty entry";
        return std::nullopt;
    }
    return hosts;
}

std::optional<std::vector<Host>> parse_hostfile_text(const std::string &text, const std::string &origin,
                                                     std::string *error)
{
    std::vector<Host> hosts;
    std::stringstream in(text);
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        const std::string where = origin + ":" + std::to_string(line_no);
        if (const size_t hash = line.find('#'); hash != std::string::npos) {
            line.resize(hash);
        }
        std::stringstream words(line);
        std::string name;
        if (!(words >> name)) {
            continue; /* blank or comment */
        }
        Host h;
        h.name = name;
        if (!valid_host_name(name)) {
            *error = where + ": '" + name + "' is not a host name";
            return std::nullopt;
        }
        std::string word;
        bool slots_seen = false;
        while (words >> word) {
            if (word.rfind("slots=", 0) != 0 || slots_seen) {
                *error = where + ": unexpected '" + word + "' (expected \"host [slots=N]\")";
                return std::nullopt;
            }
            auto slots = parse_slots(std::string_view(word).substr(6));
            if (!slots) {
                *error = where + ": '" + word + "': slots must be a number >= 1";
                return std::nullopt;
            }
            h.slots = *slots;
            slots_seen = true;
        }
        hosts.push_back(std::move(h));
    }
    if (hosts.empty()) {
        *error = origin + ": names no host";
        return std::nullopt;
    }
    return hosts;
}

std::optional<std::vector<Host>> parse_hostfile(const std::string &path, std::string *error)
{
    std::ifstream in(path);
    if (!in) {
        *error = "--hostfile: cannot read " + path + ": " + std::strerror(errno);
        return std::nullopt;
    }
    std::stringstream text;
    text << in.rdbuf();
    return parse_hostfile_text(text.str(), path, error);
}

bool is_local_host(const std::string &name)
{
    if (name == "localhost" || name == "127.0.0.1" || name == "::1") {
        return true;
    }
    const std::string self = this_host_name();
    if (!self.empty()) {
        if (name == self) {
            return true;
        }
        /* "node1" names "node1.example.org" and back; never compare two different full names. */
        const bool one_is_short = name.find('.') == std::string::npos || self.find('.') == std::string::npos;
        if (one_is_short && short_name(name) == short_name(self) && !std::isdigit(static_cast<unsigned char>(name[0]))) {
            return true;
        }
    }
    return is_interface_address(name);
}

std::vector<Host> merge_hosts(const std::vector<Host> &hosts)
{
    std::vector<Host> merged;
    int first_local = -1;
    for (const Host &h : hosts) {
        const bool local = is_local_host(h.name);
        Host *into = nullptr;
        if (local && first_local >= 0) {
            into = &merged[static_cast<size_t>(first_local)];
        } else {
            for (Host &m : merged) {
                if (m.name == h.name) {
                    into = &m;
                    break;
                }
            }
        }
        if (into != nullptr) {
            into->slots = into->slots > INT_MAX - h.slots ? INT_MAX : into->slots + h.slots;
            continue;
        }
        merged.push_back(h);
        merged.back().local = local;
        if (local) {
            first_local = static_cast<int>(merged.size()) - 1;
        }
    }
    return merged;
}

std::optional<std::vector<Host>> hosts_from_options(const Options &options, std::string *error)
{
    std::vector<Host> hosts;
    if (options.hostfile) {
        auto from_file = parse_hostfile(*options.hostfile, error);
        if (!from_file) {
            return std::nullopt;
        }
        hosts = std::move(*from_file);
    }
    std::vector<std::string> lists = options.host_lists;
    for (const AppContext &app : options.apps) {
        lists.insert(lists.end(), app.host_lists.begin(), app.host_lists.end());
    }
    for (const std::string &list : lists) {
        auto parsed = parse_host_list(list, error);
        if (!parsed) {
            return std::nullopt;
        }
        hosts.insert(hosts.end(), parsed->begin(), parsed->end());
    }
    if (hosts.empty()) {
        hosts.push_back({"localhost", tessera::opal::core_count(), true});
    }
    return merge_hosts(hosts);
}

std::optional<std::vector<int>> host_indices(const std::vector<std::string> &lists, const std::vector<Host> &job_hosts,
                                             std::string *error)
{
    std::vector<bool> named(job_hosts.size(), false);
    for (const std::string &list : lists) {
        auto parsed = parse_host_list(list, error);
        if (!parsed) {
            return std::nullopt;
        }
        for (const Host &h : *parsed) {
            const bool local = is_local_host(h.name);
            for (size_t j = 0; j < job_hosts.size(); ++j) {
                if (local ? job_hosts[j].local : job_hosts[j].name == h.name) {
                    named[j] = true;
                    break;
                }
            }
        }
    }
    std::vector<int> out;
    for (size_t j = 0; j < named.size(); ++j) {
        if (named[j]) {
            out.push_back(static_cast<int>(j));
        }
    }
    return out;
}

} // namespace tessera::mpirun
