/* coll sm: parameters, and a module for each intracommunicator whose processes all share this host. */
#include "components/coll/sm/coll_sm.h"

#include <iterator>

#include "mca/var.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/proc/proc.h"

namespace tessera::ompi::coll_sm {

Params params;

namespace {

int register_params(const mca_base_component_t *)
{
    const mca_var_row_t rows[] = {
        {"priority", MCA_VAR_TYPE_INT, "40", nullptr, nullptr,
         "Priority of the shared-memory collectives (MPI_Barrier, and MPI_Bcast, MPI_Reduce, MPI_Allreduce, "
         "MPI_Allgather and MPI_Alltoall of at most coll_sm_max_bytes) of communicators whose processes all share a "
         "host; the rest of their "
         "collectives, and those of other communicators, go to the components below (tuned: 30)",
         MCA_INFO_LVL_6, nullptr, &params.priority},
        /* At most 1M: a larger slot would make the segment of a 16-process communicator larger than 32 MiB. */
        {"max_bytes", MCA_VAR_TYPE_SIZE, "4096", nullptr, "1M",
         "The largest message through shared memory, per rank: a broadcast's message, a reduction's vector, an "
         "allgather's block, all the blocks an alltoall sends (larger ones go below); each rank's slot of the "
         "communicator's segment",
         MCA_INFO_LVL_5, nullptr, &params.max_bytes},
        {"max_procs", MCA_VAR_TYPE_INT, "16", "2", "256",
         "The largest communicator that gets shared-memory collectives (each rank polls every other's flag)",
         MCA_INFO_LVL_5, nullptr, &params.max_procs},
        {"depth", MCA_VAR_TYPE_INT, "8", "2", "64",
         "Sets of slots of a communicator's segment, used in turn: a rank may run this many collectives less one "
         "ahead of the slowest (a broadcast's root, say)",
         MCA_INFO_LVL_6, nullptr, &params.depth},
        {"polls", MCA_VAR_TYPE_INT, "128", "1", nullptr,
         "While waiting for other ranks, polls of their flags between two passes of the progress engine (which "
         "polls every transport: a flag set during a pass is seen only after it)",
         MCA_INFO_LVL_6, nullptr, &params.polls},
        {"pauses", MCA_VAR_TYPE_INT, "-1", "-1", nullptr,
         "Pause instructions between two polls of another rank's line, so that the poller does not take the line "
         "back while its writer is still storing into it; -1: one, or none when this host's ranks outnumber its "
         "cores (a pause then only delays the yield that lets the writer run)",
         MCA_INFO_LVL_6, nullptr, &params.pauses},
        {"fetch_lines", MCA_VAR_TYPE_INT, "4", "0", nullptr,
         "Cache lines of the data a rank will read from a slot that it fetches while polling the slot's head, so "
         "that they cross between the caches with the head's line rather than after it (0: none)",
         MCA_INFO_LVL_6, nullptr, &params.fetch_lines},
        {"unnamed", MCA_VAR_TYPE_BOOL, "true", nullptr, nullptr,
         "Make each communicator's segment unnamed (a memfd of its rank 0 that the others open through "
         "/proc/<pid>/fd), so that nothing of it can stay in /dev/shm whatever kills the job; false: named "
         "/dev/shm/tessera-<job>-coll-..., unlinked once every rank has mapped it (what is also done when some "
         "rank cannot open the memfd); the value of each communicator's rank 0 decides",
         MCA_INFO_LVL_6, nullptr, &params.unnamed},
    };
    return mca_var_register_rows("coll", "sm", rows, std::size(rows), MCA_VAR_SCOPE_ALL);
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
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = nullptr,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .coll_init_query = nullptr,
    .coll_comm_query = comm_query,
    .reserved = {},
};
