/* coll sm: parameters, and a module for each intracommunicator whose processes all share this host. */
#include "components/coll/sm/coll_sm.h"

#include "mca/report.h"
#include "mca/var.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/proc/proc.h"

namespace tessera::ompi::coll_sm {

Params params;

namespace {

/* A slot above this would make the segment of a 16-process communicator larger than 32 MiB. */
constexpr std::size_t kMaxSlot = std::size_t{1} << 20;
constexpr int kMaxProcs = 256;

const mca_var_decl_t vars[] = {
    {"priority",
     "Priority of the shared-memory collectives (MPI_Barrier, and MPI_Bcast, MPI_Reduce, MPI_Allreduce, "
     "MPI_Allgather and MPI_Alltoall of at most coll_sm_max_bytes) of communicators whose processes all share a "
     "host; the rest of their "
     "collectives, and those of other communicators, go to the components below (tuned: 30)",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.priority},
    {"max_bytes",
     "The largest message through shared memory, per rank: a broadcast's message, a reduction's vector, an "
     "allgather's block, all the blocks an alltoall sends (larger ones go below); each rank's slot of the "
     "communicator's segment",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.max_bytes},
    {"max_procs", "The largest communicator that gets shared-memory collectives (each rank polls every other's flag)",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.max_procs},
    {"depth",
     "Sets of slots of a communicator's segment, used in turn: a rank may run this many collectives less one "
     "ahead of the slowest (a broadcast's root, say)",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.depth},
    {"polls",
     "While waiting for other ranks, polls of their flags between two passes of the progress engine (which "
     "polls every transport: a flag set during a pass is seen only after it)",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.polls},
    {"pauses",
     "Pause instructions between two polls of another rank's line, so that the poller does not take the line "
     "back while its writer is still storing into it; -1: one, or none when this host's ranks outnumber its "
     "cores (a pause then only delays the yield that lets the writer run)",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.pauses},
    {"fetch_lines",
     "Cache lines of the data a rank will read from a slot that it fetches while polling the slot's head, so "
     "that they cross between the caches with the head's line rather than after it (0: none)",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.fetch_lines},
};

int register_params(const mca_base_component_t *)
{
    return mca_var_register_table("coll", "sm", vars, sizeof vars / sizeof vars[0], MCA_VAR_SCOPE_ALL);
}

int open_component()
{
    std::string problem;
    const auto bad = [](const char *name, auto value, const std::string &rule) {
        return tessera::mca::bad_value(std::string("coll_sm_") + name, std::to_string(value), rule);
    };
    if (params.max_bytes > kMaxSlot) {
        problem = bad("max_bytes", params.max_bytes, "exceeds " + std::to_string(kMaxSlot) + " (1M)");
    } else if (params.max_procs < 2 || params.max_procs > kMaxProcs) {
        problem = bad("max_procs", params.max_procs, "is not in 2.." + std::to_string(kMaxProcs));
    } else if (params.depth < 2 || params.depth > 64) {
        problem = bad("depth", params.depth, "is not in 2..64");
    } else if (params.polls < 1) {
        problem = bad("polls", params.polls, "must be at least 1");
    } else if (params.pauses < -1) {
        problem = bad("pauses", params.pauses, "must be -1 (automatic) or at least 0");
    } else if (params.fetch_lines < 0) {
        problem = bad("fetch_lines", params.fetch_lines, "must be at least 0");
    }
    if (!problem.empty()) {
        tessera::mca::report(tessera::mca::Severity::Error, problem);
        return TESSERA_ERR_BAD_PARAM;
    }
    return TESSERA_SUCCESS;
}

mca_coll_base_module_t *comm_query(struct tessera_comm *comm, int *out_priority)
{
    const Communicator *c = coll::of(comm);
    if (c->is_inter() || c->size < 2 || c->size > params.max_procs) {
        return nullptr;
    }
    for (const tessera_proc_t *p : c->procs) {
        if ((p->proc_flags & (TESSERA_PROC_ON_NODE | TESSERA_PROC_IS_SELF)) == 0) {
            return nullptr;
        }
    }
    *out_priority = params.priority;
    return module_create();
}

} // namespace
} // namespace tessera::ompi::coll_sm

using namespace tessera::ompi::coll_sm;

mca_coll_base_component_t mca_coll_sm_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_coll_base_component_t, "coll", MCA_COLL_BASE_VERSION, "sm", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = open_component,
             .mca_close_component = nullptr,
             .mca_query_component = nullptr,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .coll_init_query = nullptr,
    .coll_comm_query = comm_query,
    .reserved = {},
};
