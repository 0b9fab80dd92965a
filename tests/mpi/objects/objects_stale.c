/* Stale handles are refused (docs/objects.md): for every kind of object an application creates, a
 * handle kept after the object was freed — also once a new object of the same kind took the freed
 * object's memory — gives the kind's error class through MPI_ERRORS_RETURN, and reaches neither the
 * new object nor anything else: a send on a freed communicator delivers nothing on the new one, a
 * stale copy of a completed request leaves the request that reuses its memory working.
 *
 * "Reused" is checked, not assumed: a handle's low 48 bits are its object's address (the bits above
 * are the generation Tessera adds), so a new object at the old address has the same low bits.
 * Tessera only: Open MPI and MPICH read freed memory here. */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../p2p/p2p_check.h"

#define ADDRESS_BITS(h) ((uintptr_t)(h) & (((uintptr_t)1 << 48) - 1))

static int error_class(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

static const char *class_name(int code)
{
    static char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (code == MPI_SUCCESS) {
        return "MPI_SUCCESS";
    }
    MPI_Error_string(error_class(code), text, &len);
    return text;
}

#define EXPECT_CLASS(call, cls)                                                                            \
    do {                                                                                                   \
        const int rc_ = (call);                                                                            \
        CHECK(error_class(rc_) == (cls), "%s gave %s, expected %s", #call, class_name(rc_), #cls);        \
    } while (0)

static void add_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; ++i) {
        ((int *)inout)[i] += ((int *)in)[i];
    }
}

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

/* A send on a freed communicator whose memory a new communicator took: MPI_ERR_COMM, and the new
 * communicator's first message is the one sent on it afterwards. Also through the Fortran integer of
 * the freed handle. */
static void stale_comm(int rank, int size)
{
    MPI_Comm a, b, stale;
    int value = 7, got = -1, n = -1;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    stale = a;
    const int stale_int = MPI_Comm_toint(stale);
    /* The last call that checked `a` before the free sends nothing: the communicator its argument check
     * found is not taken by the engine, and must not be taken later for the stale handle. */
    MPI_Barrier(a);
    MPI_Comm_free(&a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    CHECK(ADDRESS_BITS(b) == ADDRESS_BITS(stale), "the new communicator did not reuse the freed one's memory");

    if (rank == 0) {
        for (int peer = 1; peer < size; ++peer) {
            EXPECT_CLASS(MPI_Send(&value, 1, MPI_INT, peer, 1, stale), MPI_ERR_COMM);
        }
    }
    EXPECT_CLASS(MPI_Comm_size(stale, &n), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_size(MPI_Comm_fromint(stale_int), &n), MPI_ERR_COMM);
    CHECK(MPI_Comm_toint(b) != stale_int, "the new communicator got the freed one's integer");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        value = 8;
        for (int peer = 1; peer < size; ++peer) {
            CHECK(MPI_Send(&value, 1, MPI_INT, peer, 2, b) == MPI_SUCCESS, "send on the new communicator");
        }
    } else {
        MPI_Status st;
        CHECK(MPI_Recv(&got, 1, MPI_INT, 0, MPI_ANY_TAG, b, &st) == MPI_SUCCESS, "receive on the new communicator");
        CHECK(st.MPI_TAG == 2 && got == 8,
              "the new communicator received tag %d value %d: the send on the freed one was delivered on it",
              st.MPI_TAG, got);
    }
    MPI_Comm copy = stale;
    EXPECT_CLASS(MPI_Comm_free(&copy), MPI_ERR_COMM);
    CHECK(MPI_Comm_size(b, &n) == MPI_SUCCESS && n == size, "the new communicator still works");
    MPI_Comm_free(&b);
}

static void stale_group(void)
{
    MPI_Group world, g, stale;
    int ranks[1] = {0}, n = -1;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, ranks, &g);
    stale = g;
    MPI_Group_free(&g);
    MPI_Group_incl(world, 1, ranks, &g);
    CHECK(ADDRESS_BITS(g) == ADDRESS_BITS(stale), "the new group did not reuse the freed one's memory");
    EXPECT_CLASS(MPI_Group_size(stale, &n), MPI_ERR_GROUP);
    MPI_Group copy = stale;
    EXPECT_CLASS(MPI_Group_free(&copy), MPI_ERR_GROUP);
    CHECK(MPI_Group_size(g, &n) == MPI_SUCCESS && n == 1, "the new group still works");
    MPI_Group_free(&g);
    MPI_Group_free(&world);
}

static void stale_datatype(int rank, int size)
{
    MPI_Datatype t, stale;
    int bytes = -1, buf[4] = {0};
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_commit(&t);
    stale = t;
    MPI_Type_free(&t);
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_commit(&t);
    CHECK(ADDRESS_BITS(t) == ADDRESS_BITS(stale), "the new datatype did not reuse the freed one's memory");
    EXPECT_CLASS(MPI_Type_size(stale, &bytes), MPI_ERR_TYPE);
    if (rank == 0 && size > 1) {
        EXPECT_CLASS(MPI_Send(buf, 1, stale, 1, 3, MPI_COMM_WORLD), MPI_ERR_TYPE);
    }
    MPI_Datatype copy = stale;
    EXPECT_CLASS(MPI_Type_free(&copy), MPI_ERR_TYPE);
    CHECK(MPI_Type_size(t, &bytes) == MPI_SUCCESS && bytes == 4 * (int)sizeof(int), "the new datatype still works");
    MPI_Type_free(&t);
}

static void stale_op(void)
{
    MPI_Op op, stale;
    int in[2] = {1, 2}, inout[2] = {10, 20}, commute = -1;
    MPI_Op_create(add_ints, 1, &op);
    stale = op;
    MPI_Op_free(&op);
    MPI_Op_create(add_ints, 0, &op);
    CHECK(ADDRESS_BITS(op) == ADDRESS_BITS(stale), "the new op did not reuse the freed one's memory");
    EXPECT_CLASS(MPI_Op_commutative(stale, &commute), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Reduce_local(in, inout, 2, MPI_INT, stale), MPI_ERR_OP);
    CHECK(inout[0] == 10 && inout[1] == 20, "a stale op changed the buffer");
    MPI_Op copy = stale;
    EXPECT_CLASS(MPI_Op_free(&copy), MPI_ERR_OP);
    CHECK(MPI_Op_commutative(op, &commute) == MPI_SUCCESS && commute == 0, "the new op still works");
    MPI_Op_free(&op);
}

static void stale_errhandler(void)
{
    MPI_Errhandler e, stale, now = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(comm_handler, &e);
    stale = e;
    MPI_Errhandler_free(&e);
    MPI_Comm_create_errhandler(comm_handler, &e);
    CHECK(ADDRESS_BITS(e) == ADDRESS_BITS(stale), "the new error handler did not reuse the freed one's memory");
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_SELF, stale), MPI_ERR_ERRHANDLER);
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &now);
    CHECK(now == MPI_ERRORS_RETURN, "a stale error handler was set on MPI_COMM_SELF");
    MPI_Errhandler copy = stale;
    EXPECT_CLASS(MPI_Errhandler_free(&copy), MPI_ERR_ERRHANDLER);
    MPI_Errhandler_free(&e);
}

static void stale_info(void)
{
    MPI_Info info, stale;
    int nkeys = -1;
    MPI_Info_create(&info);
    stale = info;
    MPI_Info_free(&info);
    MPI_Info_create(&info);
    CHECK(ADDRESS_BITS(info) == ADDRESS_BITS(stale), "the new info object did not reuse the freed one's memory");
    EXPECT_CLASS(MPI_Info_set(stale, "key", "value"), MPI_ERR_INFO);
    CHECK(MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys == 0,
          "a key set through a stale info handle landed in the new info object (%d keys)", nkeys);
    MPI_Info copy = stale;
    EXPECT_CLASS(MPI_Info_free(&copy), MPI_ERR_INFO);
    MPI_Info_free(&info);
}

/* A copy of a request that MPI_Wait completed and freed: MPI_Wait, MPI_Test, MPI_Request_free and the
 * array forms refuse it, while the request now in its memory completes normally. */
static void stale_request(int rank, int size)
{
    const int peer = rank == 0 ? 1 : 0;
    int out = rank, in = -1, flag = -1, idx = -1;
    MPI_Request req, stale, arr[2];
    if (rank >= 2) {
        return;
    }
    (void)size;
    MPI_Irecv(&in, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &req);
    stale = req;
    MPI_Send(&out, 1, MPI_INT, peer, 4, MPI_COMM_WORLD);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && req == MPI_REQUEST_NULL && in == peer, "first receive");

    MPI_Irecv(&in, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &req);
    CHECK(ADDRESS_BITS(req) == ADDRESS_BITS(stale), "the new request did not reuse the freed one's memory");
    MPI_Request copy = stale;
    EXPECT_CLASS(MPI_Wait(&copy, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Test(&copy, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Request_free(&copy), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Cancel(&copy), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Request_get_status(copy, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    arr[0] = MPI_REQUEST_NULL;
    arr[1] = copy;
    EXPECT_CLASS(MPI_Waitall(2, arr, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Waitany(2, arr, &idx, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Testall(2, arr, &flag, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    CHECK(copy == stale, "a refused call changed the handle");

    out = 100 + rank;
    MPI_Send(&out, 1, MPI_INT, peer, 5, MPI_COMM_WORLD);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && in == 100 + peer,
          "the request reusing the memory received %d", in);
    /* The free list still works: more requests through the same memory. */
    for (int i = 0; i < 3; ++i) {
        MPI_Irecv(&in, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &req);
        MPI_Send(&out, 1, MPI_INT, peer, 6, MPI_COMM_WORLD);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS, "request %d after the stale ones", i);
    }
}

/* A copy of a message handle that MPI_Mrecv received: refused, while the message probed since (in the
 * same memory) is received whole. */
static void stale_message(int rank)
{
    int a = 11, b = 22, got = -1;
    MPI_Message m, stale;
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Mprobe(0, 7, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        stale = m;
        MPI_Mrecv(&got, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
        CHECK(got == 11 && m == MPI_MESSAGE_NULL, "first matched receive");
        MPI_Mprobe(0, 7, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        CHECK(ADDRESS_BITS(m) == ADDRESS_BITS(stale), "the new message did not reuse the freed one's memory");
        MPI_Message copy = stale;
        EXPECT_CLASS(MPI_Mrecv(&got, 1, MPI_INT, &copy, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        got = -1;
        CHECK(MPI_Mrecv(&got, 1, MPI_INT, &m, MPI_STATUS_IGNORE) == MPI_SUCCESS && got == 22,
              "the message probed after the stale one received %d", got);
    }
}

static void stale_window(void)
{
    int mem[4] = {0}, n = -1;
    MPI_Win w, stale;
    MPI_Group g;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    stale = w;
    MPI_Win_free(&w);
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    CHECK(ADDRESS_BITS(w) == ADDRESS_BITS(stale), "the new window did not reuse the freed one's memory");
    EXPECT_CLASS(MPI_Win_get_group(stale, &g), MPI_ERR_WIN);
    EXPECT_CLASS(MPI_Win_fence(0, stale), MPI_ERR_WIN);
    MPI_Win copy = stale;
    EXPECT_CLASS(MPI_Win_free(&copy), MPI_ERR_WIN);
    CHECK(MPI_Win_get_group(w, &g) == MPI_SUCCESS && MPI_Group_size(g, &n) == MPI_SUCCESS, "the new window works");
    MPI_Group_free(&g);
    MPI_Win_free(&w);
}

/* Whether to run `kind`: all kinds without arguments, else those named ("comm request"). */
static int wanted(int argc, char **argv, const char *kind)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], kind) == 0) {
            return 1;
        }
    }
    return argc <= 1;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "run on at least 2 ranks");
    /* Errors on invalid handles go to MPI_COMM_WORLD's or MPI_COMM_SELF's handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    if (wanted(argc, argv, "comm")) {
        stale_comm(rank, size);
    }
    if (wanted(argc, argv, "group")) {
        stale_group();
    }
    if (wanted(argc, argv, "datatype")) {
        stale_datatype(rank, size);
    }
    if (wanted(argc, argv, "op")) {
        stale_op();
    }
    if (wanted(argc, argv, "errhandler")) {
        stale_errhandler();
    }
    if (wanted(argc, argv, "info")) {
        stale_info();
    }
    if (wanted(argc, argv, "request")) {
        stale_request(rank, size);
    }
    if (wanted(argc, argv, "message")) {
        stale_message(rank);
    }
    if (wanted(argc, argv, "window")) {
        stale_window();
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("objects_stale: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
