/*
 * A coll module's entries (frameworks/coll/coll.h), written once for every component whose algorithms
 * are schedule builders: each entry converts the framework's arguments and runs its builder as the
 * blocking form (run_blocking) or starts it as the non-blocking one (run_nonblocking).
 *
 * The builders come as a "family": a struct whose static members name them, taking the schedule and
 * then the collective's arguments in coll.h's order, with the MPI layer's objects:
 *
 *     struct Family {
 *         static constexpr auto bcast = my::bcast; // void (Schedule &, void *, size_t, const Datatype *, int)
 *         ...
 *     };
 *     coll::fill_entries<Family>(module);           // the entries of the members it has, both forms
 *
 * Members: barrier, bcast, gather, gatherv, scatter, scatterv, allgather, allgatherv, alltoall, alltoallv,
 * alltoallw (datatypes as mca_coll_dt_t arrays), reduce, allreduce, reduce_scatter, reduce_scatter_block,
 * scan, exscan.
 */
#ifndef TESSERA_OMPI_COLL_COLL_ENTRIES_H
#define TESSERA_OMPI_COLL_COLL_ENTRIES_H

#include "frameworks/coll/coll.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/coll/coll_schedule.h"

namespace tessera::ompi::coll {

namespace entries {

template <typename Build>
int blocking(tessera_comm *comm, Build build)
{
    return run_blocking(of(comm), build);
}

template <typename Build>
int nonblocking(tessera_comm *comm, tessera_request **request, Build build)
{
    pml::Request *r = nullptr;
    const int rc = run_nonblocking(of(comm), &r, build);
    *request = to_c(r);
    return rc;
}

/* Each entry pair: the arguments of coll.h, forwarded to the family's builder. */
#define TESSERA_COLL_ENTRY(name, params, args)                                                                        \
    template <typename F>                                                                                             \
    int name params                                                                                                   \
    {                                                                                                                 \
        return blocking(comm, [&](Schedule &s) { F::name args; });                                                    \
    }
#define TESSERA_COLL_IENTRY(name, params, args)                                                                       \
    template <typename F>                                                                                             \
    int i##name params                                                                                                \
    {                                                                                                                 \
        return nonblocking(comm, request, [&](Schedule &s) { F::name args; });                                        \
    }

#define TESSERA_COLL_COMM tessera_comm *comm, mca_coll_base_module_t *
#define TESSERA_COLL_REQ tessera_request **request

TESSERA_COLL_ENTRY(barrier, (TESSERA_COLL_COMM), (s))
TESSERA_COLL_IENTRY(barrier, (TESSERA_COLL_REQ, TESSERA_COLL_COMM), (s))

#define BCAST_PARAMS void *buf, size_t count, mca_coll_dt_t dt, int root
#define BCAST_ARGS (s, buf, count, of(dt), root)
TESSERA_COLL_ENTRY(bcast, (BCAST_PARAMS, TESSERA_COLL_COMM), BCAST_ARGS)
TESSERA_COLL_IENTRY(bcast, (BCAST_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), BCAST_ARGS)

/* gather, scatter: (sbuf, scount, sdt, rbuf, rcount, rdt, root); allgather, alltoall: without root. */
#define FIXED_PARAMS const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt
#define FIXED_ARGS s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)
TESSERA_COLL_ENTRY(gather, (FIXED_PARAMS, int root, TESSERA_COLL_COMM), (FIXED_ARGS, root))
TESSERA_COLL_IENTRY(gather, (FIXED_PARAMS, int root, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (FIXED_ARGS, root))
TESSERA_COLL_ENTRY(scatter, (FIXED_PARAMS, int root, TESSERA_COLL_COMM), (FIXED_ARGS, root))
TESSERA_COLL_IENTRY(scatter, (FIXED_PARAMS, int root, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (FIXED_ARGS, root))
TESSERA_COLL_ENTRY(allgather, (FIXED_PARAMS, TESSERA_COLL_COMM), (FIXED_ARGS))
TESSERA_COLL_IENTRY(allgather, (FIXED_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (FIXED_ARGS))
TESSERA_COLL_ENTRY(alltoall, (FIXED_PARAMS, TESSERA_COLL_COMM), (FIXED_ARGS))
TESSERA_COLL_IENTRY(alltoall, (FIXED_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (FIXED_ARGS))

/* gatherv, allgatherv: the receive side by counts and displacements. */
#define GATHERV_PARAMS                                                                                                \
    const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts, const ptrdiff_t *displs,   \
        mca_coll_dt_t rdt
#define GATHERV_ARGS s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt)
TESSERA_COLL_ENTRY(gatherv, (GATHERV_PARAMS, int root, TESSERA_COLL_COMM), (GATHERV_ARGS, root))
TESSERA_COLL_IENTRY(gatherv, (GATHERV_PARAMS, int root, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (GATHERV_ARGS, root))
TESSERA_COLL_ENTRY(allgatherv, (GATHERV_PARAMS, TESSERA_COLL_COMM), (GATHERV_ARGS))
TESSERA_COLL_IENTRY(allgatherv, (GATHERV_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (GATHERV_ARGS))

#define SCATTERV_PARAMS                                                                                               \
    const void *sbuf, const size_t *scounts, const ptrdiff_t *displs, mca_coll_dt_t sdt, void *rbuf, size_t rcount,   \
        mca_coll_dt_t rdt, int root
#define SCATTERV_ARGS (s, sbuf, scounts, displs, of(sdt), rbuf, rcount, of(rdt), root)
TESSERA_COLL_ENTRY(scatterv, (SCATTERV_PARAMS, TESSERA_COLL_COMM), SCATTERV_ARGS)
TESSERA_COLL_IENTRY(scatterv, (SCATTERV_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), SCATTERV_ARGS)

#define ALLTOALLV_PARAMS                                                                                              \
    const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, mca_coll_dt_t sdt, void *rbuf,                 \
        const size_t *rcounts, const ptrdiff_t *rdispls, mca_coll_dt_t rdt
#define ALLTOALLV_ARGS (s, sbuf, scounts, sdispls, of(sdt), rbuf, rcounts, rdispls, of(rdt))
TESSERA_COLL_ENTRY(alltoallv, (ALLTOALLV_PARAMS, TESSERA_COLL_COMM), ALLTOALLV_ARGS)
TESSERA_COLL_IENTRY(alltoallv, (ALLTOALLV_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), ALLTOALLV_ARGS)

#define ALLTOALLW_PARAMS                                                                                              \
    const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, const mca_coll_dt_t *sdts, void *rbuf,         \
        const size_t *rcounts, const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts
#define ALLTOALLW_ARGS (s, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts)
TESSERA_COLL_ENTRY(alltoallw, (ALLTOALLW_PARAMS, TESSERA_COLL_COMM), ALLTOALLW_ARGS)
TESSERA_COLL_IENTRY(alltoallw, (ALLTOALLW_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), ALLTOALLW_ARGS)

#define REDUCE_PARAMS const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op
#define REDUCE_ARGS s, sbuf, rbuf, count, of(dt), of(op)
TESSERA_COLL_ENTRY(reduce, (REDUCE_PARAMS, int root, TESSERA_COLL_COMM), (REDUCE_ARGS, root))
TESSERA_COLL_IENTRY(reduce, (REDUCE_PARAMS, int root, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (REDUCE_ARGS, root))
TESSERA_COLL_ENTRY(allreduce, (REDUCE_PARAMS, TESSERA_COLL_COMM), (REDUCE_ARGS))
TESSERA_COLL_IENTRY(allreduce, (REDUCE_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (REDUCE_ARGS))
TESSERA_COLL_ENTRY(scan, (REDUCE_PARAMS, TESSERA_COLL_COMM), (REDUCE_ARGS))
TESSERA_COLL_IENTRY(scan, (REDUCE_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (REDUCE_ARGS))
TESSERA_COLL_ENTRY(exscan, (REDUCE_PARAMS, TESSERA_COLL_COMM), (REDUCE_ARGS))
TESSERA_COLL_IENTRY(exscan, (REDUCE_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), (REDUCE_ARGS))

#define RS_PARAMS const void *sbuf, void *rbuf, const size_t *rcounts, mca_coll_dt_t dt, mca_coll_op_t op
#define RS_ARGS (s, sbuf, rbuf, rcounts, of(dt), of(op))
TESSERA_COLL_ENTRY(reduce_scatter, (RS_PARAMS, TESSERA_COLL_COMM), RS_ARGS)
TESSERA_COLL_IENTRY(reduce_scatter, (RS_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), RS_ARGS)

#define RSB_PARAMS const void *sbuf, void *rbuf, size_t rcount, mca_coll_dt_t dt, mca_coll_op_t op
#define RSB_ARGS (s, sbuf, rbuf, rcount, of(dt), of(op))
TESSERA_COLL_ENTRY(reduce_scatter_block, (RSB_PARAMS, TESSERA_COLL_COMM), RSB_ARGS)
TESSERA_COLL_IENTRY(reduce_scatter_block, (RSB_PARAMS, TESSERA_COLL_REQ, TESSERA_COLL_COMM), RSB_ARGS)

#undef BCAST_PARAMS
#undef BCAST_ARGS
#undef FIXED_PARAMS
#undef FIXED_ARGS
#undef GATHERV_PARAMS
#undef GATHERV_ARGS
#undef SCATTERV_PARAMS
#undef SCATTERV_ARGS
#undef ALLTOALLV_PARAMS
#undef ALLTOALLV_ARGS
#undef ALLTOALLW_PARAMS
#undef ALLTOALLW_ARGS
#undef REDUCE_PARAMS
#undef REDUCE_ARGS
#undef RS_PARAMS
#undef RS_ARGS
#undef RSB_PARAMS
#undef RSB_ARGS
#undef TESSERA_COLL_COMM
#undef TESSERA_COLL_REQ
#undef TESSERA_COLL_ENTRY
#undef TESSERA_COLL_IENTRY

} // namespace entries

/* Sets the module's blocking and non-blocking entries of every collective the family has. */
template <typename F>
void fill_entries(mca_coll_base_module_t *m)
{
#define TESSERA_COLL_FILL(name)                                                                                       \
    if constexpr (requires { F::name; }) {                                                                            \
        m->coll_##name = entries::name<F>;                                                                            \
        m->coll_i##name = entries::i##name<F>;                                                                        \
    }
    TESSERA_COLL_FILL(barrier)
    TESSERA_COLL_FILL(bcast)
    TESSERA_COLL_FILL(gather)
    TESSERA_COLL_FILL(gatherv)
    TESSERA_COLL_FILL(scatter)
    TESSERA_COLL_FILL(scatterv)
    TESSERA_COLL_FILL(allgather)
    TESSERA_COLL_FILL(allgatherv)
    TESSERA_COLL_FILL(alltoall)
    TESSERA_COLL_FILL(alltoallv)
    TESSERA_COLL_FILL(alltoallw)
    TESSERA_COLL_FILL(reduce)
    TESSERA_COLL_FILL(allreduce)
    TESSERA_COLL_FILL(reduce_scatter)
    TESSERA_COLL_FILL(reduce_scatter_block)
    TESSERA_COLL_FILL(scan)
    TESSERA_COLL_FILL(exscan)
#undef TESSERA_COLL_FILL
}

} // namespace tessera::ompi::coll

#endif
