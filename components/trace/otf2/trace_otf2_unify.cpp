#include "components/trace/otf2/trace_otf2_unify.h"

#include <utility>

namespace tessera::ompi::trace_otf2 {

Unified unify(const std::vector<RankSummary> &ranks)
{
    Unified u;
    std::map<uint32_t, std::string> functions;
    for (const RankSummary &s : ranks) {
        for (const auto &[index, name] : s.regions) {
            functions.emplace(index, name);
        }
    }
    for (const auto &[index, name] : functions) {
        u.region_of_function[index] = static_cast<uint32_t>(u.regions.size());
        u.regions.emplace_back(index, name);
    }

    std::map<std::vector<int>, uint32_t> group_of_map;
    std::map<std::pair<std::vector<int>, int>, uint32_t> comm_of_key; /* (rank map, n-th) -> global */
    u.comm_of.resize(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r) {
        std::map<std::vector<int>, int> seen; /* how many with this map rank r created so far */
        for (const CommSummary &c : ranks[r].comms) {
            if (c.world_ranks.empty()) {
                continue;
            }
            const std::pair<std::vector<int>, int> key(c.world_ranks, seen[c.world_ranks]++);
            auto [it, fresh] = comm_of_key.try_emplace(key, static_cast<uint32_t>(u.comms.size()));
            if (fresh) {
                auto [g, new_group] = group_of_map.try_emplace(c.world_ranks, static_cast<uint32_t>(u.groups.size()));
                if (new_group) {
                    u.groups.push_back(c.world_ranks);
                }
                u.comms.push_back({c.name, g->second});
            } else if (u.comms[it->second].name.empty()) {
                u.comms[it->second].name = c.name;
            }
            u.comm_of[r][c.local_id] = it->second;
        }
    }
    for (size_t i = 0; i < u.comms.size(); ++i) {
        if (u.comms[i].name.empty()) {
            u.comms[i].name = "communicator " + std::to_string(i);
        }
    }
    return u;
}

} // namespace tessera::ompi::trace_otf2
