/* coll basic: the module's entries — each runs its algorithm's schedule to the end (blocking form) or
 * starts it as a request (non-blocking form); the same entries serve intra- and intercommunicators
 * with the algorithms of each (Intra, Inter below). */
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

template <typename F>
int barrier_entry(tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [](Schedule &s) { F::barrier(s); });
}

template <typename F>
int ibarrier_entry(tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [](Schedule &s) { F::barrier(s); });
}

template <typename F>
int bcast_entry(void *buf, size_t count, mca_coll_dt_t dt, int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { F::bcast(s, buf, count, of(dt), root); });
}

template <typename F>
int ibcast_entry(void *buf, size_t count, mca_coll_dt_t dt, int root, tessera_request **request, tessera_comm *comm,
                 mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) { F::bcast(s, buf, count, of(dt), root); });
}

template <typename F>
int gather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                 int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { F::gather(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

template <typename F>
int igather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                  int root, tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { F::gather(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

template <typename F>
int gatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                  const ptrdiff_t *displs, mca_coll_dt_t rdt, int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm,
                    [&](Schedule &s) { F::gatherv(s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt), root); });
}

template <typename F>
int igatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                   const ptrdiff_t *displs, mca_coll_dt_t rdt, int root, tessera_request **request, tessera_comm *comm,
                   mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) {
        F::gatherv(s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt), root);
    });
}

template <typename F>
int scatter_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                  int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { F::scatter(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

template <typename F>
int iscatter_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                   int root, tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { F::scatter(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt), root); });
}

template <typename F>
int scatterv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *displs, mca_coll_dt_t sdt, void *rbuf,
                   size_t rcount, mca_coll_dt_t rdt, int root, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm,
                    [&](Schedule &s) { F::scatterv(s, sbuf, scounts, displs, of(sdt), rbuf, rcount, of(rdt), root); });
}

template <typename F>
int iscatterv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *displs, mca_coll_dt_t sdt, void *rbuf,
                    size_t rcount, mca_coll_dt_t rdt, int root, tessera_request **request, tessera_comm *comm,
                    mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) {
        F::scatterv(s, sbuf, scounts, displs, of(sdt), rbuf, rcount, of(rdt), root);
    });
}

template <typename F>
int allgather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                    tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { F::allgather(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

template <typename F>
int iallgather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount,
                     mca_coll_dt_t rdt, tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { F::allgather(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

template <typename F>
int allgatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                     const ptrdiff_t *displs, mca_coll_dt_t rdt, tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm,
                    [&](Schedule &s) { F::allgatherv(s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt)); });
}

template <typename F>
int iallgatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                      const ptrdiff_t *displs, mca_coll_dt_t rdt, tessera_request **request, tessera_comm *comm,
                      mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { F::allgatherv(s, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt)); });
}

template <typename F>
int alltoall_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                   tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { F::alltoall(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

template <typename F>
int ialltoall_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                    tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { F::alltoall(s, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

template <typename F>
int alltoallv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, mca_coll_dt_t sdt, void *rbuf,
                    const size_t *rcounts, const ptrdiff_t *rdispls, mca_coll_dt_t rdt, tessera_comm *comm,
                    mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) {
        F::alltoallv(s, sbuf, scounts, sdispls, of(sdt), rbuf, rcounts, rdispls, of(rdt));
    });
}

template <typename F>
int ialltoallv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, mca_coll_dt_t sdt,
                     void *rbuf, const size_t *rcounts, const ptrdiff_t *rdispls, mca_coll_dt_t rdt,
                     tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) {
        F::alltoallv(s, sbuf, scounts, sdispls, of(sdt), rbuf, rcounts, rdispls, of(rdt));
    });
}

template <typename F>
int alltoallw_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, const mca_coll_dt_t *sdts,
                    void *rbuf, const size_t *rcounts, const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts,
                    tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm,
                    [&](Schedule &s) { F::alltoallw(s, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts); });
}

template <typename F>
int ialltoallw_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, const mca_coll_dt_t *sdts,
                     void *rbuf, const size_t *rcounts, const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts,
                     tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) {
        F::alltoallw(s, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts);
    });
}

template <typename F>
int reduce_entry(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op, int root,
                 tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { F::reduce(s, sbuf, rbuf, count, of(dt), of(op), root); });
}

template <typename F>
int ireduce_entry(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op, int root,
                  tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request, [&](Schedule &s) { F::reduce(s, sbuf, rbuf, count, of(dt), of(op), root); });
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

template <typename F>
int reduce_scatter_entry(const void *sbuf, void *rbuf, const size_t *rcounts, mca_coll_dt_t dt, mca_coll_op_t op,
                         tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { F::reduce_scatter(s, sbuf, rbuf, rcounts, of(dt), of(op)); });
}

template <typename F>
int ireduce_scatter_entry(const void *sbuf, void *rbuf, const size_t *rcounts, mca_coll_dt_t dt, mca_coll_op_t op,
                          tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { F::reduce_scatter(s, sbuf, rbuf, rcounts, of(dt), of(op)); });
}

template <typename F>
int reduce_scatter_block_entry(const void *sbuf, void *rbuf, size_t rcount, mca_coll_dt_t dt, mca_coll_op_t op,
                               tessera_comm *comm, mca_coll_base_module_t *)
{
    return blocking(comm, [&](Schedule &s) { F::reduce_scatter_block(s, sbuf, rbuf, rcount, of(dt), of(op)); });
}

template <typename F>
int ireduce_scatter_block_entry(const void *sbuf, void *rbuf, size_t rcount, mca_coll_dt_t dt, mca_coll_op_t op,
                                tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *)
{
    return nonblocking(comm, request,
                       [&](Schedule &s) { F::reduce_scatter_block(s, sbuf, rbuf, rcount, of(dt), of(op)); });
}

void module_release(mca_coll_base_module_t *module, tessera_comm *)
{
    delete module;
}

/* The algorithms of one kind of communicator, as the entries call them. */
struct Intra {
    static constexpr auto barrier = coll_basic::barrier;
    static constexpr auto bcast = coll_basic::bcast;
    static constexpr auto gather = coll_basic::gather;
    static constexpr auto gatherv = coll_basic::gatherv;
    static constexpr auto scatter = coll_basic::scatter;
    static constexpr auto scatterv = coll_basic::scatterv;
    static constexpr auto allgather = coll_basic::allgather;
    static constexpr auto allgatherv = coll_basic::allgatherv;
    static constexpr auto alltoall = coll_basic::alltoall;
    static constexpr auto alltoallv = coll_basic::alltoallv;
    static constexpr auto alltoallw = coll_basic::alltoallw;
    static constexpr auto reduce = coll_basic::reduce;
    static constexpr auto allreduce = coll_basic::allreduce;
    static constexpr auto reduce_scatter = coll_basic::reduce_scatter;
    static constexpr auto reduce_scatter_block = coll_basic::reduce_scatter_block;
};

struct Inter {
    static constexpr auto barrier = inter::barrier;
    static constexpr auto bcast = inter::bcast;
    static constexpr auto gather = inter::gather;
    static constexpr auto gatherv = inter::gatherv;
    static constexpr auto scatter = inter::scatter;
    static constexpr auto scatterv = inter::scatterv;
    static constexpr auto allgather = inter::allgather;
    static constexpr auto allgatherv = inter::allgatherv;
    static constexpr auto alltoall = inter::alltoall;
    static constexpr auto alltoallv = inter::alltoallv;
    static constexpr auto alltoallw = inter::alltoallw;
    static constexpr auto reduce = inter::reduce;
    static constexpr auto allreduce = inter::allreduce;
    static constexpr auto reduce_scatter = inter::reduce_scatter;
    static constexpr auto reduce_scatter_block = inter::reduce_scatter_block;
};

template <typename F>
void fill(mca_coll_base_module_t *m)
{
    m->coll_barrier = barrier_entry<F>;
    m->coll_bcast = bcast_entry<F>;
    m->coll_gather = gather_entry<F>;
    m->coll_gatherv = gatherv_entry<F>;
    m->coll_scatter = scatter_entry<F>;
    m->coll_scatterv = scatterv_entry<F>;
    m->coll_allgather = allgather_entry<F>;
    m->coll_allgatherv = allgatherv_entry<F>;
    m->coll_alltoall = alltoall_entry<F>;
    m->coll_alltoallv = alltoallv_entry<F>;
    m->coll_alltoallw = alltoallw_entry<F>;
    m->coll_reduce = reduce_entry<F>;
    m->coll_allreduce = everyone_entry<F::allreduce>;
    m->coll_reduce_scatter = reduce_scatter_entry<F>;
    m->coll_reduce_scatter_block = reduce_scatter_block_entry<F>;
    m->coll_ibarrier = ibarrier_entry<F>;
    m->coll_ibcast = ibcast_entry<F>;
    m->coll_igather = igather_entry<F>;
    m->coll_igatherv = igatherv_entry<F>;
    m->coll_iscatter = iscatter_entry<F>;
    m->coll_iscatterv = iscatterv_entry<F>;
    m->coll_iallgather = iallgather_entry<F>;
    m->coll_iallgatherv = iallgatherv_entry<F>;
    m->coll_ialltoall = ialltoall_entry<F>;
    m->coll_ialltoallv = ialltoallv_entry<F>;
    m->coll_ialltoallw = ialltoallw_entry<F>;
    m->coll_ireduce = ireduce_entry<F>;
    m->coll_iallreduce = ieveryone_entry<F::allreduce>;
    m->coll_ireduce_scatter = ireduce_scatter_entry<F>;
    m->coll_ireduce_scatter_block = ireduce_scatter_block_entry<F>;
}

} // namespace

mca_coll_base_module_t *module_create(bool inter)
{
    auto *m = new mca_coll_base_module_t{};
    m->coll_component = &mca_coll_basic_component;
    m->coll_module_enable = nullptr; /* nothing kept per communicator */
    m->coll_module_release = module_release;
    if (inter) {
        fill<Inter>(m); /* no scan or exscan on an intercommunicator (MPI-4.1 6.11) */
        return m;
    }
    fill<Intra>(m);
    m->coll_scan = everyone_entry<scan>;
    m->coll_exscan = everyone_entry<exscan>;
    m->coll_iscan = ieveryone_entry<scan>;
    m->coll_iexscan = ieveryone_entry<exscan>;
    return m;
}

} // namespace tessera::ompi::coll_basic
