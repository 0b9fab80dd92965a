/* coll tuned: registration (the parameters of coll_tuned.h) and the module each communicator gets. */
#include "components/coll/tuned/coll_tuned.h"

#include <string>

#include "mca/constants.h"
#include "mca/var.h"

namespace tessera::ompi::coll_tuned {

ChosenSlots chosen;

/* Defaults of the thresholds: measured on a 2-core host, 2 and 4 ranks, shared memory
 * (tools/bench/coll/coll_bench.py; docs/coll.md gives the table). */
Params params = {
    .priority = 30,
    .barrier_algorithm = 0,
    .bcast_algorithm = 0,
    .reduce_algorithm = 0,
    .allreduce_algorithm = 0,
    .reduce_scatter_algorithm = 0,
    .reduce_scatter_block_algorithm = 0,
    .allgather_algorithm = 0,
    .allgatherv_algorithm = 0,
    .alltoall_algorithm = 0,
    .gather_algorithm = 0,
    .scatter_algorithm = 0,
    .scan_algorithm = 0,
    .exscan_algorithm = 0,
    .bcast_segment_size = std::size_t{128} << 10,
    .bcast_linear_max_size = std::size_t{64} << 20,
    .bcast_linear_max_procs = 4,
    .bcast_pipeline_min_size = std::size_t{512} << 10,
    .bcast_chain_max_procs = 8,
    .reduce_rabenseifner_min_size = std::size_t{2} << 20,
    .allreduce_linear_max_size = 1024,
    .allreduce_linear_max_procs = 4,
    .allreduce_rabenseifner_min_size = std::size_t{16} << 10,
    .allreduce_rabenseifner_min_size_np2 = std::size_t{512} << 10,
    .allreduce_ring_min_size = std::size_t{256} << 10,
    .reduce_scatter_ring_min_size = 0,
    .allgather_ring_min_size = std::size_t{256} << 10,
    .allgather_linear_max_procs = 4,
    .allgatherv_ring_min_size = std::size_t{256} << 10,
    .alltoall_bruck_max_block = 256,
    .alltoall_bruck_min_procs = 8,
    .alltoall_linear_max_block = std::size_t{32} << 10,
    .alltoall_linear_max_procs = 4,
    .gather_binomial_max_block = std::size_t{4} << 10,
    .gather_binomial_min_procs = 8,
    .scatter_binomial_max_block = std::size_t{4} << 10,
    .scatter_binomial_min_procs = 8,
};

namespace {

const mca_var_enum_value_t barrier_names[] = {{0, "auto"}, {1, "linear"}, {2, "dissemination"}, {0, nullptr}};
const mca_var_enum_value_t bcast_names[] = {{0, "auto"},     {1, "linear"}, {2, "binomial"},
                                            {3, "pipeline"}, {4, "binary"}, {0, nullptr}};
const mca_var_enum_value_t reduce_names[] = {{0, "auto"}, {1, "binomial"}, {2, "rabenseifner"}, {0, nullptr}};
const mca_var_enum_value_t allreduce_names[] = {
    {0, "auto"}, {1, "recursive_doubling"}, {2, "ring"}, {3, "rabenseifner"}, {4, "linear"}, {0, nullptr}};
const mca_var_enum_value_t reduce_scatter_names[] = {
    {0, "auto"}, {1, "reduce_then_scatter"}, {2, "recursive_halving"}, {3, "ring"}, {0, nullptr}};
const mca_var_enum_value_t allgather_names[] = {{0, "auto"},
                                                {1, "linear"},
                                                {2, "bruck"},
                                                {3, "recursive_doubling"},
                                                {4, "ring"},
                                                {0, nullptr}};
const mca_var_enum_value_t allgatherv_names[] = {{0, "auto"}, {1, "linear"}, {2, "ring"}, {0, nullptr}};
const mca_var_enum_value_t alltoall_names[] = {{0, "auto"}, {1, "linear"}, {2, "pairwise"}, {3, "bruck"}, {0, nullptr}};
const mca_var_enum_value_t rooted_names[] = {{0, "auto"}, {1, "linear"}, {2, "binomial"}, {0, nullptr}};
const mca_var_enum_value_t scan_names[] = {{0, "auto"}, {1, "recursive_doubling"}, {0, nullptr}};

/* Every algorithm parameter says what each value does; "auto" defers to the thresholds below it. */
const mca_var_decl_t vars[] = {
    {"priority",
     "Priority of the tuned collectives: for each collective of a communicator the highest-priority component "
     "implementing it serves it (basic: 10)",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.priority},
    {"barrier_algorithm",
     "MPI_Barrier/MPI_Ibarrier: auto, linear (everyone to rank 0 and back), dissemination (log2 n rounds of "
     "messages to rank + 2^k)",
     MCA_VAR_TYPE_ENUM, barrier_names, MCA_INFO_LVL_5, &params.barrier_algorithm},
    {"bcast_algorithm",
     "MPI_Bcast/MPI_Ibcast: auto (see coll_tuned_bcast_*), linear (the root sends to every rank), binomial "
     "(tree, log2 n rounds), pipeline (segments of coll_tuned_bcast_segment_size down a chain), binary "
     "(segments down a binary tree)",
     MCA_VAR_TYPE_ENUM, bcast_names, MCA_INFO_LVL_5, &params.bcast_algorithm},
    {"reduce_algorithm",
     "MPI_Reduce/MPI_Ireduce: auto (see coll_tuned_reduce_rabenseifner_min_size), binomial (tree; rank order "
     "kept), rabenseifner (reduce-scatter by recursive halving, then a binomial gather; commutative ops, "
     "otherwise binomial)",
     MCA_VAR_TYPE_ENUM, reduce_names, MCA_INFO_LVL_5, &params.reduce_algorithm},
    {"allreduce_algorithm",
     "MPI_Allreduce/MPI_Iallreduce: auto (see coll_tuned_allreduce_*), recursive_doubling (rank order kept), "
     "ring (reduce-scatter and allgather around a ring), rabenseifner (recursive halving, then recursive "
     "doubling), linear (rank 0 takes every operand, reduces in rank order and sends the result); ring and "
     "rabenseifner need a commutative op, otherwise recursive_doubling runs",
     MCA_VAR_TYPE_ENUM, allreduce_names, MCA_INFO_LVL_5, &params.allreduce_algorithm},
    {"reduce_scatter_algorithm",
     "MPI_Reduce_scatter/MPI_Ireduce_scatter: auto (see coll_tuned_reduce_scatter_ring_min_size), "
     "reduce_then_scatter (binomial reduce to rank 0, then the blocks sent out; rank order kept), "
     "recursive_halving, ring; the last two need a commutative op, otherwise reduce_then_scatter runs",
     MCA_VAR_TYPE_ENUM, reduce_scatter_names, MCA_INFO_LVL_5, &params.reduce_scatter_algorithm},
    {"reduce_scatter_block_algorithm",
     "MPI_Reduce_scatter_block/MPI_Ireduce_scatter_block: as coll_tuned_reduce_scatter_algorithm",
     MCA_VAR_TYPE_ENUM, reduce_scatter_names, MCA_INFO_LVL_5, &params.reduce_scatter_block_algorithm},
    {"allgather_algorithm",
     "MPI_Allgather/MPI_Iallgather: auto (see coll_tuned_allgather_ring_min_size), linear (every rank sends "
     "to every other at once), bruck (log2 n rounds, any size), recursive_doubling (power-of-two sizes; "
     "others run bruck), ring (n - 1 rounds to the next rank)",
     MCA_VAR_TYPE_ENUM, allgather_names, MCA_INFO_LVL_5, &params.allgather_algorithm},
    {"allgatherv_algorithm",
     "MPI_Allgatherv/MPI_Iallgatherv: auto (see coll_tuned_allgatherv_ring_min_size), linear, ring",
     MCA_VAR_TYPE_ENUM, allgatherv_names, MCA_INFO_LVL_5, &params.allgatherv_algorithm},
    {"alltoall_algorithm",
     "MPI_Alltoall/MPI_Ialltoall: auto (see coll_tuned_alltoall_*), linear (every exchange at once), pairwise "
     "(n - 1 rounds, one exchange each), bruck (log2 n rounds of packed blocks, for small blocks)",
     MCA_VAR_TYPE_ENUM, alltoall_names, MCA_INFO_LVL_5, &params.alltoall_algorithm},
    {"gather_algorithm",
     "MPI_Gather/MPI_Igather: auto (see coll_tuned_gather_binomial_*), linear (every rank to the root), "
     "binomial (subtrees gathered on the way)",
     MCA_VAR_TYPE_ENUM, rooted_names, MCA_INFO_LVL_5, &params.gather_algorithm},
    {"scatter_algorithm",
     "MPI_Scatter/MPI_Iscatter: auto (see coll_tuned_scatter_binomial_*), linear (the root to every rank), "
     "binomial (subtrees split on the way)",
     MCA_VAR_TYPE_ENUM, rooted_names, MCA_INFO_LVL_5, &params.scatter_algorithm},
    {"scan_algorithm", "MPI_Scan/MPI_Iscan: auto, recursive_doubling (rank order kept)", MCA_VAR_TYPE_ENUM,
     scan_names, MCA_INFO_LVL_5, &params.scan_algorithm},
    {"exscan_algorithm", "MPI_Exscan/MPI_Iexscan: auto, recursive_doubling (rank order kept)", MCA_VAR_TYPE_ENUM,
     scan_names, MCA_INFO_LVL_5, &params.exscan_algorithm},

    {"bcast_segment_size",
     "Bytes per segment of the pipeline and binary broadcasts (a message is cut into whole elements of about "
     "this size; 0: one segment)",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.bcast_segment_size},
    {"bcast_linear_max_size", "auto: broadcasts of at most this many bytes run linear on small communicators",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.bcast_linear_max_size},
    {"bcast_linear_max_procs", "auto: the largest communicator on which small broadcasts run linear",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.bcast_linear_max_procs},
    {"bcast_pipeline_min_size",
     "auto: broadcasts of at least this many bytes are segmented (pipeline or binary); smaller ones binomial",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.bcast_pipeline_min_size},
    {"bcast_chain_max_procs",
     "auto: the largest communicator on which segmented broadcasts run down a chain (pipeline); larger ones "
     "use a binary tree",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.bcast_chain_max_procs},
    {"reduce_rabenseifner_min_size",
     "auto: reductions to a root of at least this many bytes (commutative ops) use Rabenseifner's algorithm; "
     "smaller ones the binomial tree",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.reduce_rabenseifner_min_size},
    {"allreduce_linear_max_size",
     "auto: allreduces of at most this many bytes run linear on communicators of 3 to "
     "coll_tuned_allreduce_linear_max_procs ranks (two steps: fewer wake-ups when ranks share cores)",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.allreduce_linear_max_size},
    {"allreduce_linear_max_procs", "auto: the largest communicator on which small allreduces run linear",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.allreduce_linear_max_procs},
    {"allreduce_rabenseifner_min_size",
     "auto: on communicators of 3 or more ranks, allreduces of at least this many bytes (commutative ops) use "
     "Rabenseifner's algorithm or the ring; smaller ones recursive doubling",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.allreduce_rabenseifner_min_size},
    {"allreduce_rabenseifner_min_size_np2",
     "auto: the same on 2 ranks, where recursive doubling is one exchange of the whole vector",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.allreduce_rabenseifner_min_size_np2},
    {"allreduce_ring_min_size",
     "auto: allreduces of at least this many bytes past coll_tuned_allreduce_rabenseifner_min_size use the ring "
     "instead of Rabenseifner's algorithm (always on communicators whose size is not a power of two)",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.allreduce_ring_min_size},
    {"reduce_scatter_ring_min_size",
     "auto: on 2 ranks and on communicators whose size is not a power of two, reduce-scatters of at least this "
     "many bytes in all (commutative ops) use the ring; others recursive halving",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.reduce_scatter_ring_min_size},
    {"allgather_ring_min_size",
     "auto: allgathers receiving at least this many bytes in all use the ring; smaller ones linear on small "
     "communicators (coll_tuned_allgather_linear_max_procs), else recursive doubling (power-of-two sizes) or "
     "Bruck's algorithm",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.allgather_ring_min_size},
    {"allgather_linear_max_procs", "auto: the largest communicator on which small allgathers run linear",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.allgather_linear_max_procs},
    {"allgatherv_ring_min_size",
     "auto: allgathervs receiving at least this many bytes in all use the ring; smaller ones linear",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.allgatherv_ring_min_size},
    {"alltoall_bruck_max_block",
     "auto: alltoalls whose blocks (bytes sent to one rank) are at most this size use Bruck's algorithm on "
     "communicators of at least coll_tuned_alltoall_bruck_min_procs ranks",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.alltoall_bruck_max_block},
    {"alltoall_bruck_min_procs", "auto: the smallest communicator on which small alltoalls use Bruck's algorithm",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.alltoall_bruck_min_procs},
    {"alltoall_linear_max_block",
     "auto: alltoalls whose blocks are at most this many bytes start every exchange at once (linear); larger "
     "ones run pairwise, except on small communicators (coll_tuned_alltoall_linear_max_procs)",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.alltoall_linear_max_block},
    {"alltoall_linear_max_procs",
     "auto: the largest communicator on which alltoalls of any block size run linear",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.alltoall_linear_max_procs},
    {"gather_binomial_max_block",
     "auto: gathers whose blocks are at most this many bytes use the binomial tree on communicators of at least "
     "coll_tuned_gather_binomial_min_procs ranks; others linear",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.gather_binomial_max_block},
    {"gather_binomial_min_procs", "auto: the smallest communicator on which small gathers use the binomial tree",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.gather_binomial_min_procs},
    {"scatter_binomial_max_block",
     "auto: scatters whose blocks are at most this many bytes use the binomial tree on communicators of at least "
     "coll_tuned_scatter_binomial_min_procs ranks; others linear",
     MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.scatter_binomial_max_block},
    {"scatter_binomial_min_procs", "auto: the smallest communicator on which small scatters use the binomial tree",
     MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.scatter_binomial_min_procs},
};

int register_params(const mca_base_component_t *)
{
    const int rc = mca_var_register_table("coll", "tuned", vars, sizeof vars / sizeof vars[0], MCA_VAR_SCOPE_ALL);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    const auto state = [](const char *coll) {
        const std::string name = std::string("coll_tuned_") + coll + "_algorithm";
        const std::string desc = std::string("The algorithm coll tuned chose for the last MPI_") + coll +
                                 " of this process (the names of " + name + ")";
        return tessera_mpit_state_register((name + "_chosen").c_str(), desc.c_str(), name.c_str());
    };
    chosen = ChosenSlots{state("bcast"), state("reduce"), state("allreduce"), state("allgather"), state("alltoall")};
    return TESSERA_SUCCESS;
}

/* Intracommunicators only: basic serves intercommunicators. */
mca_coll_base_module_t *comm_query(struct tessera_comm *comm, int *out_priority)
{
    if (coll::of(comm)->is_inter()) {
        return nullptr;
    }
    *out_priority = params.priority;
    return module_create();
}

} // namespace
} // namespace tessera::ompi::coll_tuned

using namespace tessera::ompi::coll_tuned;

mca_coll_base_component_t mca_coll_tuned_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_coll_base_component_t, "coll", MCA_COLL_BASE_VERSION, "tuned", 1, 0, 0),
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
