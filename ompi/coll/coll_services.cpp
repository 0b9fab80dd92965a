/* The C services for coll components (frameworks/coll/coll_services.h) over the library's own engine. */
#include "frameworks/coll/coll_services.h"

#include <memory>
#include <new>

#include <mpi.h>

#include "ompi/coll/coll_objects.h"
#include "ompi/coll/coll_schedule.h"
#include "ompi/datatype/convertor.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"

namespace {

using namespace tessera::ompi;

coll::Schedule *of(tessera_coll_schedule_t *s)
{
    return reinterpret_cast<coll::Schedule *>(s);
}

pml::Request *of(tessera_coll_p2p_t *r)
{
    return reinterpret_cast<pml::Request *>(r);
}

/* A traffic argument that would break isolation or name no process: refused before the engine sees it. */
int check_p2p(mca_coll_dt_t dt, int peer, int tag, tessera_comm *comm, tessera_coll_p2p_t **request)
{
    if (comm == nullptr || dt == nullptr || request == nullptr) {
        return MPI_ERR_ARG;
    }
    if (tag > pml::kTagCollFirst) {
        return MPI_ERR_TAG;
    }
    const int peers = coll::of(comm)->is_inter() ? coll::of(comm)->remote_size() : coll::of(comm)->size;
    if (peer != MPI_PROC_NULL && (peer < 0 || peer >= peers)) {
        return MPI_ERR_RANK;
    }
    return MPI_SUCCESS;
}

int finish(pml::Request *r)
{
    const int error = r->status.MPI_ERROR;
    pml::request_release(r);
    return error;
}

} // namespace

extern "C" {

int tessera_coll_services_version(void)
{
    return TESSERA_COLL_SERVICES_VERSION_MAJOR * 1000 + TESSERA_COLL_SERVICES_VERSION_MINOR;
}

int tessera_coll_comm_rank(struct tessera_comm *comm)
{
    return coll::of(comm)->rank;
}

int tessera_coll_comm_size(struct tessera_comm *comm)
{
    return coll::of(comm)->size;
}

int tessera_coll_comm_is_inter(struct tessera_comm *comm)
{
    return coll::of(comm)->is_inter() ? 1 : 0;
}

int tessera_coll_comm_remote_size(struct tessera_comm *comm)
{
    return coll::of(comm)->remote_size();
}

int tessera_coll_next_tag(struct tessera_comm *comm)
{
    return coll::collective_tag(coll::of(comm));
}

int tessera_coll_isend(const void *buf, size_t count, mca_coll_dt_t dt, int peer, int tag,
                       struct tessera_comm *comm, tessera_coll_p2p_t **request)
{
    if (const int rc = check_p2p(dt, peer, tag, comm, request); rc != MPI_SUCCESS) {
        return rc;
    }
    *request = reinterpret_cast<tessera_coll_p2p_t *>(
        pml::isend(buf, count, coll::of(dt), peer, tag, coll::of(comm)));
    return MPI_SUCCESS;
}

int tessera_coll_irecv(void *buf, size_t count, mca_coll_dt_t dt, int peer, int tag, struct tessera_comm *comm,
                       tessera_coll_p2p_t **request)
{
    if (const int rc = check_p2p(dt, peer, tag, comm, request); rc != MPI_SUCCESS) {
        return rc;
    }
    *request =
        reinterpret_cast<tessera_coll_p2p_t *>(pml::irecv(buf, count, coll::of(dt), peer, tag, coll::of(comm)));
    return MPI_SUCCESS;
}

int tessera_coll_send(const void *buf, size_t count, mca_coll_dt_t dt, int peer, int tag,
                      struct tessera_comm *comm)
{
    tessera_coll_p2p_t *r = nullptr;
    const int rc = tessera_coll_isend(buf, count, dt, peer, tag, comm, &r);
    return rc != MPI_SUCCESS ? rc : tessera_coll_wait(&r);
}

int tessera_coll_recv(void *buf, size_t count, mca_coll_dt_t dt, int peer, int tag, struct tessera_comm *comm)
{
    tessera_coll_p2p_t *r = nullptr;
    const int rc = tessera_coll_irecv(buf, count, dt, peer, tag, comm, &r);
    return rc != MPI_SUCCESS ? rc : tessera_coll_wait(&r);
}

int tessera_coll_wait(tessera_coll_p2p_t **request)
{
    if (request == nullptr || *request == nullptr) {
        return MPI_SUCCESS;
    }
    pml::Request *r = of(*request);
    *request = nullptr;
    pml::wait_for(r);
    return finish(r);
}

int tessera_coll_waitall(size_t n, tessera_coll_p2p_t **requests)
{
    int first = MPI_SUCCESS;
    for (size_t i = 0; i < n; ++i) {
        const int rc = tessera_coll_wait(&requests[i]);
        if (first == MPI_SUCCESS) {
            first = rc;
        }
    }
    return first;
}

int tessera_coll_test(tessera_coll_p2p_t **request, int *done)
{
    if (done == nullptr) {
        return MPI_ERR_ARG;
    }
    if (request == nullptr || *request == nullptr) {
        *done = 1;
        return MPI_SUCCESS;
    }
    pml::Request *r = of(*request);
    if (!r->complete) {
        pml::progress();
    }
    *done = r->complete ? 1 : 0;
    if (!r->complete) {
        return MPI_SUCCESS;
    }
    *request = nullptr;
    return finish(r);
}

int tessera_coll_progress(void)
{
    return pml::progress();
}

mca_coll_dt_t tessera_coll_type_bytes(void)
{
    return coll::to_c(datatype_lookup(MPI_BYTE));
}

size_t tessera_coll_type_size(mca_coll_dt_t dt)
{
    return coll::of(dt)->size;
}

ptrdiff_t tessera_coll_type_lb(mca_coll_dt_t dt)
{
    return coll::of(dt)->lb;
}

ptrdiff_t tessera_coll_type_extent(mca_coll_dt_t dt)
{
    return coll::of(dt)->extent;
}

int tessera_coll_pack(const void *buf, size_t count, mca_coll_dt_t dt, size_t offset, void *out, size_t len)
{
    if (dt == nullptr || offset + len > count * coll::of(dt)->size) {
        return MPI_ERR_ARG;
    }
    convertor_pack(buf, count, *coll::of(dt), offset, out, len);
    return MPI_SUCCESS;
}

int tessera_coll_unpack(void *buf, size_t count, mca_coll_dt_t dt, size_t offset, const void *in, size_t len)
{
    if (dt == nullptr || offset + len > count * coll::of(dt)->size) {
        return MPI_ERR_ARG;
    }
    convertor_unpack(buf, count, *coll::of(dt), offset, in, len);
    return MPI_SUCCESS;
}

int tessera_coll_copy(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount,
                      mca_coll_dt_t rdt)
{
    if (sdt == nullptr || rdt == nullptr) {
        return MPI_ERR_ARG;
    }
    if (scount * coll::of(sdt)->size > rcount * coll::of(rdt)->size) {
        return MPI_ERR_TRUNCATE;
    }
    convertor_copy(sbuf, scount, *coll::of(sdt), rbuf, rcount, *coll::of(rdt));
    return MPI_SUCCESS;
}

int tessera_coll_reduce_local(const void *in, void *inout, size_t count, mca_coll_dt_t dt, mca_coll_op_t op)
{
    if (dt == nullptr || op == nullptr) {
        return MPI_ERR_ARG;
    }
    op_reduce(coll::of(op), in, inout, count, coll::of(dt));
    return MPI_SUCCESS;
}

int tessera_coll_op_commutative(mca_coll_op_t op)
{
    return coll::of(op)->commutative ? 1 : 0;
}

int tessera_coll_in_place(const void *buf)
{
    return buf == MPI_IN_PLACE ? 1 : 0;
}

tessera_coll_schedule_t *tessera_coll_schedule_create(struct tessera_comm *comm)
{
    if (comm == nullptr) {
        return nullptr;
    }
    try {
        return reinterpret_cast<tessera_coll_schedule_t *>(new coll::Schedule(coll::of(comm)));
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

int tessera_coll_schedule_send(tessera_coll_schedule_t *s, const void *buf, size_t count, mca_coll_dt_t dt,
                               int peer)
{
    if (s == nullptr || dt == nullptr) {
        return MPI_ERR_ARG;
    }
    of(s)->send(buf, count, coll::of(dt), peer);
    return MPI_SUCCESS;
}

int tessera_coll_schedule_recv(tessera_coll_schedule_t *s, void *buf, size_t count, mca_coll_dt_t dt, int peer)
{
    if (s == nullptr || dt == nullptr) {
        return MPI_ERR_ARG;
    }
    of(s)->recv(buf, count, coll::of(dt), peer);
    return MPI_SUCCESS;
}

int tessera_coll_schedule_copy(tessera_coll_schedule_t *s, const void *sbuf, size_t scount, mca_coll_dt_t sdt,
                               void *rbuf, size_t rcount, mca_coll_dt_t rdt)
{
    if (s == nullptr || sdt == nullptr || rdt == nullptr) {
        return MPI_ERR_ARG;
    }
    of(s)->copy(sbuf, scount, coll::of(sdt), rbuf, rcount, coll::of(rdt));
    return MPI_SUCCESS;
}

int tessera_coll_schedule_reduce(tessera_coll_schedule_t *s, const void *in, void *inout, size_t count,
                                 mca_coll_dt_t dt, mca_coll_op_t op)
{
    if (s == nullptr || dt == nullptr || op == nullptr) {
        return MPI_ERR_ARG;
    }
    of(s)->reduce(in, inout, count, coll::of(dt), coll::of(op));
    return MPI_SUCCESS;
}

int tessera_coll_schedule_round(tessera_coll_schedule_t *s)
{
    if (s == nullptr) {
        return MPI_ERR_ARG;
    }
    of(s)->round();
    return MPI_SUCCESS;
}

void *tessera_coll_schedule_scratch(tessera_coll_schedule_t *s, size_t count, mca_coll_dt_t dt)
{
    return s == nullptr || dt == nullptr ? nullptr : of(s)->scratch(count, coll::of(dt));
}

int tessera_coll_schedule_run(tessera_coll_schedule_t *s)
{
    if (s == nullptr) {
        return MPI_ERR_ARG;
    }
    std::unique_ptr<coll::Schedule> owned(of(s));
    return coll::run(*owned);
}

int tessera_coll_schedule_start(tessera_coll_schedule_t *s, struct tessera_request **request)
{
    if (s == nullptr || request == nullptr) {
        delete of(s);
        return MPI_ERR_ARG;
    }
    pml::Request *r = nullptr;
    const int rc = coll::start_request(std::unique_ptr<coll::Schedule>(of(s)), &r);
    *request = coll::to_c(r);
    return rc;
}

void tessera_coll_schedule_free(tessera_coll_schedule_t *s)
{
    delete of(s);
}

} // extern "C"
