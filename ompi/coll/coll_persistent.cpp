/* Persistent collectives (coll_persistent.h): a request that remembers the call's arguments and runs
 * the I-form again at each start. The arguments are the application's, kept as it gave them: MPI-4.1
 * 6.13 lets it change none of the arrays before the request is freed; a datatype or op it frees
 * meanwhile makes the next start fail with MPI_ERR_TYPE or MPI_ERR_OP. */
#include "ompi/coll/coll_persistent.h"

#include <functional>
#include <memory>

#include "ompi/coll/coll_checks.h"
#include "ompi/coll/coll_schedule.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/pml/pml_engine.h"

namespace tessera::ompi::coll {

namespace {

struct Persistent : pml::RequestWork {
    std::function<int(MPI_Request *)> start; /* the I-form with the call's arguments */
    FixedTags tags;
};

} // namespace

int persistent(const char *function, MPI_Comm comm, MPI_Info info, MPI_Request *request,
               std::function<int(MPI_Request *)> start)
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
    work->start = std::move(start);
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
    if (!adopt_running(r, run)) { /* r completes with it, unless it is done (within the call: one process,
                                     * or nothing to move; or since, in another thread's progress pass) */
        r->status.MPI_ERROR = run->status.MPI_ERROR;
        r->active = true;
        r->complete = true;
        pml::request_release(run);
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::coll
