/* Processor binding through hwloc (see binding.h). */
#include "opal/binding.h"
#include "opal/host_topology.h"

#include <hwloc.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace tessera::opal {
namespace {

struct TopologyDeleter {
    void operator()(hwloc_topology *t) const { hwloc_topology_destroy(t); }
};
struct BitmapDeleter {
    void operator()(hwloc_bitmap_s *b) const { hwloc_bitmap_free(b); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

} // namespace

/* Loaded on first use and kept: a topology load costs milliseconds, and a process asks at most a few
 * times. nullptr when hwloc could not load one (then binding is refused and one core is assumed). */
hwloc_topology *host_topology()
{
    static std::unique_ptr<hwloc_topology, TopologyDeleter> topo = [] {
        hwloc_topology_t t = nullptr;
        if (hwloc_topology_init(&t) != 0) {
            return std::unique_ptr<hwloc_topology, TopologyDeleter>();
        }
        /* Only processors matter here: skip I/O devices, which are the slow part of a load. */
        hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_NONE);
        if (hwloc_topology_load(t) != 0) {
            hwloc_topology_destroy(t);
            return std::unique_ptr<hwloc_topology, TopologyDeleter>();
        }
        return std::unique_ptr<hwloc_topology, TopologyDeleter>(t);
    }();
    return topo.get();
}

namespace {

std::vector<unsigned> pus_of(hwloc_const_bitmap_t set)
{
    std::vector<unsigned> pus;
    for (int i = hwloc_bitmap_first(set); i >= 0; i = hwloc_bitmap_next(set, i)) {
        pus.push_back(static_cast<unsigned>(i));
    }
    return pus;
}

std::vector<CoreInfo> load_cores()
{
    std::vector<CoreInfo> cores;
    hwloc_topology *t = host_topology();
    if (t != nullptr) {
        hwloc_obj_type_t type = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
        const int n = hwloc_get_nbobjs_by_type(t, type);
        for (int i = 0; i < n; ++i) {
            hwloc_obj_t obj = hwloc_get_obj_by_type(t, type, static_cast<unsigned>(i));
            CoreInfo info;
            info.core = i;
            info.pus = pus_of(obj->cpuset);
            if (!info.pus.empty()) {
                cores.push_back(std::move(info));
            }
        }
    }
    if (cores.empty()) {
        cores.push_back({0, {0}});
    }
    return cores;
}

} // namespace

const std::vector<CoreInfo> &host_cores()
{
    static const std::vector<CoreInfo> cores = load_cores();
    return cores;
}

int core_count() { return static_cast<int>(host_cores().size()); }

CoreInfo core_for_local_rank(int index)
{
    const std::vector<CoreInfo> &cores = host_cores();
    const int n = static_cast<int>(cores.size());
    const int i = ((index % n) + n) % n;
    return cores[static_cast<size_t>(i)];
}

std::string format_pu_list(const std::vector<unsigned> &pus)
{
    std::string text;
    for (unsigned pu : pus) {
        if (!text.empty()) {
            text += ',';
        }
        text += std::to_string(pu);
    }
    return text;
}

std::optional<std::vector<unsigned>> parse_pu_list(const std::string &text)
{
    std::vector<unsigned> pus;
    if (text.empty()) {
        return std::nullopt;
    }
    const char *p = text.data();
    const char *end = p + text.size();
    /* Upper bound on one range, so that "0-4000000000" cannot make us allocate gigabytes. */
    constexpr unsigned kMaxPu = 1u << 20;
    while (p < end) {
        unsigned first = 0;
        auto [q, ec] = std::from_chars(p, end, first);
        if (ec != std::errc() || q == p || first > kMaxPu) {
            return std::nullopt;
        }
        unsigned last = first;
        p = q;
        if (p < end && *p == '-') {
            ++p;
            auto [r, ec2] = std::from_chars(p, end, last);
            if (ec2 != std::errc() || r == p || last < first || last > kMaxPu) {
                return std::nullopt;
            }
            p = r;
        }
        for (unsigned pu = first; pu <= last; ++pu) {
            pus.push_back(pu);
        }
        if (p < end) {
            if (*p != ',' || p + 1 == end) {
                return std::nullopt;
            }
            ++p;
        }
    }
    return pus;
}

int bind_to_pus(const std::string &pu_list, std::string *error)
{
    auto fail = [error](const std::string &why) {
        if (error != nullptr) {
            *error = why;
        }
        return -1;
    };
    std::optional<std::vector<unsigned>> pus = parse_pu_list(pu_list);
    if (!pus) {
        return fail("malformed PU list \"" + pu_list + "\" (expected os indices such as \"0,1\" or \"0-3\")");
    }
    hwloc_topology *t = host_topology();
    if (t == nullptr) {
        return fail("hwloc could not load this host's topology");
    }
    Bitmap set(hwloc_bitmap_alloc());
    if (!set) {
        return fail("out of memory");
    }
    hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(t);
    for (unsigned pu : *pus) {
        if (!hwloc_bitmap_isset(allowed, pu)) {
            return fail("PU " + std::to_string(pu) + " does not exist on this host or may not be used by this "
                        "process");
        }
        hwloc_bitmap_set(set.get(), pu);
    }
    if (hwloc_set_cpubind(t, set.get(), HWLOC_CPUBIND_PROCESS) != 0) {
        return fail(std::string("binding to PUs ") + pu_list + " failed: " + std::strerror(errno));
    }
    return 0;
}

std::string current_binding()
{
    hwloc_topology *t = host_topology();
    if (t == nullptr) {
        return "unknown";
    }
    Bitmap set(hwloc_bitmap_alloc());
    if (!set || hwloc_get_cpubind(t, set.get(), HWLOC_CPUBIND_PROCESS) != 0) {
        return "unknown";
    }
    char *text = nullptr;
    if (hwloc_bitmap_list_asprintf(&text, set.get()) < 0 || text == nullptr) {
        return "unknown";
    }
    std::string out(text);
    std::free(text);
    return out;
}

} // namespace tessera::opal
