/* coll basic: the module's entries — each runs its algorithm's schedule to the end (blocking form) or
 * starts it as a request (non-blocking form). */
#include "components/coll/basic/coll_basic.h"


namespace tessera::ompi::coll_basic {

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

int gather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                 int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { gather(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

int igather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                  int root, tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { gather(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

int gatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                  const ptrdiff_t *displs, mca_coll_dt_t rdt, int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm,
                    [&](Schedule &s) { gatherv(s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt), root); });
}

int igatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                   const ptrdiff_t *displs, mca_coll_dt_t rdt, int root, tessera_request **request, tessera_comm *comm,
                   mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) {
        gatherv(s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt), root);
    });
}

int scatter_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                  int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { scatter(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

int iscatter_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                   int root, tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { scatter(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

int scatterv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *displs, mca_coll_dt_t sdt, void *rbuf,
                   size_t rcount, mca_coll_dt_t rdt, int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm,
                    [&](Schedule &s) { scatterv(s, sbuf, scounts, displs, of(sdt), rbuf, rcount, of(rdt), root); });
}

int iscatterv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *displs, mca_coll_dt_t sdt, void *rbuf,
                    size_t rcount, mca_coll_dt_t rdt, int root, tessera_request **request, tessera_comm *comm,
                    mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) {
        scatterv(s, sbuf, scounts, displs, of(sdt), rbuf, rcount, of(rdt), root);
    });
}

int allgather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                    tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { allgather(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

int iallgather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount,
                     mca_coll_dt_t rdt, tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { allgather(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
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

int alltoall_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                   tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { alltoall(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

int ialltoall_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                    tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { alltoall(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

int alltoallv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, mca_coll_dt_t sdt, void *rbuf,
                    const size_t *rcounts, const ptrdiff_t *rdispls, mca_coll_dt_t rdt, tessera_comm *comm,
                    mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) {
        alltoallv(s, sbuf, scounts, sdispls, of(sdt), rbuf, rcounts, rdispls, of(rdt));
    });
}

int ialltoallv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, mca_coll_dt_t sdt,
                     void *rbuf, const size_t *rcounts, const ptrdiff_t *rdispls, mca_coll_dt_t rdt,
                     tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) {
        alltoallv(s, sbuf, scounts, sdispls, of(sdt), rbuf, rcounts, rdispls, of(rdt));
    });
}

int alltoallw_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, const mca_coll_dt_t *sdts,
                    void *rbuf, const size_t *rcounts, const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts,
                    tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm,
                    [&](Schedule &s) { alltoallw(s, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts); });
}

int ialltoallw_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, const mca_coll_dt_t *sdts,
                     void *rbuf, const size_t *rcounts, const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts,
                     tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) {
        alltoallw(s, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts);
    });
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

/* MPI_Allreduce, MPI_Scan and MPI_Exscan share their arguments: one pair of entries per algorithm. */
template <void (*Algorithm)(Schedule &, const void *, void *, std::size_t, const Datatype *, const Op *)>
int everyone_entry(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op, tessera_comm *comm,
                   mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { Algorithm(s, sbuf, rbuf, count, of(dt), of(op)); });
}

template <void (*Algorithm)(Schedule &, const void *, void *, std::size_t, const Datatype *, const Op *)>
int ieveryone_entry(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op,
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
    m->coll_component = &mca_coll_basic_component;
    m->coll_module_enable = nullptr; /* nothing kept per communicator */
    m->coll_module_release = module_release;
    m->coll_barrier = barrier_entry;
    m->coll_bcast = bcast_entry;
    m->coll_gather = gather_entry;
    m->coll_gatherv = gatherv_entry;
    m->coll_scatter = scatter_entry;
    m->coll_scatterv = scatterv_entry;
    m->coll_allgather = allgather_entry;
    m->coll_allgatherv = allgatherv_entry;
    m->coll_alltoall = alltoall_entry;
    m->coll_alltoallv = alltoallv_entry;
    m->coll_alltoallw = alltoallw_entry;
    m->coll_reduce = reduce_entry;
    m->coll_allreduce = everyone_entry<allreduce>;
    m->coll_reduce_scatter = reduce_scatter_entry;
    m->coll_reduce_scatter_block = reduce_scatter_block_entry;
    m->coll_scan = everyone_entry<scan>;
    m->coll_exscan = everyone_entry<exscan>;
    m->coll_ibarrier = ibarrier_entry;
    m->coll_ibcast = ibcast_entry;
    m->coll_igather = igather_entry;
    m->coll_igatherv = igatherv_entry;
    m->coll_iscatter = iscatter_entry;
    m->coll_iscatterv = iscatterv_entry;
    m->coll_iallgather = iallgather_entry;
    m->coll_iallgatherv = iallgatherv_entry;
    m->coll_ialltoall = ialltoall_entry;
    m->coll_ialltoallv = ialltoallv_entry;
    m->coll_ialltoallw = ialltoallw_entry;
    m->coll_ireduce = ireduce_entry;
    m->coll_iallreduce = ieveryone_entry<allreduce>;
    m->coll_ireduce_scatter = ireduce_scatter_entry;
    m->coll_ireduce_scatter_block = ireduce_scatter_block_entry;
    m->coll_iscan = ieveryone_entry<scan>;
    m->coll_iexscan = ieveryone_entry<exscan>;
    return m;
}

} // namespace tessera::ompi::coll_basic
