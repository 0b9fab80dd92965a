/* Unexpected messages, probes, cancellation, persistent requests, statuses and errors:
 *   - rank 0 sends argv[1] (default 100,000) small messages before rank 1 posts any receive for them
 *     (rank 1 waits for a "go" message sent last, progressing all the while), then rank 1 probes and
 *     receives them all in order;
 *   - Probe/Iprobe, Get_count/Get_elements (also of a pair type), MPI_PROC_NULL everywhere;
 *   - a receive cancelled before any message matches it; sends cancelled at once, with
 *     MPI_Test_cancelled agreeing with what the receiver gets;
 *   - persistent send/receive requests started many times (Start, Startall);
 *   - truncation of an eager and a rendezvous-sized message: MPI_ERR_TRUNCATE, nothing written past
 *     the buffer, also through MPI_Wait and MPI_Waitall; a message stopping inside a basic element of
 *     the receive datatype: MPI_ERR_TYPE;
 *   - argument errors under MPI_ERRORS_RETURN, each with its error class and a non-empty string. */
#include "p2p_check.h"

#include <string.h>

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static void expect_error(int rc, int cls, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK(error_class(rc) == cls, "%s: class %d, expected %d", what, error_class(rc), cls);
    MPI_Error_string(rc, text, &len);
    CHECK(len > 0, "%s: empty error string", what);
}

/* Sends cancelled at once, one eager-sized and one rendezvous-sized: either outcome is allowed, but
 * MPI_Test_cancelled must agree with what the receiver sees. The receive is posted first, because a
 * send an implementation cannot cancel (a rendezvous one, in most) completes only once it is matched.
 * Each sender then tells its receiver the outcome: a send that was not cancelled must fill the
 * receive; after one that was, the receive must stay unmatched, so cancelling it succeeds. */
static void cancel_sends(int peer, int from)
{
    const size_t sizes[2] = {sizeof(int), (1 << 20) + 1};
    for (int k = 0; k < 2; ++k) {
        const size_t n = sizes[k];
        unsigned char *out = malloc(n), *in = malloc(n);
        fill(out, n, 900 + (unsigned long)k);
        MPI_Request rq, rr;
        MPI_Status st;
        int cancelled = -1, theirs = -1;
        MPI_Irecv(in, (int)n, MPI_BYTE, from, 21, MPI_COMM_WORLD, &rr);
        MPI_Isend(out, (int)n, MPI_BYTE, peer, 21, MPI_COMM_WORLD, &rq);
        MPI_Cancel(&rq);
        MPI_Wait(&rq, &st);
        MPI_Test_cancelled(&st, &cancelled);
        MPI_Sendrecv(&cancelled, 1, MPI_INT, peer, 25, &theirs, 1, MPI_INT, from, 25, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (theirs) {
            MPI_Cancel(&rr);
        }
        MPI_Wait(&rr, &st);
        int recv_cancelled = -1;
        MPI_Test_cancelled(&st, &recv_cancelled);
        if (theirs) {
            CHECK(recv_cancelled, "a send of %zu bytes reported cancelled still matched a receive", n);
        } else {
            CHECK(!recv_cancelled && first_bad(in, n, 900 + (unsigned long)k) < 0,
                  "a send of %zu bytes that was not cancelled arrives intact", n);
        }
        p2p_barrier();
        int flag = 1;
        MPI_Iprobe(from, 21, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "a cancelled send of %zu bytes left a message behind", n);
        p2p_barrier();
        free(out);
        free(in);
    }
}

/* A message longer than the receive buffer: MPI_ERR_TRUNCATE, and the guard bytes right after the
 * buffer untouched. Later traffic must still flow (the caller's next exchanges check that). */
static void truncation(int peer, int from, size_t n, size_t room)
{
    unsigned char *out = malloc(n), *in = malloc(room + 64);
    fill(out, n, 31);
    memset(in + room, 0x5a, 64);
    MPI_Request rq;
    MPI_Status st;
    MPI_Isend(out, (int)n, MPI_BYTE, peer, 24, MPI_COMM_WORLD, &rq);
    const int rc = MPI_Recv(in, (int)room, MPI_BYTE, from, 24, MPI_COMM_WORLD, &st);
    expect_error(rc, MPI_ERR_TRUNCATE, "a receive shorter than the message");
    for (size_t i = 0; i < 64; ++i) {
        CHECK(in[room + i] == 0x5a, "truncating %zu bytes to %zu wrote byte %zu past the buffer", n, room, i);
    }
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    /* The same through a request: MPI_Wait raises it on the receive's communicator (MPI_COMM_SELF
     * keeps MPI_ERRORS_ARE_FATAL, so an error raised there would end the job), MPI_Waitall as
     * MPI_ERR_IN_STATUS with the class in the status. */
    MPI_Request rr;
    MPI_Isend(out, (int)n, MPI_BYTE, peer, 24, MPI_COMM_WORLD, &rq);
    MPI_Irecv(in, (int)room, MPI_BYTE, from, 24, MPI_COMM_WORLD, &rr);
    expect_error(MPI_Wait(&rr, &st), MPI_ERR_TRUNCATE, "MPI_Wait on a receive shorter than the message");
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Request both[2];
    MPI_Status sts[2];
    MPI_Isend(out, (int)n, MPI_BYTE, peer, 24, MPI_COMM_WORLD, &both[0]);
    MPI_Irecv(in, (int)room, MPI_BYTE, from, 24, MPI_COMM_WORLD, &both[1]);
    expect_error(MPI_Waitall(2, both, sts), MPI_ERR_IN_STATUS, "MPI_Waitall with a truncated receive");
    /* A runtime may return at the failed receive and leave the send pending (MPICH does, now and then),
     * as MPI-4.1 3.7.5 allows: its status then says MPI_ERR_PENDING and the request is still there. */
    const int pending = error_class(sts[0].MPI_ERROR) == MPI_ERR_PENDING;
    CHECK((sts[0].MPI_ERROR == MPI_SUCCESS || pending) && error_class(sts[1].MPI_ERROR) == MPI_ERR_TRUNCATE,
          "MPI_Waitall's statuses: %d and %d", sts[0].MPI_ERROR, sts[1].MPI_ERROR);
    if (pending) {
        MPI_Wait(&both[0], MPI_STATUS_IGNORE);
    }
    free(out);
    free(in);
}

/* A message shorter than the receive buffer is fine when it ends on a basic element of the receive
 * datatype (MPI_Get_count then counts what came); one that stops inside an element (6 bytes into
 * MPI_INTs) means the type signatures do not match: MPI_ERR_TYPE, checked on Tessera's engine only
 * (Open MPI and MPICH let it pass). */
static void signature(int peer, int from)
{
    char out[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int in[4] = {0}, n = -1;
    MPI_Status st;
    MPI_Request rq;
    MPI_Isend(out, 8, MPI_BYTE, peer, 26, MPI_COMM_WORLD, &rq);
    CHECK(MPI_Recv(in, 4, MPI_INT, from, 26, MPI_COMM_WORLD, &st) == MPI_SUCCESS, "8 bytes into 4 MPI_INTs");
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 2, "8 bytes received as MPI_INT: count %d", n);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (!runtime_is("Open MPI") && !runtime_is("MPICH")) {
        MPI_Isend(out, 6, MPI_BYTE, peer, 26, MPI_COMM_WORLD, &rq);
        expect_error(MPI_Recv(in, 4, MPI_INT, from, 26, MPI_COMM_WORLD, &st), MPI_ERR_TYPE,
                     "6 bytes into MPI_INTs");
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long count = argc > 1 ? atol(argv[1]) : 100000;
    CHECK(size >= 2, "needs two ranks");
    MPI_Status st;

    /* Unexpected messages. */
    if (rank == 0) {
        for (long i = 0; i < count; ++i) {
            MPI_Send(&i, 1, MPI_LONG, 1, 3, MPI_COMM_WORLD);
        }
        MPI_Send(NULL, 0, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 4, MPI_COMM_WORLD, &st);
        int flag = 0, n = -1;
        MPI_Iprobe(0, 3, MPI_COMM_WORLD, &flag, &st);
        MPI_Get_count(&st, MPI_LONG, &n);
        CHECK(flag && st.MPI_SOURCE == 0 && st.MPI_TAG == 3 && n == 1, "Iprobe: flag %d count %d", flag, n);
        for (long i = 0; i < count; ++i) {
            long v = -1;
            if (i % 1000 == 0) {
                MPI_Probe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
                CHECK(st.MPI_SOURCE == 0, "Probe source %d", st.MPI_SOURCE);
            }
            MPI_Recv(&v, 1, MPI_LONG, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(v == i, "unexpected message %ld carries %ld", i, v);
        }
    }
    p2p_barrier();

    /* Counts and elements, also of MPI_DOUBLE_INT. */
    if (rank == 0) {
        struct {
            double d;
            int i;
        } pairs[3] = {{1.5, 1}, {2.5, 2}, {3.5, 3}};
        MPI_Send(pairs, 3, MPI_DOUBLE_INT, 1, 20, MPI_COMM_WORLD);
    } else if (rank == 1) {
        struct {
            double d;
            int i;
        } pairs[4];
        memset(pairs, 0, sizeof pairs);
        int n = -1, elements = -1;
        MPI_Recv(pairs, 4, MPI_DOUBLE_INT, 0, 20, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE_INT, &n);
        MPI_Get_elements(&st, MPI_DOUBLE_INT, &elements);
        /* A pair type is defined as if it were the struct {double, int} (MPI-4.1 6.9.4): two basic
         * elements per pair, as Tessera and MPICH count them; Open MPI counts the pairs. */
        CHECK(n == 3 && (elements == 6 || elements == 3), "MPI_DOUBLE_INT: count %d elements %d", n, elements);
        CHECK(pairs[2].d == 3.5 && pairs[2].i == 3 && pairs[3].i == 0, "MPI_DOUBLE_INT values");
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(n == MPI_UNDEFINED || n == 9, "count in MPI_INT of 36 bytes: %d", n);
    }

    /* MPI_PROC_NULL. */
    int dummy = 5;
    MPI_Send(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    int n = -1;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && n == 0 && dummy == 5,
          "receive from MPI_PROC_NULL: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, n);

    /* Cancel. */
    MPI_Request rq;
    int cancelled = 0;
    MPI_Irecv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &rq);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(cancelled, "an unmatched receive is cancelled");
    const int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    cancel_sends(peer, from);

    /* Persistent requests. */
    int out = 0, in = -1;
    MPI_Request pr[2];
    MPI_Recv_init(&in, 1, MPI_INT, from, 22, MPI_COMM_WORLD, &pr[0]);
    MPI_Send_init(&out, 1, MPI_INT, peer, 22, MPI_COMM_WORLD, &pr[1]);
    for (int round = 0; round < 50; ++round) {
        out = rank * 1000 + round;
        if (round % 2 == 0) {
            MPI_Startall(2, pr);
        } else {
            MPI_Start(&pr[0]);
            MPI_Start(&pr[1]);
        }
        MPI_Waitall(2, pr, MPI_STATUSES_IGNORE);
        CHECK(in == from * 1000 + round, "persistent round %d got %d", round, in);
    }
    MPI_Request_free(&pr[0]);
    MPI_Request_free(&pr[1]);
    CHECK(pr[0] == MPI_REQUEST_NULL, "Request_free sets MPI_REQUEST_NULL");

    /* Request_get_status does not free. */
    MPI_Irecv(&in, 1, MPI_INT, from, 23, MPI_COMM_WORLD, &rq);
    MPI_Send(&rank, 1, MPI_INT, peer, 23, MPI_COMM_WORLD);
    int flag = 0;
    while (!flag) {
        MPI_Request_get_status(rq, &flag, &st);
    }
    CHECK(rq != MPI_REQUEST_NULL && st.MPI_SOURCE == from, "Request_get_status keeps the request");
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    CHECK(rq == MPI_REQUEST_NULL, "Wait frees it");

    /* Truncation and argument errors. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    truncation(peer, from, 16 * sizeof(int), 2 * sizeof(int));
    /* A rendezvous-sized message. Open MPI 4.1's vader single-copy path writes the whole message into
     * a truncated receive buffer and corrupts the heap, so under that runtime the check is skipped. */
    if (!runtime_is("Open MPI")) {
        truncation(peer, from, (1 << 20) + 3, 65536);
    } else if (rank == 0) {
        printf("p2p_unexpected: rendezvous truncation skipped (Open MPI overwrites the buffer)\n");
    }
    signature(peer, from);
    expect_error(MPI_Send(&dummy, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "a rank past the size");
    expect_error(MPI_Send(&dummy, 1, MPI_INT, 0, -4, MPI_COMM_WORLD), MPI_ERR_TAG, "a negative tag");
    expect_error(MPI_Send(&dummy, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "a negative count");
    expect_error(MPI_Send(&dummy, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_COMM_NULL");
    expect_error(MPI_Send(&dummy, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    expect_error(MPI_Send(NULL, 3, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "a NULL buffer");
    expect_error(MPI_Recv(&dummy, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "source -7");

    p2p_barrier();
    if (rank == 0) {
        printf("p2p_unexpected: %ld unexpected messages, probes, cancel, persistent, truncation, errors: ok\n", count);
    }
    MPI_Finalize();
    return 0;
}
