/* coll tuned: the module's entries — each runs the decision's schedule to the end (blocking form, on a
 * cached schedule) or starts it as a request (non-blocking form). */
#include "components/coll/tuned/coll_tuned.h"

namespace tessera::ompi::coll_tuned {

namespace {

using coll::of;

template <typename Build>
int blocking(tessera_comm *comm, Build build)
{
    return coll::run_blocking(of(comm), build);
}

template <typename Build>
int nonblocking(tessera_comm *comm, tessera_request **request, Build build)
{
    pml::Request *r = nullptr;
    const int rc = coll::run_nonblocking(of(comm), &r, build);
    *request = coll::to_c(r);
    return rc;
}

int barrier_entry(tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [](Schedule &s) { barrier(s); });
}

int ibarrier_entry(tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [](Schedule &s) { barrier(s); });
}

int bcast_entry(void *buf, size_t count, mca_coll_dt_t dt, int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { bcast(s, buf, count, of(dt), root); });
}

int ibcast_entry(void *buf, size_t count, mca_coll_dt_t dt, int root, tessera_request **request, tessera_comm *comm,
                 mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) { bcast(s, buf, count, of(dt), root); });
}

/* MPI_Gather and MPI_Scatter share their arguments. */
using RootedFn = void (*)(Schedule &, const void *, std::size_t, const Datatype *, void *, std::size_t,
                          const Datatype *, int);

template <RootedFn Algorithm>
int rooted_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                 int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { Algorithm(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

template <RootedFn Algorithm>
int irooted_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                  int root, tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { Algorithm(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

/* MPI_Allgather and MPI_Alltoall share their arguments. */
using EveryoneFn = void (*)(Schedule &, const void *, std::size_t, const Datatype *, void *, std::size_t,
                            const Datatype *);

template <EveryoneFn Algorithm>
int exchange_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                   tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { Algorithm(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

template <EveryoneFn Algorithm>
int iexchange_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount,
                    mca_coll_dt_t rdt, tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { Algorithm(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

int allgatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                     const ptrdiff_t *displs, mca_coll_dt_t rdt, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm,
                    [&](Schedule &s) { allgatherv(s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt)); });
}

int iallgatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                      const ptrdiff_t *displs, mca_coll_dt_t rdt, tessera_request **request, tessera_comm *comm,
                      mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { allgatherv(s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt)); });
}

int reduce_entry(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op, int root,
                 tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { reduce(s, sbuf, rbuf, count, of(dt), of(op), root); });
}

int ireduce_entry(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op, int root,
                  tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) { reduce(s, sbuf, rbuf, count, of(dt), of(op), root); });
}

/* MPI_Allreduce, MPI_Scan and MPI_Exscan share their arguments. */
using ReductionFn = void (*)(Schedule &, const void *, void *, std::size_t, const Datatype *, const Op *);

template <ReductionFn Algorithm>
int reduction_entry(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op,
                    tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { Algorithm(s, sbuf, rbuf, count, of(dt), of(op)); });
}

template <ReductionFn Algorithm>
int ireduction_entry(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op,
                     tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) { Algorithm(s, sbuf, rbuf, count, of(dt), of(op)); });
}

int reduce_scatter_entry(const void *sbuf, void *rbuf, const size_t *rcounts, mca_coll_dt_t dt, mca_coll_op_t op,
                         tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { reduce_scatter(s, sbuf, rbuf, rcounts, of(dt), of(op)); });
}

int ireduce_scatter_entry(const void *sbuf, void *rbuf, const size_t *rcounts, mca_coll_dt_t dt, mca_coll_op_t op,
                          tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { reduce_scatter(s, sbuf, rbuf, rcounts, of(dt), of(op)); });
}

int reduce_scatter_block_entry(const void *sbuf, void *rbuf, size_t rcount, mca_coll_dt_t dt, mca_coll_op_t op,
                               tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { reduce_scatter_block(s, sbuf, rbuf, rcount, of(dt), of(op)); });
}

int ireduce_scatter_block_entry(const void *sbuf, void *rbuf, size_t rcount, mca_coll_dt_t dt, mca_coll_op_t op,
                                tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { reduce_scatter_block(s, sbuf, rbuf, rcount, of(dt), of(op)); });
}

void module_release(mca_coll_base_module_t *module, tessera_comm *)
{
    delete module;
}

} // namespace

mca_coll_base_module_t *module_create()
{
    auto *m = new mca_coll_base_module_t{};
    m->coll_component = &mca_coll_tuned_component;
    m->coll_module_enable = nullptr; /* the decisions need nothing per communicator */
    m->coll_module_release = module_release;
    m->coll_barrier = barrier_entry;
    m->coll_bcast = bcast_entry;
    m->coll_gather = rooted_entry<gather>;
    m->coll_scatter = rooted_entry<scatter>;
    m->coll_allgather = exchange_entry<allgather>;
    m->coll_allgatherv = allgatherv_entry;
    m->coll_alltoall = exchange_entry<alltoall>;
    m->coll_reduce = reduce_entry;
    m->coll_allreduce = reduction_entry<allreduce>;
    m->coll_reduce_scatter = reduce_scatter_entry;
    m->coll_reduce_scatter_block = reduce_scatter_block_entry;
    m->coll_scan = reduction_entry<scan>;
    m->coll_exscan = reduction_entry<exscan>;
    m->coll_ibarrier = ibarrier_entry;
    m->coll_ibcast = ibcast_entry;
    m->coll_igather = irooted_entry<gather>;
    m->coll_iscatter = irooted_entry<scatter>;
    m->coll_iallgather = iexchange_entry<allgather>;
    m->coll_iallgatherv = iallgatherv_entry;
    m->coll_ialltoall = iexchange_entry<alltoall>;
    m->coll_ireduce = ireduce_entry;
    m->coll_iallreduce = ireduction_entry<allreduce>;
    m->coll_ireduce_scatter = ireduce_scatter_entry;
    m->coll_ireduce_scatter_block = ireduce_scatter_block_entry;
    m->coll_iscan = ireduction_entry<scan>;
    m->coll_iexscan = ireduction_entry<exscan>;
    return m;
}

} // namespace tessera::ompi::coll_tuned
