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

/* A request MPI has finished with: its status to the caller; the handle set to MPI_REQUEST_NULL
 * unless it is persistent (then inactive). Returns the status's error. */
int retire(MPI_Request *handle, MPI_Status *status)
{
    Request *r = pml::from_handle(*handle);
    const int error = r->kind == pml::Kind::Generalized ? pml::generalized_retire(r) : r->status.MPI_ERROR;
    if (status != MPI_STATUS_IGNORE) {
        *status = r->status;
    }
    if (r->persistent) {
        r->active = false;
    } else {
        pml::request_release(r);
        *handle = MPI_REQUEST_NULL;
    }
    return error;
}

bool inactive(MPI_Request h)
{
    const Request *r = pml::from_handle(h);
    return r == nullptr || (r->persistent && !r->active);
}

void empty(MPI_Status *status)
{
    if (status != MPI_STATUS_IGNORE) {
        pml::status_empty(status);
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

} // namespace

int start(MPI_Request *request)
{
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
    if (inactive(*request)) {
        empty(status);
        return MPI_SUCCESS;
    }
    Request *r = pml::from_handle(*request);
    pml::wait_for(r);
    const MPI_Comm on = error_comm(r);
    const int error = retire(request, status);
    return error == MPI_SUCCESS ? MPI_SUCCESS : raise_request_error("MPI_Wait", on, error);
}

int test(MPI_Request *request, int *flag, MPI_Status *status)
{
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
    const MPI_Comm on = error_comm(r);
    const int error = retire(request, status);
    return error == MPI_SUCCESS ? MPI_SUCCESS : raise_request_error("MPI_Test", on, error);
}

int waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    pml::wait_until([&] {
        for (int i = 0; i < count; ++i) {
            if (!inactive(array_of_requests[i]) && !pml::from_handle(array_of_requests[i])->complete) {
                return false;
            }
        }
        return true;
    });
    int failed = 0;
    MPI_Comm first_failed = MPI_COMM_NULL;
    for (int i = 0; i < count; ++i) {
        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[i];
        if (inactive(array_of_requests[i])) {
            empty(st);
            continue;
        }
        const MPI_Comm on = error_comm(pml::from_handle(array_of_requests[i]));
        if (retire(&array_of_requests[i], st) != MPI_SUCCESS) {
            first_failed = failed == 0 ? on : first_failed;
            ++failed;
        }
    }
    return failed == 0 ? MPI_SUCCESS : raise_request_error("MPI_Waitall", first_failed, MPI_ERR_IN_STATUS);
}

int testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
{
    auto all_done = [&] {
        for (int i = 0; i < count; ++i) {
            if (!inactive(array_of_requests[i]) && !pml::from_handle(array_of_requests[i])->complete) {
                return false;
            }
        }
        return true;
    };
    if (!all_done()) {
        pml::progress();
    }
    *flag = all_done();
    if (!*flag) {
        return MPI_SUCCESS;
    }
    return waitall(count, array_of_requests, array_of_statuses);
}

int waitany(int count, MPI_Request array_of_requests[], int *indx, MPI_Status *status)
{
    int found = MPI_UNDEFINED;
    bool any_active = false;
    pml::wait_until([&] {
        any_active = false;
        for (int i = 0; i < count; ++i) {
            if (inactive(array_of_requests[i])) {
                continue;
            }
            any_active = true;
            if (pml::from_handle(array_of_requests[i])->complete) {
                found = i;
                return true;
            }
        }
        return !any_active;
    });
    *indx = found;
    if (found == MPI_UNDEFINED) {
        empty(status);
        return MPI_SUCCESS;
    }
    const MPI_Comm on = error_comm(pml::from_handle(array_of_requests[found]));
    const int error = retire(&array_of_requests[found], status);
    return error == MPI_SUCCESS ? MPI_SUCCESS : raise_request_error("MPI_Waitany", on, error);
}

int testany(int count, MPI_Request array_of_requests[], int *indx, int *flag, MPI_Status *status)
{
    pml::progress();
    bool any_active = false;
    for (int i = 0; i < count; ++i) {
        if (inactive(array_of_requests[i])) {
            continue;
        }
        any_active = true;
        const Request *r = pml::from_handle(array_of_requests[i]);
        if (r->complete) {
            *indx = i;
            *flag = 1;
            const MPI_Comm on = error_comm(r);
            const int error = retire(&array_of_requests[i], status);
            return error == MPI_SUCCESS ? MPI_SUCCESS : raise_request_error("MPI_Testany", on, error);
        }
    }
    *indx = MPI_UNDEFINED;
    *flag = any_active ? 0 : 1;
    if (!any_active) {
        empty(status);
    }
    return MPI_SUCCESS;
}

namespace {

/* The complete ones among active requests into indices/statuses; MPI_UNDEFINED when none is active. */
int collect_some(const char *function, int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
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
        if (retire(&array_of_requests[i], st) != MPI_SUCCESS) {
            first_failed = failed == 0 ? on : first_failed;
            ++failed;
        }
    }
    *outcount = any_active ? n : MPI_UNDEFINED;
    return failed == 0 ? MPI_SUCCESS : raise_request_error(function, first_failed, MPI_ERR_IN_STATUS);
}

} // namespace

int waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
             MPI_Status array_of_statuses[])
{
    pml::wait_until([&] {
        bool any_active = false;
        for (int i = 0; i < incount; ++i) {
            if (inactive(array_of_requests[i])) {
                continue;
            }
            any_active = true;
            if (pml::from_handle(array_of_requests[i])->complete) {
                return true;
            }
        }
        return !any_active;
    });
    return collect_some("MPI_Waitsome", incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

int testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
             MPI_Status array_of_statuses[])
{
    pml::progress();
    return collect_some("MPI_Testsome", incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

int request_free(MPI_Request *request)
{
    Request *r = pml::from_handle(*request);
    if (r == nullptr) {
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free", "the request is MPI_REQUEST_NULL");
    }
    /* A generalized request's free_fn runs now, as in MPICH; the request waits for MPI_Grequest_complete. */
    const int freed = r->kind == pml::Kind::Generalized ? pml::generalized_free(r) : MPI_SUCCESS;
    if (r->complete || (r->persistent && !r->active)) {
        pml::request_release(r);
    } else {
        r->freed = true; /* released by the engine (or MPI_Grequest_complete) when it completes */
    }
    *request = MPI_REQUEST_NULL;
    return freed == MPI_SUCCESS ? MPI_SUCCESS
                                : raise_on_comm(MPI_COMM_SELF, freed, "MPI_Request_free", "the request's free_fn failed");
}

namespace {

/* A complete request's status, as MPI_Request_get_status gives it (the request stays as it is). */
void peek_status(Request *r, MPI_Status *status)
{
    if (r->kind == pml::Kind::Generalized) {
        pml::generalized_query(r);
    }
    if (status != MPI_STATUS_IGNORE) {
        *status = r->status;
    }
}

bool complete_or_progress(Request *r)
{
    if (!r->complete) {
        pml::progress();
    }
    return r->complete;
}

} // namespace

int request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    if (inactive(request)) {
        *flag = 1;
        empty(status);
        return MPI_SUCCESS;
    }
    Request *r = pml::from_handle(request);
    *flag = complete_or_progress(r);
    if (*flag) {
        peek_status(r, status);
    }
    return MPI_SUCCESS;
}

/* MPI-4.1 3.7.5: the array forms of MPI_Request_get_status, which neither free nor deactivate. */
int request_get_status_any(int count, const MPI_Request array_of_requests[], int *indx, int *flag,
                           MPI_Status *status)
{
    pml::progress();
    bool any_active = false;
    for (int i = 0; i < count; ++i) {
        if (inactive(array_of_requests[i])) {
            continue;
        }
        any_active = true;
        Request *r = pml::from_handle(array_of_requests[i]);
        if (r->complete) {
            *indx = i;
            *flag = 1;
            peek_status(r, status);
            const int error = r->status.MPI_ERROR;
            return error == MPI_SUCCESS ? MPI_SUCCESS
                                        : raise_request_error("MPI_Request_get_status_any", error_comm(r), error);
        }
    }
    *indx = MPI_UNDEFINED;
    *flag = any_active ? 0 : 1;
    if (!any_active) {
        empty(status);
    }
    return MPI_SUCCESS;
}

int request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                           MPI_Status array_of_statuses[])
{
    bool all = true;
    for (int i = 0; i < count && all; ++i) {
        all = inactive(array_of_requests[i]) || complete_or_progress(pml::from_handle(array_of_requests[i]));
    }
    *flag = all ? 1 : 0;
    if (!all) {
        return MPI_SUCCESS;
    }
    int failed = 0;
    MPI_Comm first_failed = MPI_COMM_NULL;
    for (int i = 0; i < count; ++i) {
        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[i];
        if (inactive(array_of_requests[i])) {
            empty(st);
            continue;
        }
        Request *r = pml::from_handle(array_of_requests[i]);
        peek_status(r, st);
        if (r->status.MPI_ERROR != MPI_SUCCESS) {
            first_failed = failed++ == 0 ? error_comm(r) : first_failed;
        }
    }
    return failed == 0 ? MPI_SUCCESS
                       : raise_request_error("MPI_Request_get_status_all", first_failed, MPI_ERR_IN_STATUS);
}

int request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                            int array_of_indices[], MPI_Status array_of_statuses[])
{
    pml::progress();
    bool any_active = false;
    int n = 0, failed = 0;
    MPI_Comm first_failed = MPI_COMM_NULL;
    for (int i = 0; i < incount; ++i) {
        if (inactive(array_of_requests[i])) {
            continue;
        }
        any_active = true;
        Request *r = pml::from_handle(array_of_requests[i]);
        if (!r->complete) {
            continue;
        }
        peek_status(r, array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[n]);
        array_of_indices[n++] = i;
        if (r->status.MPI_ERROR != MPI_SUCCESS) {
            first_failed = failed++ == 0 ? error_comm(r) : first_failed;
        }
    }
    *outcount = any_active ? n : MPI_UNDEFINED;
    return failed == 0 ? MPI_SUCCESS
                       : raise_request_error("MPI_Request_get_status_some", first_failed, MPI_ERR_IN_STATUS);
}

int cancel(MPI_Request *request)
{
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
