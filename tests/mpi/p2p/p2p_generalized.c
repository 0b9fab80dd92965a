/* Generalized requests and the calls that set a status (MPI-4.1 13.2, 13.3; MPI-5 status accessors):
 *   - MPI_Grequest_start/complete, waited for and tested alone and among other requests; query_fn
 *     fills the status (source, tag, elements, cancelled) when a completion call retires the request,
 *     free_fn follows it or runs at MPI_Request_free, cancel_fn gets whether it completed;
 *   - a query_fn's error is the request's (MPI_ERR_IN_STATUS in MPI_Waitall);
 *   - MPI_Status_set_elements(_x) with a derived type: MPI_Get_elements and MPI_Get_count agree. */
#include "p2p_check.h"

#include <string.h>

struct calls {
    int query, free, cancel, cancel_complete, fail_query, cancelled;
    MPI_Datatype type;
    MPI_Count elements;
};

static int query_fn(void *extra, MPI_Status *status)
{
    struct calls *c = extra;
    ++c->query;
    MPI_Status_set_source(status, 5);
    MPI_Status_set_tag(status, 77);
    MPI_Status_set_elements_x(status, c->type, c->elements);
    MPI_Status_set_cancelled(status, c->cancelled);
    return c->fail_query;
}

static int free_fn(void *extra)
{
    ++((struct calls *)extra)->free;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    struct calls *c = extra;
    ++c->cancel;
    c->cancel_complete = complete;
    c->cancelled = !complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, size, flag = -1, count = -1, source = -1, tag = -1, error = -1;
    MPI_Request rq, both[2];
    MPI_Status st, sts[2];
    MPI_Datatype pair; /* {int, double}: 2 basic elements, 12 bytes of data */
    int lens[2] = {1, 1};
    MPI_Aint disps[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_create_struct(2, lens, disps, types, &pair);
    MPI_Type_commit(&pair);

    /* Tested before and after completion, then retired by MPI_Test: query_fn then free_fn, once each. */
    struct calls a = {0, 0, 0, -1, MPI_SUCCESS, 0, pair, 3};
    CHECK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &rq) == MPI_SUCCESS, "MPI_Grequest_start");
    CHECK(MPI_Test(&rq, &flag, &st) == MPI_SUCCESS && flag == 0 && a.query == 0, "an incomplete one tests false");
    CHECK(MPI_Grequest_complete(rq) == MPI_SUCCESS, "MPI_Grequest_complete");
    CHECK(MPI_Request_get_status(rq, &flag, &st) == MPI_SUCCESS && flag == 1 && a.query == 1 && a.free == 0,
          "MPI_Request_get_status asks query_fn and keeps the request");
    CHECK(MPI_Test(&rq, &flag, &st) == MPI_SUCCESS && flag == 1 && rq == MPI_REQUEST_NULL, "MPI_Test retires it");
    CHECK(a.query == 2 && a.free == 1 && a.cancel == 0, "query_fn ran %d times, free_fn %d", a.query, a.free);
    CHECK(st.MPI_SOURCE == 5 && st.MPI_TAG == 77, "the status has query_fn's source and tag: %d %d", st.MPI_SOURCE,
          st.MPI_TAG);
    MPI_Status_get_source(&st, &source);
    MPI_Status_get_tag(&st, &tag);
    MPI_Status_get_error(&st, &error);
    CHECK(source == 5 && tag == 77 && error == MPI_SUCCESS, "the MPI-5 accessors read the same: %d %d %d", source,
          tag, error);
    MPI_Get_elements(&st, pair, &count);
    CHECK(count == 3, "MPI_Get_elements gives the 3 elements set, not %d", count);
    MPI_Get_count(&st, pair, &count);
    CHECK(count == MPI_UNDEFINED, "3 elements of {int, double} are no whole count: %d", count);
    MPI_Status_set_elements(&st, pair, 4);
    MPI_Get_count(&st, pair, &count);
    CHECK(count == 2, "4 elements are 2 of {int, double}, not %d", count);
    MPI_Status_set_elements(&st, MPI_INT, 6);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 6, "6 ints: %d", count);

    /* Freed before completion: free_fn at MPI_Request_free, no query_fn; MPI_Grequest_complete ends it. */
    struct calls b = {0, 0, 0, -1, MPI_SUCCESS, 0, MPI_INT, 1};
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &b, &rq);
    MPI_Request keep = rq;
    CHECK(MPI_Request_free(&rq) == MPI_SUCCESS && rq == MPI_REQUEST_NULL && b.free == 1, "MPI_Request_free runs free_fn");
    CHECK(MPI_Grequest_complete(keep) == MPI_SUCCESS && b.query == 0 && b.free == 1,
          "completing a freed one calls nothing more");

    /* Cancelled while running: cancel_fn hears it is not complete; the status says cancelled. */
    struct calls c = {0, 0, 0, -1, MPI_SUCCESS, 0, MPI_INT, 0};
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &rq);
    CHECK(MPI_Cancel(&rq) == MPI_SUCCESS && c.cancel == 1 && c.cancel_complete == 0, "MPI_Cancel runs cancel_fn");
    MPI_Grequest_complete(rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag == 1 && c.free == 1, "MPI_Test_cancelled after a cancel_fn that cancelled: %d", flag);

    /* Among a point-to-point request in MPI_Waitall, with a query_fn that fails. */
    struct calls d = {0, 0, 0, -1, MPI_ERR_OTHER, 0, MPI_INT, 1};
    int in = -1, out = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD, &both[0]);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &d, &both[1]);
    MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD);
    MPI_Grequest_complete(both[1]);
    const int rc = MPI_Waitall(2, both, sts);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_IN_STATUS && sts[1].MPI_ERROR == MPI_ERR_OTHER && sts[0].MPI_ERROR == MPI_SUCCESS &&
              in == (rank + size - 1) % size && d.free == 1,
          "MPI_Waitall: class %d, errors %d %d, received %d", cls, sts[0].MPI_ERROR, sts[1].MPI_ERROR, in);
    CHECK(MPI_Grequest_complete(MPI_REQUEST_NULL) != MPI_SUCCESS, "MPI_Grequest_complete(MPI_REQUEST_NULL) fails");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);

    MPI_Type_free(&pair);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("p2p_generalized: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
