/*
 * coll basic: the algorithms, each a schedule builder (ompi/coll/coll_schedule.h) that serves the
 * blocking and the non-blocking form alike (coll_basic_module.cpp). They are linear: the root talks to
 * every rank, or every rank to every other, in one or two rounds; reductions combine the operands in
 * rank order (a0 op (a1 op (... op an-1))), which is what a non-commutative op needs (MPI-4.1 6.9.1).
 * Intercommunicators get the forms of coll_basic_inter.cpp (namespace inter), which move data between
 * the groups and use the intracommunicator algorithms inside one group.
 *
 * Arguments are the coll interface's (frameworks/coll/coll.h): checked by the MPI layer, MPI_IN_PLACE
 * where the standard allows it, NULL for what is not significant on this rank.
 */
#ifndef TESSERA_COMPONENTS_COLL_BASIC_COLL_BASIC_H
#define TESSERA_COMPONENTS_COLL_BASIC_COLL_BASIC_H

#include <cstddef>
#include <vector>

#include "frameworks/coll/coll.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/coll/coll_schedule.h"

extern "C" mca_coll_base_component_t mca_coll_basic_component;

namespace tessera::ompi::coll_basic {

using coll::Schedule;

extern int priority; /* coll_basic_priority */

/* The module of one communicator (all collectives but the neighbourhood ones; on an
 * intercommunicator all but scan and exscan, which it does not have). */
mca_coll_base_module_t *module_create(bool inter);

/* coll_basic_rooted.cpp */
void bcast(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root);
void gather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
            std::size_t rcount, const Datatype *rtype, int root);
void gatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype, int root);
void scatter(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             std::size_t rcount, const Datatype *rtype, int root);
void scatterv(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *displs,
              const Datatype *stype, void *rbuf, std::size_t rcount, const Datatype *rtype, int root);
void reduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op,
            int root);

/* coll_basic_everyone.cpp */
void barrier(Schedule &s);
/* The barrier's halves: everyone tells rank 0 it has arrived; rank 0 lets everyone go. */
void barrier_fan_in(Schedule &s);
void barrier_fan_out(Schedule &s);
void allgather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
               std::size_t rcount, const Datatype *rtype);
void allgatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype);
void alltoall(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
              std::size_t rcount, const Datatype *rtype);
void alltoallv(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *sdispls,
               const Datatype *stype, void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *rdispls,
               const Datatype *rtype);
/* Displacements in bytes; one datatype per rank. */
void alltoallw(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *sdispls,
               const mca_coll_dt_t *stypes, void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *rdispls,
               const mca_coll_dt_t *rtypes);

/* coll_basic_reductions.cpp */
void allreduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op);
void reduce_scatter(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts, const Datatype *type,
                    const Op *op);
void reduce_scatter_block(Schedule &s, const void *sbuf, void *rbuf, std::size_t rcount, const Datatype *type,
                          const Op *op);
void scan(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op);
void exscan(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op);

/* coll_basic_inter.cpp: the intercommunicator forms, with the arguments of the ones above. */
namespace inter {
void barrier(Schedule &s);
void bcast(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root);
void gather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
            std::size_t rcount, const Datatype *rtype, int root);
void gatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype, int root);
void scatter(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             std::size_t rcount, const Datatype *rtype, int root);
void scatterv(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *displs,
              const Datatype *stype, void *rbuf, std::size_t rcount, const Datatype *rtype, int root);
void allgather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
               std::size_t rcount, const Datatype *rtype);
void allgatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype);
void alltoall(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
              std::size_t rcount, const Datatype *rtype);
void alltoallv(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *sdispls,
               const Datatype *stype, void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *rdispls,
               const Datatype *rtype);
void alltoallw(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *sdispls,
               const mca_coll_dt_t *stypes, void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *rdispls,
               const mca_coll_dt_t *rtypes);
void reduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op,
            int root);
void allreduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op);
void reduce_scatter(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts, const Datatype *type,
                    const Op *op);
void reduce_scatter_block(Schedule &s, const void *sbuf, void *rbuf, std::size_t rcount, const Datatype *type,
                          const Op *op);
} // namespace inter

/* The fixed-count forms as the vector ones: `count` elements per rank, one block after the other. */
struct Blocks {
    std::vector<std::size_t> counts;
    std::vector<std::ptrdiff_t> displs;
};
Blocks uniform_blocks(const Schedule &s, std::size_t count);

/* Element `index` of a buffer of `type` (index * extent bytes on). */
inline char *element(void *buf, std::ptrdiff_t index, const Datatype *type)
{
    return static_cast<char *>(buf) + index * type->extent;
}
inline const char *element(const void *buf, std::ptrdiff_t index, const Datatype *type)
{
    return static_cast<const char *>(buf) + index * type->extent;
}

} // namespace tessera::ompi::coll_basic

#endif
