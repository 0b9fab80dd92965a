/* Starting persistent requests and completing requests (MPI-4.1 3.7.3-3.7.5, 3.8, 3.9). */
#include "ompi/pml/p2p_functions.h"

#include <string>

#include "ompi/coll/coll_persistent.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/p2p_generalized.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::native {

using pml::Request;

namespace {

/* A request MPI has finished with: its status to the caller (but MPI_ERROR: see take_all()); the handle
 * set to MPI_REQUEST_NULL unless it is persistent (then inactive). Returns the status's error. */
int retire(MPI_Request *handle, MPI_Status *status)
{
    Request *r = pml::from_handle(*handle);
    const int error = r->kind == pml::Kind::Generalized ? pml::generalized_retire(r) : r->status.MPI_ERROR;
    pml::status_deliver(status, r->status);
    if (r->persistent) {
        r->active = false;
    } else {
        pml::request_release(r);
        *handle = MPI_REQUEST_NULL;
    }
    return error;
}

/* What MPI_Request_get_status and its array forms take of a complete request: its status, the request
 * left as it is (a generalized request's query_fn fills it first). Returns the status's error. */
int peek(MPI_Request *handle, MPI_Status *status)
{
    Request *r = pml::from_handle(*handle);
    if (r->kind == pml::Kind::Generalized) {
        pml::generalized_query(r);
    }
    pml::status_deliver(status, r->status);
    return r->status.MPI_ERROR;
}

/* retire() or peek(): how a completion call takes a complete request. */
using Take = int (*)(MPI_Request *handle, MPI_Status *status);

bool inactive(MPI_Request h)
{
    const Request *r = pml::from_handle(h);
    return r == nullptr || (r->persistent && !r->active);
}

/* The status of an inactive request, for a call that completes one. */
void empty(MPI_Status *status)
{
    pml::status_deliver_empty(status, MPI_ANY_SOURCE);
}

/* A status of the array of a call that completes several: MPI_ERROR set too, which the application
 * reads after MPI_ERR_IN_STATUS. */
void array_entry(MPI_Status *status, int error)
{
    if (status != MPI_STATUS_IGNORE) {
        status->MPI_ERROR = error;
    }
}

/* Where an error of the request is raised: its communicator's handler. Taken before retire(), which
 * lets go of the communicator. A generalized request belongs to no communicator: MPI_COMM_SELF, as for
 * other such objects. */
MPI_Comm error_comm(const Request *r)
{
    return r->comm == nullptr ? MPI_COMM_SELF : comm_handle(r->comm);
}

int raise_request_error(const char *function, MPI_Comm on, int error)
{
    return raise_on_comm(on, error, function, pml::request_error_text(error));
}

/* Takes one complete request; its error, if any, is raised on the request's communicator (found before
 * retire() lets go of it). */
int take_one(const char *function, MPI_Request *handle, MPI_Status *status, Take take)
{
    const MPI_Comm on = error_comm(pml::from_handle(*handle));
    const int error = take(handle, status);
    return error == MPI_SUCCESS ? MPI_SUCCESS : raise_request_error(function, on, error);
}

bool all_complete(int count, const MPI_Request array_of_requests[])
{
    for (int i = 0; i < count; ++i) {
        if (!inactive(array_of_requests[i]) && !pml::from_handle(array_of_requests[i])->complete) {
            return false;
        }
    }
    return true;
}

/* Every request's status, all of them complete or inactive; MPI_ERR_IN_STATUS when one failed. */
int take_all(const char *function, int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[],
             Take take)
{
    int failed = 0;
    MPI_Comm first_failed = MPI_COMM_NULL;
    for (int i = 0; i < count; ++i) {
        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[i];
        if (inactive(array_of_requests[i])) {
            if (st != MPI_STATUS_IGNORE) {
                pml::status_empty(st); /* MPI_ERROR too: an entry of the array */
            }
            continue;
        }
        const MPI_Comm on = error_comm(pml::from_handle(array_of_requests[i]));
        const int error = take(&array_of_requests[i], st);
        array_entry(st, error);
        if (error != MPI_SUCCESS) {
            first_failed = failed == 0 ? on : first_failed;
            ++failed;
        }
    }
    return failed == 0 ? MPI_SUCCESS : raise_request_error(function, first_failed, MPI_ERR_IN_STATUS);
}

/* The first complete one among active requests, or flag 0 (flag 1 and MPI_UNDEFINED when none is
 * active). */
int take_any(const char *function, int count, MPI_Request array_of_requests[], int *indx, int *flag,
             MPI_Status *status, Take take)
{
    bool any_active = false;
    for (int i = 0; i < count; ++i) {
        if (inactive(array_of_requests[i])) {
            continue;
        }
        any_active = true;
        if (pml::from_handle(array_of_requests[i])->complete) {
            *indx = i;
            *flag = 1;
            return take_one(function, &array_of_requests[i], status, take);
        }
    }
    *indx = MPI_UNDEFINED;
    *flag = any_active ? 0 : 1;
    if (!any_active) {
        empty(status);
    }
    return MPI_SUCCESS;
}

/* The complete ones among active requests into indices/statuses; MPI_UNDEFINED when none is active. */
int collect_some(const char *function, int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[], Take take)
{
    bool any_active = false;
    int n = 0, failed = 0;
    MPI_Comm first_failed = MPI_COMM_NULL;
    for (int i = 0; i < incount; ++i) {
        if (inactive(array_of_requests[i])) {
            continue;
        }
        any_active = true;
        const Request *r = pml::from_handle(array_of_requests[i]);
        if (!r->complete) {
            continue;
        }
        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[n];
        array_of_indices[n++] = i;
        const MPI_Comm on = error_comm(r);
        const int error = take(&array_of_requests[i], st);
        array_entry(st, error);
        if (error != MPI_SUCCESS) {
            first_failed = failed == 0 ? on : first_failed;
            ++failed;
        }
    }
    *outcount = any_active ? n : MPI_UNDEFINED;
    return failed == 0 ? MPI_SUCCESS : raise_request_error(function, first_failed, MPI_ERR_IN_STATUS);
}

/* MPI_ERR_REQUEST for handle `i` of `count`, which names no request. Apart from the checks so that
 * the completion calls' fast path builds no message. */
[[gnu::noinline, gnu::cold]] int refuse_request(const char *function, int count, int i)
{
    const std::string which = count == 1 ? "the request" : "request " + std::to_string(i) + " of the array";
    return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_REQUEST, function,
                         which + " is not a live request: completed and freed already (a stale copy of its "
                                 "handle?) or never made");
}

/* MPI_ERR_REQUEST for the first handle of `count` that names no request: one already completed and
 * released (a copy of a handle MPI set to MPI_REQUEST_NULL), or a made-up value. Checked before
 * anything is taken, so that a bad array changes no request. */
inline int check_requests(const char *function, int count, const MPI_Request handles[])
{
    for (int i = 0; i < count; ++i) {
        if (handles[i] != MPI_REQUEST_NULL && pml::request_lookup(handles[i]) == nullptr) [[unlikely]] {
            return refuse_request(function, count, i);
        }
    }
    return MPI_SUCCESS;
}

/* check_requests and all_complete in one pass, for MPI_Waitall and MPI_Testall, whose requests are
 * often complete already: -1 and whether all are complete, or the index of the first handle that
 * names no request (nothing is taken then). */
inline int check_all_complete(int count, const MPI_Request handles[], bool *complete)
{
    bool all = true;
    for (int i = 0; i < count; ++i) {
        if (handles[i] == MPI_REQUEST_NULL) {
            continue;
        }
        const Request *r = pml::request_lookup(handles[i]);
        if (r == nullptr) [[unlikely]] {
            return i;
        }
        all = all && (r->complete || (r->persistent && !r->active));
    }
    *complete = all;
    return -1;
}

/* The MPI_Request_get_status forms read the application's requests without changing them: peek()
 * writes nothing through the handle. */
MPI_Request *unchanged(const MPI_Request array_of_requests[])
{
    return const_cast<MPI_Request *>(array_of_requests);
}

} // namespace

int start(MPI_Request *request)
{
    if (int rc = check_requests("MPI_Start", 1, request); rc != MPI_SUCCESS) {
        return rc;
    }
    Request *r = pml::from_handle(*request);
    if (r == nullptr || !r->persistent || r->active) {
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Start",
                             "the request is not an inactive persistent request");
    }
    if (r->kind == pml::Kind::Coll) {
        return coll::start_persistent(r);
    }
    if (r->peer == MPI_PROC_NULL) {
        r->active = true;
        return MPI_SUCCESS;
    }
    if (r->kind == pml::Kind::Send && r->mode == pml::SendMode::Buffered) {
        return start_bsend(r);
    }
    const int rc = r->kind == pml::Kind::Send ? pml::start_send(r) : pml::start_recv(r);
    if (rc != MPI_SUCCESS) {
        return raise_on_comm(comm_handle(r->comm), rc, "MPI_Start",
                             "rank " + std::to_string(r->peer) + " cannot be reached");
    }
    return MPI_SUCCESS;
}

int startall(int count, MPI_Request array_of_requests[])
{
    for (int i = 0; i < count; ++i) {
        if (int rc = start(&array_of_requests[i]); rc != MPI_SUCCESS) {
            return rc;
        }
    }
    return MPI_SUCCESS;
}

int wait(MPI_Request *request, MPI_Status *status)
{
    if (int rc = check_requests("MPI_Wait", 1, request); rc != MPI_SUCCESS) {
        return rc;
    }
    if (inactive(*request)) {
        empty(status);
        return MPI_SUCCESS;
    }
    Request *r = pml::from_handle(*request);
    pml::wait_for(r);
    return take_one("MPI_Wait", request, status, retire);
}

int test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (int rc = check_requests("MPI_Test", 1, request); rc != MPI_SUCCESS) {
        return rc;
    }
    if (inactive(*request)) {
        *flag = 1;
        empty(status);
        return MPI_SUCCESS;
    }
    Request *r = pml::from_handle(*request);
    if (!r->complete) {
        pml::progress();
    }
    *flag = r->complete;
    if (!r->complete) {
        return MPI_SUCCESS;
    }
    return take_one("MPI_Test", request, status, retire);
}

int waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    bool complete = false;
    if (int bad = check_all_complete(count, array_of_requests, &complete); bad >= 0) {
        return refuse_request("MPI_Waitall", count, bad);
    }
    if (!complete) {
        pml::wait_until([&] { return all_complete(count, array_of_requests); });
    }
    return take_all("MPI_Waitall", count, array_of_requests, array_of_statuses, retire);
}

int testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
{
    bool complete = false;
    if (int bad = check_all_complete(count, array_of_requests, &complete); bad >= 0) {
        return refuse_request("MPI_Testall", count, bad);
    }
    if (!complete) {
        pml::progress();
        complete = all_complete(count, array_of_requests);
    }
    *flag = complete;
    return *flag ? take_all("MPI_Testall", count, array_of_requests, array_of_statuses, retire) : MPI_SUCCESS;
}

int waitany(int count, MPI_Request array_of_requests[], int *indx, MPI_Status *status)
{
    if (int rc = check_requests("MPI_Waitany", count, array_of_requests); rc != MPI_SUCCESS) {
        return rc;
    }
    /* MPI_Testany until it finds a complete request or no active one (flag 1 either way). */
    int rc = MPI_SUCCESS, flag = 0;
    pml::wait_until([&] {
        rc = take_any("MPI_Waitany", count, array_of_requests, indx, &flag, status, retire);
        return flag != 0;
    });
    return rc;
}

int testany(int count, MPI_Request array_of_requests[], int *indx, int *flag, MPI_Status *status)
{
    if (int rc = check_requests("MPI_Testany", count, array_of_requests); rc != MPI_SUCCESS) {
        return rc;
    }
    pml::progress();
    return take_any("MPI_Testany", count, array_of_requests, indx, flag, status, retire);
}

int waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
             MPI_Status array_of_statuses[])
{
    if (int rc = check_requests("MPI_Waitsome", incount, array_of_requests); rc != MPI_SUCCESS) {
        return rc;
    }
    /* MPI_Testsome until it takes a request or finds no active one (MPI_UNDEFINED). */
    int rc = MPI_SUCCESS;
    pml::wait_until([&] {
        rc = collect_some("MPI_Waitsome", incount, array_of_requests, outcount, array_of_indices, array_of_statuses,
                          retire);
        return *outcount != 0;
    });
    return rc;
}

int testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
             MPI_Status array_of_statuses[])
{
    if (int rc = check_requests("MPI_Testsome", incount, array_of_requests); rc != MPI_SUCCESS) {
        return rc;
    }
    pml::progress();
    return collect_some("MPI_Testsome", incount, array_of_requests, outcount, array_of_indices, array_of_statuses,
                        retire);
}

int request_free(MPI_Request *request)
{
    if (int rc = check_requests("MPI_Request_free", 1, request); rc != MPI_SUCCESS) {
        return rc;
    }
    Request *r = pml::from_handle(*request);
    if (r == nullptr) {
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free", "the request is MPI_REQUEST_NULL");
    }
    /* A generalized request's free_fn runs now, as in MPICH; the request waits for MPI_Grequest_complete. */
    const int freed = r->kind == pml::Kind::Generalized ? pml::generalized_free(r) : MPI_SUCCESS;
    /* Released here when it is done, else by whoever completes it (the engine, MPI_Grequest_complete):
     * the one atomic byte decides which, should that happen in another thread right now. */
    if ((r->persistent && !r->active) || (r->complete.abandon() & pml::Completion::kDone) != 0) {
        pml::request_release(r);
    }
    *request = MPI_REQUEST_NULL;
    return freed == MPI_SUCCESS ? MPI_SUCCESS
                                : raise_on_comm(MPI_COMM_SELF, freed, "MPI_Request_free", "the request's free_fn failed");
}

int request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    if (int rc = check_requests("MPI_Request_get_status", 1, &request); rc != MPI_SUCCESS) {
        return rc;
    }
    if (inactive(request)) {
        *flag = 1;
        empty(status);
        return MPI_SUCCESS;
    }
    if (!pml::from_handle(request)->complete) {
        pml::progress();
    }
    *flag = pml::from_handle(request)->complete;
    if (*flag) {
        (void)peek(&request, status); /* the error is the status's, not the call's */
    }
    return MPI_SUCCESS;
}

/* MPI-4.1 3.7.5: the array forms of MPI_Request_get_status, which neither free nor deactivate. */
int request_get_status_any(int count, const MPI_Request array_of_requests[], int *indx, int *flag,
                           MPI_Status *status)
{
    if (int rc = check_requests("MPI_Request_get_status_any", count, array_of_requests); rc != MPI_SUCCESS) {
        return rc;
    }
    pml::progress();
    return take_any("MPI_Request_get_status_any", count, unchanged(array_of_requests), indx, flag, status, peek);
}

int request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                           MPI_Status array_of_statuses[])
{
    if (int rc = check_requests("MPI_Request_get_status_all", count, array_of_requests); rc != MPI_SUCCESS) {
        return rc;
    }
    if (!all_complete(count, array_of_requests)) {
        pml::progress();
    }
    *flag = all_complete(count, array_of_requests);
    return *flag ? take_all("MPI_Request_get_status_all", count, unchanged(array_of_requests), array_of_statuses, peek)
                 : MPI_SUCCESS;
}

int request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                            int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (int rc = check_requests("MPI_Request_get_status_some", incount, array_of_requests); rc != MPI_SUCCESS) {
        return rc;
    }
    pml::progress();
    return collect_some("MPI_Request_get_status_some", incount, unchanged(array_of_requests), outcount,
                        array_of_indices, array_of_statuses, peek);
}

int cancel(MPI_Request *request)
{
    if (int rc = check_requests("MPI_Cancel", 1, request); rc != MPI_SUCCESS) {
        return rc;
    }
    Request *r = pml::from_handle(*request);
    if (r == nullptr) {
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel", "the request is MPI_REQUEST_NULL");
    }
    if (r->kind == pml::Kind::Generalized) {
        const int rc = pml::generalized_cancel(r);
        return rc == MPI_SUCCESS ? MPI_SUCCESS
                                 : raise_on_comm(MPI_COMM_SELF, rc, "MPI_Cancel", "the request's cancel_fn failed");
    }
    if (r->kind == pml::Kind::Coll) {
        return raise_on_comm(comm_handle(r->comm), MPI_ERR_REQUEST, "MPI_Cancel",
                             "the request is a non-blocking collective, which cannot be cancelled (MPI-4.1 6.12)");
    }
    /* A receive not matched yet is withdrawn; a send cannot be recalled once it left (as in Open MPI):
     * it completes normally and MPI_Test_cancelled says false. */
    if (r->kind == pml::Kind::Recv) {
        pml::cancel_recv(r);
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
