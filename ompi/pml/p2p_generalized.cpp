/* MPI_Grequest_start, MPI_Grequest_complete and the callbacks of generalized requests
 * (p2p_generalized.h). */
#include "ompi/pml/p2p_generalized.h"

#include <memory>

#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/p2p_functions.h"

namespace tessera::ompi::pml {

namespace {

struct Generalized : RequestWork {
    MPI_Grequest_query_function *query = nullptr;
    MPI_Grequest_free_function *free = nullptr;
    MPI_Grequest_cancel_function *cancel = nullptr;
    void *extra_state = nullptr;
};

Generalized &callbacks(Request *r)
{
    return *static_cast<Generalized *>(r->work.get());
}

} // namespace

int generalized_query(Request *r)
{
    /* The status starts empty: a query_fn may set only the fields it knows. */
    status_empty(&r->status);
    const int rc = callbacks(r).query(callbacks(r).extra_state, &r->status);
    r->status.MPI_ERROR = rc;
    return rc;
}

int generalized_free(Request *r)
{
    return callbacks(r).free(callbacks(r).extra_state);
}

int generalized_cancel(Request *r)
{
    return callbacks(r).cancel(callbacks(r).extra_state, r->complete ? 1 : 0);
}

int generalized_retire(Request *r)
{
    const int queried = generalized_query(r);
    const int freed = generalized_free(r);
    if (queried == MPI_SUCCESS && freed != MPI_SUCCESS) {
        r->status.MPI_ERROR = freed;
    }
    return r->status.MPI_ERROR;
}

} // namespace tessera::ompi::pml

namespace tessera::ompi::native {

int grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                   MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    if (query_fn == nullptr || free_fn == nullptr || cancel_fn == nullptr) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Grequest_start",
                             std::string("the ") + (query_fn == nullptr ? "query_fn" : free_fn == nullptr ? "free_fn" : "cancel_fn") +
                                 " callback is NULL");
    }
    auto work = std::make_unique<pml::Generalized>();
    work->query = query_fn;
    work->free = free_fn;
    work->cancel = cancel_fn;
    work->extra_state = extra_state;
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Generalized;
    r->active = true;
    r->complete = false;
    r->work = std::move(work);
    *request = pml::to_handle(r);
    return MPI_SUCCESS;
}

int grequest_complete(MPI_Request request)
{
    pml::Request *r = pml::request_lookup(request);
    if (r == nullptr || r->kind != pml::Kind::Generalized || r->complete) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Grequest_complete",
                             request == MPI_REQUEST_NULL ? "the request is MPI_REQUEST_NULL"
                             : r == nullptr ? "the request is not a live request (completed and freed already?)"
                             : r->kind != pml::Kind::Generalized ? "the request is not a generalized request"
                                                                         : "the request was completed already");
    }
    /* MPI_Request_free ran free_fn already when it let go: the request was only waiting for this. */
    if ((r->complete.finish() & pml::Completion::kFreed) != 0) {
        pml::request_release(r);
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
