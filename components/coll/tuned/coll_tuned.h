/*
 * coll tuned: algorithms chosen by message and communicator size (docs/coll.md, "The tuned
 * component"). Each algorithm is a schedule builder (ompi/coll/coll_schedule.h) serving the blocking
 * and the non-blocking form alike; per collective, a decision function (coll_tuned_decision.cpp) picks
 * one — the algorithm forced by coll_tuned_<coll>_algorithm, or the rules whose thresholds are the
 * other coll_tuned_<coll>_* parameters — and falls back to an algorithm that keeps the ranks' order
 * when the op is not commutative (MPI-4.1 6.9.1).
 *
 * Intracommunicators only; the vector forms whose counts differ per rank (gatherv, scatterv,
 * alltoallv, alltoallw) and the neighbourhood collectives are left to basic.
 */
#ifndef TESSERA_COMPONENTS_COLL_TUNED_COLL_TUNED_H
#define TESSERA_COMPONENTS_COLL_TUNED_COLL_TUNED_H

#include <cstddef>
#include <vector>

#include "frameworks/coll/coll.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/coll/coll_schedule.h"
#include "ompi/tool/mpit_feed.h"

extern "C" mca_coll_base_component_t mca_coll_tuned_component;

namespace tessera::ompi::coll_tuned {

using coll::Schedule;

/* The algorithms of each collective, as coll_tuned_<coll>_algorithm names them (0: decide). */
enum class Barrier { Auto, Linear, Dissemination };
enum class Bcast { Auto, Linear, Binomial, Pipeline, Binary };
enum class Reduce { Auto, Binomial, Rabenseifner };
enum class Allreduce { Auto, RecursiveDoubling, Ring, Rabenseifner, Linear };
enum class ReduceScatter { Auto, ReduceThenScatter, RecursiveHalving, Ring };
enum class Allgather { Auto, Linear, Bruck, RecursiveDoubling, Ring };
enum class Allgatherv { Auto, Linear, Ring };
enum class Alltoall { Auto, Linear, Pairwise, Bruck };
enum class Rooted { Auto, Linear, Binomial }; /* gather and scatter */
enum class Scan { Auto, RecursiveDoubling };  /* scan and exscan */

/* Every parameter of the component (coll_tuned_<name>, registered in coll_tuned_component.cpp). Sizes
 * are bytes of the whole message a rank sends or receives unless the name says "block". */
struct Params {
    int priority = 30;

    int barrier_algorithm = 0;
    int bcast_algorithm = 0;
    int reduce_algorithm = 0;
    int allreduce_algorithm = 0;
    int reduce_scatter_algorithm = 0;
    int reduce_scatter_block_algorithm = 0;
    int allgather_algorithm = 0;
    int allgatherv_algorithm = 0;
    int alltoall_algorithm = 0;
    int gather_algorithm = 0;
    int scatter_algorithm = 0;
    int scan_algorithm = 0;
    int exscan_algorithm = 0;

    std::size_t bcast_segment_size = 0;
    std::size_t bcast_linear_max_size = 0;
    int bcast_linear_max_procs = 0;
    std::size_t bcast_pipeline_min_size = 0;
    int bcast_chain_max_procs = 0;
    std::size_t reduce_rabenseifner_min_size = 0;
    std::size_t allreduce_linear_max_size = 0;
    int allreduce_linear_max_procs = 0;
    std::size_t allreduce_rabenseifner_min_size = 0;
    std::size_t allreduce_rabenseifner_min_size_np2 = 0;
    std::size_t allreduce_ring_min_size = 0;
    std::size_t reduce_scatter_ring_min_size = 0;
    std::size_t allgather_ring_min_size = 0;
    int allgather_linear_max_procs = 0;
    std::size_t allgatherv_ring_min_size = 0;
    std::size_t alltoall_bruck_max_block = 0;
    int alltoall_bruck_min_procs = 0;
    std::size_t alltoall_linear_max_block = 0;
    int alltoall_linear_max_procs = 0;
    std::size_t gather_binomial_max_block = 0;
    int gather_binomial_min_procs = 0;
    std::size_t scatter_binomial_max_block = 0;
    int scatter_binomial_min_procs = 0;
};
extern Params params;

/* MPI_T state pvars coll_tuned_<coll>_algorithm_chosen: the algorithm the last call chose, with the names
 * of coll_tuned_<coll>_algorithm (docs/mpi_t.md). Slots of tessera_mpit_state_set; -1 when none. */
struct ChosenSlots {
    int bcast = -1;
    int reduce = -1;
    int allreduce = -1;
    int allgather = -1;
    int alltoall = -1;
};
extern ChosenSlots chosen;

/* The module of one communicator. */
mca_coll_base_module_t *module_create();

/* coll_tuned_decision.cpp: each collective, as the module's entries call it. */
void barrier(Schedule &s);
void bcast(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root);
void reduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op,
            int root);
void allreduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op);
void reduce_scatter(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts, const Datatype *type,
                    const Op *op);
void reduce_scatter_block(Schedule &s, const void *sbuf, void *rbuf, std::size_t rcount, const Datatype *type,
                          const Op *op);
void allgather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
               std::size_t rcount, const Datatype *rtype);
void allgatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype);
void alltoall(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
              std::size_t rcount, const Datatype *rtype);
void gather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
            std::size_t rcount, const Datatype *rtype, int root);
void scatter(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             std::size_t rcount, const Datatype *rtype, int root);
void scan(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op);
void exscan(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op);

/* The algorithms (coll_tuned_<collective>.cpp). Arguments as in coll.h; MPI_IN_PLACE where the
 * standard allows it. */
void barrier_linear(Schedule &s);
void barrier_dissemination(Schedule &s);

void bcast_linear(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root);
void bcast_binomial(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root);
/* Segments of coll_tuned_bcast_segment_size down a chain (pipeline) or a binary tree. */
void bcast_pipeline(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root);
void bcast_binary(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root);

/* Keeps rank order (a non-commutative op is reduced over rank 0's tree, the result sent to root). */
void reduce_binomial(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                     const Op *op, int root);
/* Commutative ops only. */
void reduce_rabenseifner(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                         const Op *op, int root);

/* Keeps rank order. Linear: rank 0 takes every operand at once, reduces them in rank order and sends
 * everyone the result (two steps: for small vectors on few, oversubscribed ranks). */
void allreduce_linear(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                      const Op *op);
void allreduce_recursive_doubling(Schedule &s, const void *sbuf, void *rbuf, std::size_t count,
                                  const Datatype *type, const Op *op);
/* Commutative ops only. */
void allreduce_ring(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                    const Op *op);
void allreduce_rabenseifner(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                            const Op *op);

/* Keeps rank order (binomial reduce to rank 0, then the blocks sent out). */
void reduce_scatter_then_scatter(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts,
                                 const Datatype *type, const Op *op);
/* Commutative ops only. */
void reduce_scatter_halving(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts,
                            const Datatype *type, const Op *op);
void reduce_scatter_ring(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts, const Datatype *type,
                         const Op *op);

void allgather_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                      std::size_t rcount, const Datatype *rtype);
void allgather_bruck(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                     std::size_t rcount, const Datatype *rtype);
/* Power-of-two sizes; others run Bruck's. */
void allgather_recursive_doubling(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype,
                                  void *rbuf, std::size_t rcount, const Datatype *rtype);
void allgather_ring(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                    std::size_t rcount, const Datatype *rtype);
void allgatherv_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                       const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype);
void allgatherv_ring(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                     const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype);

void alltoall_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                     std::size_t rcount, const Datatype *rtype);
void alltoall_pairwise(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                       std::size_t rcount, const Datatype *rtype);
void alltoall_bruck(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                    std::size_t rcount, const Datatype *rtype);

void gather_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                   std::size_t rcount, const Datatype *rtype, int root);
void gather_binomial(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                     std::size_t rcount, const Datatype *rtype, int root);
void scatter_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                    std::size_t rcount, const Datatype *rtype, int root);
void scatter_binomial(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                      std::size_t rcount, const Datatype *rtype, int root);

/* Keep rank order. */
void scan_recursive_doubling(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                             const Op *op);
void exscan_recursive_doubling(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                               const Op *op);

} // namespace tessera::ompi::coll_tuned

#endif
