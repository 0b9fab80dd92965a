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

std::optional<std::vector<RankPlacement>> place_ranks(const std::vector<Host> &hosts, int np, bool oversubscribe,
                                                      BindTo bind, std::string *error)
{
    const int slots = total_slots(hosts);
    if (hosts.empty() || slots < 1) {
        *error = "no host to run on";
        return std::nullopt;
    }
    if (np > slots && !oversubscribe) {
        std::string per_host;
        for (const Host &h : hosts) {
            per_host += (per_host.empty() ? "" : ", ") + h.name + ": " + std::to_string(h.slots);
        }
        *error = std::to_string(np) + " ranks requested but only " + std::to_string(slots) + " slot" +
                 (slots == 1 ? "" : "s") + " available (" + per_host +
                 "); add --oversubscribe to run more ranks than slots, or give more slots with --host "
                 "name:slots or --hostfile";
        return std::nullopt;
    }

    /* Slot s (0-based over the hosts in order) belongs to the host whose slot range contains it. */
    std::vector<int> slot_host;
    slot_host.reserve(static_cast<size_t>(std::min(slots, np)));
    for (size_t h = 0; h < hosts.size() && static_cast<int>(slot_host.size()) < np; ++h) {
        for (int k = 0; k < hosts[h].slots && static_cast<int>(slot_host.size()) < np; ++k) {
            slot_host.push_back(static_cast<int>(h));
        }
    }

    std::vector<RankPlacement> ranks(static_cast<size_t>(np));
    std::vector<int> on_host(hosts.size(), 0);
    for (int r = 0; r < np; ++r) {
        RankPlacement &p = ranks[static_cast<size_t>(r)];
        p.rank = r;
        p.host = slot_host[static_cast<size_t>(r) % slot_host.size()];
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
        if (bind == BindTo::Core) {
            tessera::opal::CoreInfo core = tessera::opal::core_for_local_rank(p.local_rank);
            p.core = core.core;
            p.bind = tessera::opal::format_pu_list(core.pus);
        }
    }
    return ranks;
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
