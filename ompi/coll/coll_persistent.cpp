/* Persistent collectives (coll_persistent.h): a request that remembers the call's arguments and runs
 * the I-form again at each start. The arguments are the application's, kept as it gave them: MPI-4.1
 * 6.13 lets it change none of the arrays before the request is freed; a datatype or op it frees
 * meanwhile makes the next start fail with MPI_ERR_TYPE or MPI_ERR_OP. */
#include "ompi/coll/coll_persistent.h"

#include <functional>
#include <memory>

#include "ompi/coll/coll_checks.h"
#include "ompi/coll/coll_functions.h"
#include "ompi/coll/coll_schedule.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/topo/neighbor_functions.h"

namespace tessera::ompi::coll {

namespace {

struct Persistent : pml::RequestWork {
    std::function<int(MPI_Request *)> start; /* the I-form with the call's arguments */
    FixedTags tags;
};

/* The _init call: the I-form's checks, named after it, then the inactive request. */
template <typename Start>
int persistent(const char *function, MPI_Comm comm, MPI_Info info, MPI_Request *request, Start start)
{
    *request = MPI_REQUEST_NULL;
    {
        const PersistentCall init{function, true};
        const PersistentCallScope scope(init);
        MPI_Request none = MPI_REQUEST_NULL;
        if (int rc = start(&none); rc != MPI_SUCCESS) {
            return rc;
        }
    }
    Communicator *c = comm_lookup(comm);
    if (info != MPI_INFO_NULL && info_lookup(info) == nullptr) {
        return raise_on_comm(comm, MPI_ERR_INFO, function, "invalid info object in argument 'info'");
    }
    auto work = std::make_unique<Persistent>();
    work->start = start;
    work->tags = reserve_tags(c);
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Coll;
    r->persistent = true;
    r->active = false;
    r->complete = true;
    pml::request_set_comm(r, c);
    r->work = std::move(work);
    *request = pml::to_handle(r);
    return MPI_SUCCESS;
}

} // namespace

int start_persistent(pml::Request *r)
{
    auto &p = static_cast<Persistent &>(*r->work);
    MPI_Request started = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS;
    {
        const PersistentCall start{"MPI_Start", false};
        const PersistentCallScope scope(start);
        const FixedTagScope tags(p.tags);
        rc = p.start(&started);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    pml::status_empty(&r->status);
    pml::Request *run = pml::from_handle(started);
    if (run->complete) { /* done within the call (one process, or nothing to move) */
        r->status.MPI_ERROR = run->status.MPI_ERROR;
        r->active = true;
        r->complete = true;
        pml::request_release(run);
    } else {
        pml::adopt(r, run); /* r completes with it */
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::coll

namespace tessera::ompi::native {

using coll::persistent;

int allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Allgather_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, started);
                      });
}

int allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Allgather_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return iallgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                              started);
                      });
}

int allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Allgatherv_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                                             started);
                      });
}

int allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Allgatherv_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return iallgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                               comm, started);
                      });
}

int allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Allreduce_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return iallreduce(sendbuf, recvbuf, count, datatype, op, comm, started);
                      });
}

int allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Allreduce_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return iallreduce_c(sendbuf, recvbuf, count, datatype, op, comm, started);
                      });
}

int alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Alltoall_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, started);
                      });
}

int alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Alltoall_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ialltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, started);
                      });
}

int alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Alltoallv_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                            recvtype, comm, started);
                      });
}

int alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Alltoallv_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ialltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                              recvtype, comm, started);
                      });
}

int alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Alltoallw_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                            recvtypes, comm, started);
                      });
}

int alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    return persistent("MPI_Alltoallw_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ialltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                              recvtypes, comm, started);
                      });
}

int barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Barrier_init", comm, info, request,
                      [=](MPI_Request *started) { return ibarrier(comm, started); });
}

int bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
               MPI_Request *request)
{
    return persistent("MPI_Bcast_init", comm, info, request,
                      [=](MPI_Request *started) { return ibcast(buffer, count, datatype, root, comm, started); });
}

int bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                 MPI_Request *request)
{
    return persistent("MPI_Bcast_init_c", comm, info, request,
                      [=](MPI_Request *started) { return ibcast_c(buffer, count, datatype, root, comm, started); });
}

int exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Exscan_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return iexscan(sendbuf, recvbuf, count, datatype, op, comm, started);
                      });
}

int exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Exscan_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return iexscan_c(sendbuf, recvbuf, count, datatype, op, comm, started);
                      });
}

int gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Gather_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                         started);
                      });
}

int gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Gather_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return igather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                           started);
                      });
}

int gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                 MPI_Request *request)
{
    return persistent("MPI_Gatherv_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                                          comm, started);
                      });
}

int gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Gatherv_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return igatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                                            comm, started);
                      });
}

int neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Neighbor_allgather_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                                     started);
                      });
}

int neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    return persistent("MPI_Neighbor_allgather_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                                       started);
                      });
}

int neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Neighbor_allgatherv_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                                      recvtype, comm, started);
                      });
}

int neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Neighbor_allgatherv_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                                        recvtype, comm, started);
                      });
}

int neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Neighbor_alltoall_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                                    started);
                      });
}

int neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    return persistent("MPI_Neighbor_alltoall_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                                      started);
                      });
}

int neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Neighbor_alltoallv_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                                     rdispls, recvtype, comm, started);
                      });
}

int neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    return persistent("MPI_Neighbor_alltoallv_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                                       rdispls, recvtype, comm, started);
                      });
}

int neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    return persistent("MPI_Neighbor_alltoallw_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                                     rdispls, recvtypes, comm, started);
                      });
}

int neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    return persistent("MPI_Neighbor_alltoallw_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ineighbor_alltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                                       rdispls, recvtypes, comm, started);
                      });
}

int reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Reduce_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, started);
                      });
}

int reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Reduce_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ireduce_c(sendbuf, recvbuf, count, datatype, op, root, comm, started);
                      });
}

int reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Reduce_scatter_block_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, started);
                      });
}

int reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Reduce_scatter_block_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ireduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm, started);
                      });
}

int reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Reduce_scatter_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, started);
                      });
}

int reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Reduce_scatter_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return ireduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, started);
                      });
}

int scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Scan_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return iscan(sendbuf, recvbuf, count, datatype, op, comm, started);
                      });
}

int scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Scan_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return iscan_c(sendbuf, recvbuf, count, datatype, op, comm, started);
                      });
}

int scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Scatter_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                          started);
                      });
}

int scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Scatter_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return iscatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                            started);
                      });
}

int scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return persistent("MPI_Scatterv_init", comm, info, request,
                      [=](MPI_Request *started) {
                          return iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                                           comm, started);
                      });
}

int scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    return persistent("MPI_Scatterv_init_c", comm, info, request,
                      [=](MPI_Request *started) {
                          return iscatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                                             comm, started);
                      });
}

} // namespace tessera::ompi::native
