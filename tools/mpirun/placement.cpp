#include "placement.h"

#include <algorithm>
#include <climits>

#include "opal/binding.h"

namespace tessera::mpirun {

int total_slots(const std::vector<Host> &hosts)
{
    long long total = 0;
    for (const Host &h : hosts) {
        total += h.slots;
    }
    return total > INT_MAX ? INT_MAX : static_cast<int>(total);
}

namespace {

std::string slots_per_host(const std::vector<Host> &hosts, const std::vector<int> &which)
{
    std::string text;
    for (int h : which) {
        const Host &host = hosts[static_cast<size_t>(h)];
        text += (text.empty() ? "" : ", ") + host.name + ": " + std::to_string(host.slots);
    }
    return text;
}

} // namespace

std::optional<std::vector<RankPlacement>> place_apps(const std::vector<Host> &hosts,
                                                     const std::vector<AppRequest> &apps,
                                                     const PlaceOptions &options, std::string *error)
{
    if (hosts.empty() || total_slots(hosts) < 1) {
        *error = "no host to run on";
        return std::nullopt;
    }
    std::vector<int> capacity(hosts.size());
    for (size_t h = 0; h < hosts.size(); ++h) {
        capacity[h] = options.per_node ? *options.per_node : hosts[h].slots;
    }
    std::vector<int> used(hosts.size(), 0);
    std::vector<RankPlacement> ranks;
    for (size_t a = 0; a < apps.size(); ++a) {
        std::vector<int> mine = apps[a].hosts;
        if (mine.empty()) {
            for (size_t h = 0; h < hosts.size(); ++h) {
                mine.push_back(static_cast<int>(h));
            }
        }
        long long free = 0;
        for (int h : mine) {
            free += std::max(0, capacity[static_cast<size_t>(h)] - used[static_cast<size_t>(h)]);
        }
        const std::string which = apps.size() > 1 ? " for application context " + std::to_string(a + 1) : "";
        const long long np = apps[a].np ? *apps[a].np : free;
        if (np < 1) {
            *error = "no free slot left" + which + " (" + slots_per_host(hosts, mine) +
                     "); give it -np, or more slots with --host name:slots or --hostfile";
            return std::nullopt;
        }
        if (np > free && (options.per_node || !options.oversubscribe)) {
            if (options.per_node) {
                *error = std::to_string(np) + " ranks requested" + which + " but " + std::to_string(*options.per_node) +
                         " per host on " + std::to_string(mine.size()) + " host" + (mine.size() == 1 ? "" : "s") +
                         " leave room for " + std::to_string(free);
            } else {
                *error = std::to_string(np) + " ranks requested" + which + " but only " + std::to_string(free) +
                         " slot" + (free == 1 ? "" : "s") + " available (" + slots_per_host(hosts, mine) +
                         "); add --oversubscribe to run more ranks than slots, or give more slots with --host "
                         "name:slots or --hostfile";
            }
            return std::nullopt;
        }
        /* The context's slots in order, each host repeated by its capacity: where ranks beyond the
         * slots go round again. */
        std::vector<int> slot_host;
        for (int h : mine) {
            slot_host.insert(slot_host.end(), static_cast<size_t>(capacity[static_cast<size_t>(h)]), h);
        }
        size_t next_node = 0, overflow = 0;
        for (long long k = 0; k < np; ++k) {
            int chosen = -1;
            if (options.map_by == MapBy::Node && !options.per_node) {
                for (size_t step = 0; step < mine.size() && chosen < 0; ++step) {
                    const int h = mine[(next_node + step) % mine.size()];
                    if (used[static_cast<size_t>(h)] < capacity[static_cast<size_t>(h)]) {
                        chosen = h;
                        next_node = (next_node + step + 1) % mine.size();
                    }
                }
                if (chosen < 0) {
                    chosen = mine[next_node];
                    next_node = (next_node + 1) % mine.size();
                }
            } else {
                for (int h : mine) {
                    if (used[static_cast<size_t>(h)] < capacity[static_cast<size_t>(h)]) {
                        chosen = h;
                        break;
                    }
                }
                if (chosen < 0) {
                    chosen = slot_host[overflow++ % slot_host.size()];
                }
            }
            ++used[static_cast<size_t>(chosen)];
            RankPlacement p;
            p.rank = static_cast<int>(ranks.size());
            p.app = static_cast<int>(a);
            p.host = chosen;
            ranks.push_back(p);
        }
    }

    std::vector<int> on_host(hosts.size(), 0);
    for (RankPlacement &p : ranks) {
        p.local_rank = on_host[static_cast<size_t>(p.host)]++;
    }
    std::vector<int> node_of_host(hosts.size(), -1);
    int nodes = 0;
    for (RankPlacement &p : ranks) {
        int &node = node_of_host[static_cast<size_t>(p.host)];
        if (node < 0) {
            node = nodes++;
        }
        p.node_id = node;
        p.local_size = on_host[static_cast<size_t>(p.host)];
        if (options.bind == BindTo::Core) {
            tessera::opal::CoreInfo core = tessera::opal::core_for_local_rank(p.local_rank);
            p.core = core.core;
            p.bind = tessera::opal::format_pu_list(core.pus);
        }
    }
    return ranks;
}

std::optional<std::vector<RankPlacement>> place_ranks(const std::vector<Host> &hosts, int np, bool oversubscribe,
                                                      BindTo bind, std::string *error)
{
    PlaceOptions options;
    options.oversubscribe = oversubscribe;
    options.bind = bind;
    return place_apps(hosts, {AppRequest{np, {}}}, options, error);
}

std::string describe_placement(const RankPlacement &p, const std::vector<Host> &hosts, const std::string &program)
{
    return "rank " + std::to_string(p.rank) + " on host " + hosts[static_cast<size_t>(p.host)].name +
           " (local rank " + std::to_string(p.local_rank) + " of " + std::to_string(p.local_size) +
           "), application context " + std::to_string(p.app) + ": " + program;
}

std::string describe_binding(const RankPlacement &p, const std::vector<Host> &hosts)
{
    std::string text = "rank " + std::to_string(p.rank);
    if (hosts.size() > 1) {
        text += " on host " + hosts[static_cast<size_t>(p.host)].name;
    }
    if (p.core < 0) {
        return text + " not bound";
    }
    return text + " bound to core " + std::to_string(p.core) + " (PUs " + p.bind + ")";
}

} // namespace tessera::mpirun
