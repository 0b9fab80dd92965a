#include "components/trace/otf2/trace_otf2_global_defs.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace tessera::ompi::trace_otf2 {

namespace {

/* OTF2 wants string ids dense and defined before they are used: every string is given its id first,
 * written next, and the definitions follow. */
class Strings {
public:
    OTF2_StringRef operator()(const std::string &s)
    {
        auto [it, fresh] = ids_.try_emplace(s, static_cast<OTF2_StringRef>(list_.size()));
        if (fresh) {
            list_.push_back(s);
        }
        return it->second;
    }
    OTF2_ErrorCode write(OTF2_GlobalDefWriter *w) const
    {
        for (size_t i = 0; i < list_.size(); ++i) {
            if (OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(i),
                                                                     list_[i].c_str());
                rc != OTF2_SUCCESS) {
                return rc;
            }
        }
        return OTF2_SUCCESS;
    }

private:
    std::map<std::string, OTF2_StringRef> ids_;
    std::vector<std::string> list_;
};

std::string rank_name(size_t r)
{
    return "MPI Rank " + std::to_string(r);
}

/* Stops at the first error. */
class Status {
public:
    template <class F> Status &then(F f)
    {
        if (rc_ == OTF2_SUCCESS) {
            rc_ = f();
        }
        return *this;
    }
    OTF2_ErrorCode rc() const { return rc_; }

private:
    OTF2_ErrorCode rc_ = OTF2_SUCCESS;
};

} // namespace

OTF2_ErrorCode write_global_defs(OTF2_GlobalDefWriter *w, const JobFacts &job, const std::vector<RankSummary> &ranks,
                                 const Unified &u)
{
    /* Hosts in order of first appearance; node 0 is the job. */
    std::vector<std::string> hosts;
    for (const RankSummary &s : ranks) {
        if (std::find(hosts.begin(), hosts.end(), s.host) == hosts.end()) {
            hosts.push_back(s.host);
        }
    }
    Strings str;
    const OTF2_StringRef empty = str("");
    const OTF2_StringRef machine = str("Tessera MPI job " + std::to_string(job.jobid));
    const OTF2_StringRef machine_class = str("machine");
    const OTF2_StringRef node_class = str("node");
    const OTF2_StringRef mpi = str("MPI");
    const OTF2_StringRef master = str("Master thread");
    const OTF2_StringRef locations_name = str("MPI_COMM_WORLD locations");
    for (const std::string &h : hosts) {
        str(h.empty() ? "localhost" : h);
    }
    for (size_t r = 0; r < ranks.size(); ++r) {
        str(rank_name(r));
    }
    for (const auto &region : u.regions) {
        str(region.second);
    }
    for (size_t g = 0; g < u.groups.size(); ++g) {
        str("group " + std::to_string(g + 1));
    }
    for (const GlobalComm &c : u.comms) {
        str(c.name);
    }

    uint64_t first = UINT64_MAX, last = 0;
    for (const RankSummary &s : ranks) {
        if (s.events != 0 && s.first_time != 0) {
            first = std::min(first, s.first_time);
            last = std::max(last, s.last_time);
        }
    }
    if (first == UINT64_MAX) {
        first = last = 0;
    }

    Status st;
    st.then([&] { return str.write(w); })
        .then([&] {
            return OTF2_GlobalDefWriter_WriteClockProperties(w, job.clock->resolution(), first, last - first,
                                                             job.clock->realtime_of(first));
        })
        .then([&] {
            return OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, mpi, OTF2_PARADIGM_CLASS_PROCESS);
        })
        .then([&] {
            return OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, machine, machine_class,
                                                            OTF2_UNDEFINED_SYSTEM_TREE_NODE);
        });
    for (size_t h = 0; h < hosts.size(); ++h) {
        st.then([&] {
            return OTF2_GlobalDefWriter_WriteSystemTreeNode(w, static_cast<OTF2_SystemTreeNodeRef>(h + 1),
                                                            str(hosts[h].empty() ? "localhost" : hosts[h]), node_class,
                                                            0);
        });
    }
    for (size_t r = 0; r < ranks.size(); ++r) {
        const auto node = static_cast<OTF2_SystemTreeNodeRef>(
            std::find(hosts.begin(), hosts.end(), ranks[r].host) - hosts.begin() + 1);
        st.then([&] {
            return OTF2_GlobalDefWriter_WriteLocationGroup(w, static_cast<OTF2_LocationGroupRef>(r), str(rank_name(r)),
                                                           OTF2_LOCATION_GROUP_TYPE_PROCESS, node,
                                                           OTF2_UNDEFINED_LOCATION_GROUP);
        });
    }
    for (size_t r = 0; r < ranks.size(); ++r) {
        st.then([&] {
            return OTF2_GlobalDefWriter_WriteLocation(w, static_cast<OTF2_LocationRef>(r), master,
                                                      OTF2_LOCATION_TYPE_CPU_THREAD, ranks[r].events,
                                                      static_cast<OTF2_LocationGroupRef>(r));
        });
    }
    for (size_t i = 0; i < u.regions.size(); ++i) {
        st.then([&] {
            const OTF2_StringRef name = str(u.regions[i].second);
            return OTF2_GlobalDefWriter_WriteRegion(w, static_cast<OTF2_RegionRef>(i), name, name, empty,
                                                    OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                                    OTF2_REGION_FLAG_NONE, empty, 0, 0);
        });
    }
    std::vector<uint64_t> members(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r) {
        members[r] = r;
    }
    st.then([&] {
        return OTF2_GlobalDefWriter_WriteGroup(w, 0, locations_name, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                               OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(members.size()),
                                               members.data());
    });
    for (size_t g = 0; g < u.groups.size(); ++g) {
        const std::vector<uint64_t> ids(u.groups[g].begin(), u.groups[g].end());
        const OTF2_StringRef name = str("group " + std::to_string(g + 1));
        st.then([&] {
            return OTF2_GlobalDefWriter_WriteGroup(w, static_cast<OTF2_GroupRef>(g + 1), name,
                                                   OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                   static_cast<uint32_t>(ids.size()), ids.data());
        });
    }
    for (size_t c = 0; c < u.comms.size(); ++c) {
        st.then([&] {
            return OTF2_GlobalDefWriter_WriteComm(w, static_cast<OTF2_CommRef>(c), str(u.comms[c].name),
                                                  static_cast<OTF2_GroupRef>(u.comms[c].group + 1), OTF2_UNDEFINED_COMM,
                                                  OTF2_COMM_FLAG_NONE);
        });
    }
    return st.rc();
}

} // namespace tessera::ompi::trace_otf2
