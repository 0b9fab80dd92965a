#include "ompi/trace/trace_queries.h"

#include "ompi/pml/pml_request.h"
#include "ompi/trace/trace_feed.h"

#include <numeric>

namespace tessera::ompi::trace {

namespace {

uint64_t ask_type_size(MPI_Datatype type, bool *ok)
{
    *ok = false;
    if (TESSERA_TRACE_PROVIDED(Type_size_c)) {
        MPI_Count size = 0;
        if (tessera_mpi_dispatch.Type_size_c(type, &size) == MPI_SUCCESS && size >= 0) {
            *ok = true;
            return static_cast<uint64_t>(size);
        }
    } else if (TESSERA_TRACE_PROVIDED(Type_size)) {
        int size = 0;
        if (tessera_mpi_dispatch.Type_size(type, &size) == MPI_SUCCESS && size >= 0) {
            *ok = true;
            return static_cast<uint64_t>(size);
        }
    }
    return 0;
}

} // namespace

} // namespace tessera::ompi::trace

uint32_t tessera_trace_type_sizes[TESSERA_TRACE_PREDEFINED_LIMIT];

namespace tessera::ompi::trace {

uint64_t type_bytes(MPI_Count count, MPI_Datatype type)
{
    if (count <= 0 || type == nullptr || type == MPI_DATATYPE_NULL) {
        return 0;
    }
    const auto handle = reinterpret_cast<uintptr_t>(type);
    uint64_t size = 0;
    if (handle < TESSERA_TRACE_PREDEFINED_LIMIT) {
        if (!tessera_trace_cached_size(type, &size)) {
            bool ok = false;
            size = ask_type_size(type, &ok);
            if (ok) {
                __atomic_store_n(&tessera_trace_type_sizes[handle], static_cast<uint32_t>(size) + 1, __ATOMIC_RELAXED);
            }
        }
    } else {
        bool ok = false;
        size = ask_type_size(type, &ok);
    }
    return size * static_cast<uint64_t>(count);
}

namespace {
bool statuses_native = false;
} // namespace

void use_native_statuses(bool native)
{
    statuses_native = native;
}

uint64_t status_bytes(const MPI_Status *status)
{
    if (statuses_native) {
        return static_cast<uint64_t>(pml::status_count(status)); /* what MPI_Get_count would divide */
    }
    const MPI_Status *st = status;
    if (TESSERA_TRACE_PROVIDED(Get_count_c)) {
        MPI_Count n = 0;
        if (tessera_mpi_dispatch.Get_count_c(st, MPI_BYTE, &n) == MPI_SUCCESS && n >= 0) {
            return static_cast<uint64_t>(n);
        }
    } else if (TESSERA_TRACE_PROVIDED(Get_count)) {
        int n = 0;
        if (tessera_mpi_dispatch.Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n >= 0) {
            return static_cast<uint64_t>(n);
        }
    }
    return 0;
}

bool status_cancelled(const MPI_Status *status)
{
    int flag = 0;
    return TESSERA_TRACE_PROVIDED(Test_cancelled) &&
           tessera_mpi_dispatch.Test_cancelled(status, &flag) == MPI_SUCCESS && flag != 0;
}

int world_rank()
{
    int rank = 0;
    if (TESSERA_TRACE_PROVIDED(Comm_rank)) {
        (void)tessera_mpi_dispatch.Comm_rank(MPI_COMM_WORLD, &rank);
    }
    return rank;
}

int world_size()
{
    int size = 1;
    if (TESSERA_TRACE_PROVIDED(Comm_size)) {
        (void)tessera_mpi_dispatch.Comm_size(MPI_COMM_WORLD, &size);
    }
    return size;
}

int thread_level()
{
    int level = MPI_THREAD_SINGLE;
    if (TESSERA_TRACE_PROVIDED(Query_thread)) {
        (void)tessera_mpi_dispatch.Query_thread(&level);
    }
    return level;
}

namespace {

bool is_inter(MPI_Comm comm)
{
    int flag = 0;
    return comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF && TESSERA_TRACE_PROVIDED(Comm_test_inter) &&
           tessera_mpi_dispatch.Comm_test_inter(comm, &flag) == MPI_SUCCESS && flag != 0;
}

/* The MPI_COMM_WORLD ranks of the members of `comm`'s group (remote group when inter). */
std::vector<int> translate_to_world(MPI_Comm comm, bool inter, int size)
{
    const tessera_mpi_dispatch_t &t = tessera_mpi_dispatch;
    if (!TESSERA_TRACE_PROVIDED(Comm_group) || !TESSERA_TRACE_PROVIDED(Group_translate_ranks) ||
        !TESSERA_TRACE_PROVIDED(Group_free) || (inter && !TESSERA_TRACE_PROVIDED(Comm_remote_group))) {
        return {};
    }
    MPI_Group group = MPI_GROUP_NULL;
    MPI_Group world = MPI_GROUP_NULL;
    std::vector<int> ranks(static_cast<size_t>(size));
    std::vector<int> world_ranks(static_cast<size_t>(size), MPI_UNDEFINED);
    std::iota(ranks.begin(), ranks.end(), 0);
    bool ok = (inter ? t.Comm_remote_group(comm, &group) : t.Comm_group(comm, &group)) == MPI_SUCCESS &&
              t.Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS &&
              t.Group_translate_ranks(group, size, ranks.data(), world, world_ranks.data()) == MPI_SUCCESS;
    if (group != MPI_GROUP_NULL) {
        (void)t.Group_free(&group);
    }
    if (world != MPI_GROUP_NULL) {
        (void)t.Group_free(&world);
    }
    for (int w : world_ranks) {
        ok = ok && w >= 0; /* a member outside MPI_COMM_WORLD (spawned, connected) has no location */
    }
    return ok ? world_ranks : std::vector<int>{};
}

} // namespace

CommFacts comm_facts(MPI_Comm comm)
{
    const tessera_mpi_dispatch_t &t = tessera_mpi_dispatch;
    CommFacts f;
    const bool inter = is_inter(comm);
    if (inter) {
        if (TESSERA_TRACE_PROVIDED(Comm_remote_size)) {
            (void)t.Comm_remote_size(comm, &f.size);
        }
    } else if (TESSERA_TRACE_PROVIDED(Comm_size)) {
        (void)t.Comm_size(comm, &f.size);
    }
    if (TESSERA_TRACE_PROVIDED(Comm_rank)) {
        (void)t.Comm_rank(comm, &f.rank);
    }
    if (comm == MPI_COMM_WORLD) {
        f.world_ranks.resize(static_cast<size_t>(f.size));
        std::iota(f.world_ranks.begin(), f.world_ranks.end(), 0);
        f.name = "MPI_COMM_WORLD";
    } else if (comm == MPI_COMM_SELF) {
        f.world_ranks.assign(1, world_rank());
        f.name = "MPI_COMM_SELF";
    } else if (f.size > 0) {
        f.world_ranks = translate_to_world(comm, inter, f.size);
        char name[MPI_MAX_OBJECT_NAME] = {};
        int len = 0;
        if (TESSERA_TRACE_PROVIDED(Comm_get_name) && t.Comm_get_name(comm, name, &len) == MPI_SUCCESS && len > 0) {
            f.name.assign(name, static_cast<size_t>(len));
        }
    }
    return f;
}

CollGroup coll_group(MPI_Comm comm)
{
    const tessera_mpi_dispatch_t &t = tessera_mpi_dispatch;
    CollGroup g;
    g.inter = is_inter(comm);
    if (TESSERA_TRACE_PROVIDED(Comm_rank)) {
        (void)t.Comm_rank(comm, &g.rank);
    }
    if (g.inter ? TESSERA_TRACE_PROVIDED(Comm_remote_size) : TESSERA_TRACE_PROVIDED(Comm_size)) {
        (void)(g.inter ? t.Comm_remote_size(comm, &g.size) : t.Comm_size(comm, &g.size));
    }
    return g;
}

void neighbor_counts(MPI_Comm comm, int rank, int *indegree, int *outdegree)
{
    const tessera_mpi_dispatch_t &t = tessera_mpi_dispatch;
    *indegree = *outdegree = 0;
    int topo = MPI_UNDEFINED;
    if (!TESSERA_TRACE_PROVIDED(Topo_test) || t.Topo_test(comm, &topo) != MPI_SUCCESS) {
        return;
    }
    if (topo == MPI_CART && TESSERA_TRACE_PROVIDED(Cartdim_get)) {
        int ndims = 0;
        if (t.Cartdim_get(comm, &ndims) == MPI_SUCCESS) {
            *indegree = *outdegree = 2 * ndims; /* MPI-4.1 8.6: two neighbours per dimension */
        }
    } else if (topo == MPI_GRAPH && TESSERA_TRACE_PROVIDED(Graph_neighbors_count)) {
        int n = 0;
        if (t.Graph_neighbors_count(comm, rank, &n) == MPI_SUCCESS) {
            *indegree = *outdegree = n;
        }
    } else if (topo == MPI_DIST_GRAPH && TESSERA_TRACE_PROVIDED(Dist_graph_neighbors_count)) {
        int in = 0, out = 0, weighted = 0;
        if (t.Dist_graph_neighbors_count(comm, &in, &out, &weighted) == MPI_SUCCESS) {
            *indegree = in;
            *outdegree = out;
        }
    }
}

} // namespace tessera::ompi::trace
