/* coll neighbor: the module's entries — each runs its schedule to the end (blocking form) or starts it
 * as a request (non-blocking form), over the neighbourhood the module keeps. */
#include "components/coll/neighbor/coll_neighbor.h"

namespace tessera::ompi::coll_neighbor {

namespace {

using coll::of;

const Neighborhood &neighbors(mca_coll_base_module_t *module)
{
    return *static_cast<const Neighborhood *>(module->module_state);
}

/* The blocking form (request == nullptr) or the non-blocking one of a schedule builder. */
template <typename Build>
int run(tessera_comm *comm, tessera_request **request, Build build)
{
    if (request == nullptr) {
        return coll::run_blocking(of(comm), build);
    }
    pml::Request *r = nullptr;
    const int rc = coll::run_nonblocking(of(comm), &r, build);
    *request = coll::to_c(r);
    return rc;
}

int allgather_any(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                  tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *module)
{
    const Neighborhood &n = neighbors(module);
    return run(comm, request, [&](Schedule &s) { allgather(s, n, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

int allgatherv_any(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                   const ptrdiff_t *displs, mca_coll_dt_t rdt, tessera_request **request, tessera_comm *comm,
                   mca_coll_base_module_t *module)
{
    const Neighborhood &n = neighbors(module);
    return run(comm, request,
               [&](Schedule &s) { allgatherv(s, n, sbuf, scount, of(sdt), rbuf, rcounts, displs, of(rdt)); });
}

int alltoall_any(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                 tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *module)
{
    const Neighborhood &n = neighbors(module);
    return run(comm, request, [&](Schedule &s) { alltoall(s, n, sbuf, scount, of(sdt), rbuf, rcount, of(rdt)); });
}

int alltoallv_any(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, mca_coll_dt_t sdt, void *rbuf,
                  const size_t *rcounts, const ptrdiff_t *rdispls, mca_coll_dt_t rdt, tessera_request **request,
                  tessera_comm *comm, mca_coll_base_module_t *module)
{
    const Neighborhood &n = neighbors(module);
    return run(comm, request, [&](Schedule &s) {
        alltoallv(s, n, sbuf, scounts, sdispls, of(sdt), rbuf, rcounts, rdispls, of(rdt));
    });
}

int alltoallw_any(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, const mca_coll_dt_t *sdts,
                  void *rbuf, const size_t *rcounts, const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts,
                  tessera_request **request, tessera_comm *comm, mca_coll_base_module_t *module)
{
    const Neighborhood &n = neighbors(module);
    return run(comm, request,
               [&](Schedule &s) { alltoallw(s, n, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts); });
}

/* The module's entries: the blocking ones pass no request. */
int allgather_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                    tessera_comm *comm, mca_coll_base_module_t *module)
{
    return allgather_any(sbuf, scount, sdt, rbuf, rcount, rdt, nullptr, comm, module);
}

int allgatherv_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                     const ptrdiff_t *displs, mca_coll_dt_t rdt, tessera_comm *comm, mca_coll_base_module_t *module)
{
    return allgatherv_any(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, nullptr, comm, module);
}

int alltoall_entry(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                   tessera_comm *comm, mca_coll_base_module_t *module)
{
    return alltoall_any(sbuf, scount, sdt, rbuf, rcount, rdt, nullptr, comm, module);
}

int alltoallv_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, mca_coll_dt_t sdt, void *rbuf,
                    const size_t *rcounts, const ptrdiff_t *rdispls, mca_coll_dt_t rdt, tessera_comm *comm,
                    mca_coll_base_module_t *module)
{
    return alltoallv_any(sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, nullptr, comm, module);
}

int alltoallw_entry(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls, const mca_coll_dt_t *sdts,
                    void *rbuf, const size_t *rcounts, const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts,
                    tessera_comm *comm, mca_coll_base_module_t *module)
{
    return alltoallw_any(sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, nullptr, comm, module);
}

void module_release(mca_coll_base_module_t *module, tessera_comm *)
{
    delete static_cast<Neighborhood *>(module->module_state);
    delete module;
}

} // namespace

mca_coll_base_module_t *module_create(const Neighborhood &neighbors)
{
    auto *m = new mca_coll_base_module_t{};
    m->coll_component = &mca_coll_neighbor_component;
    m->coll_module_enable = nullptr;
    m->coll_module_release = module_release;
    m->coll_neighbor_allgather = allgather_entry;
    m->coll_neighbor_allgatherv = allgatherv_entry;
    m->coll_neighbor_alltoall = alltoall_entry;
    m->coll_neighbor_alltoallv = alltoallv_entry;
    m->coll_neighbor_alltoallw = alltoallw_entry;
    m->coll_ineighbor_allgather = allgather_any;
    m->coll_ineighbor_allgatherv = allgatherv_any;
    m->coll_ineighbor_alltoall = alltoall_any;
    m->coll_ineighbor_alltoallv = alltoallv_any;
    m->coll_ineighbor_alltoallw = alltoallw_any;
    m->module_state = new Neighborhood(neighbors);
    return m;
}

} // namespace tessera::ompi::coll_neighbor
