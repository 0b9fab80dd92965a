/*
 * MPI_T's performance variables count exactly what a known traffic pattern sends: rank 0 sends rank 1
 * ten 100-byte messages (eager) and three of 1 MiB (rendezvous, striped) while the counters are
 * started, and each side reads what it sent and received per peer; the queue lengths and high-water
 * marks of a communicator follow five unexpected messages and three posted receives; a collective's
 * chosen algorithm is a state; and the errors of misuse. Two ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...)                                                                                          \
    do {                                                                                                   \
        fprintf(stderr, "rank %d: FAILED %s:%d: ", rank, __FILE__, __LINE__);                              \
        fprintf(stderr, __VA_ARGS__);                                                                      \
        fprintf(stderr, "\n");                                                                             \
        MPI_Abort(MPI_COMM_WORLD, 1);                                                                      \
    } while (0)
#define EXPECT_RC(call, want)                                                                              \
    do {                                                                                                   \
        int rc_ = (call);                                                                                  \
        if (rc_ != (want)) {                                                                               \
            FAIL("%s returned %d, expected %d (%s)", #call, rc_, (int)(want), #want);                      \
        }                                                                                                  \
    } while (0)
#define OK(call) EXPECT_RC(call, MPI_SUCCESS)

static int rank = -1;
static MPI_T_pvar_session session;

static MPI_T_pvar_handle alloc(const char *name, int var_class, void *obj, int *count)
{
    int index = -1;
    OK(MPI_T_pvar_get_index(name, var_class, &index));
    MPI_T_pvar_handle h;
    OK(MPI_T_pvar_handle_alloc(session, index, obj, &h, count));
    return h;
}

enum { kSmall = 10, kSmallBytes = 100, kLarge = 3, kLargeBytes = 1 << 20 };

static void known_traffic(char *buf)
{
    if (rank == 1) {
        MPI_Send(buf, 1, MPI_CHAR, 0, 7, MPI_COMM_WORLD); /* rank 1 has started its counters */
    } else {
        MPI_Recv(buf, 1, MPI_CHAR, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < kSmall + kLarge; ++i) {
        const int n = i < kSmall ? kSmallBytes : kLargeBytes;
        if (rank == 0) {
            MPI_Send(buf, n, MPI_CHAR, 1, 8, MPI_COMM_WORLD);
        } else {
            MPI_Recv(buf, n, MPI_CHAR, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
}

static void check_counters(char *buf)
{
    int n_sent, n_sent_bytes, n_recv, n_recv_bytes, n_stripe, n_timer;
    MPI_T_pvar_handle sent = alloc("pml_messages_sent", MPI_T_PVAR_CLASS_COUNTER, NULL, &n_sent);
    MPI_T_pvar_handle sent_bytes = alloc("pml_bytes_sent", MPI_T_PVAR_CLASS_COUNTER, NULL, &n_sent_bytes);
    MPI_T_pvar_handle recv = alloc("pml_messages_received", MPI_T_PVAR_CLASS_COUNTER, NULL, &n_recv);
    MPI_T_pvar_handle recv_bytes = alloc("pml_bytes_received", MPI_T_PVAR_CLASS_COUNTER, NULL, &n_recv_bytes);
    MPI_T_pvar_handle stripe = alloc("pml_stripe_fragments", MPI_T_PVAR_CLASS_COUNTER, NULL, &n_stripe);
    MPI_T_pvar_handle timer = alloc("pml_match_time", MPI_T_PVAR_CLASS_TIMER, NULL, &n_timer);
    if (n_sent != 2 || n_recv_bytes != 2 || n_timer != 1 || n_stripe < 1) {
        FAIL("counts %d %d %d %d", n_sent, n_recv_bytes, n_timer, n_stripe);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES));
    known_traffic(buf);
    OK(MPI_T_pvar_stop(session, MPI_T_PVAR_ALL_HANDLES));
    MPI_Barrier(MPI_COMM_WORLD); /* not counted: stopped */

    unsigned long long v_sent[2], v_sent_bytes[2], v_recv[2], v_recv_bytes[2], v_stripe[16];
    double seconds = -1;
    OK(MPI_T_pvar_read(session, sent, v_sent));
    OK(MPI_T_pvar_read(session, sent_bytes, v_sent_bytes));
    OK(MPI_T_pvar_read(session, recv, v_recv));
    OK(MPI_T_pvar_read(session, recv_bytes, v_recv_bytes));
    OK(MPI_T_pvar_read(session, stripe, v_stripe));
    OK(MPI_T_pvar_read(session, timer, &seconds));
    const unsigned long long bytes = (unsigned long long)kSmall * kSmallBytes + (unsigned long long)kLarge * kLargeBytes;
    const int peer = 1 - rank;
    const unsigned long long want_sent = rank == 0 ? kSmall + kLarge : 1, want_recv = rank == 0 ? 1 : kSmall + kLarge;
    const unsigned long long want_sent_bytes = rank == 0 ? bytes : 1, want_recv_bytes = rank == 0 ? 1 : bytes;
    /* Rank 1's first message may reach rank 0 while rank 0 is still in the barrier, before it started:
     * rank 0 counts it received or not at all. Everything else is exact. */
    const int recv_ok = rank == 1 ? v_recv[peer] == want_recv && v_recv_bytes[peer] == want_recv_bytes
                                  : v_recv[peer] == v_recv_bytes[peer] && v_recv[peer] <= 1;
    if (v_sent[peer] != want_sent || v_sent[rank] != 0 || v_sent_bytes[peer] != want_sent_bytes || !recv_ok ||
        v_recv[rank] != 0) {
        FAIL("to/from the peer: %llu messages (%llu bytes) sent, %llu (%llu bytes) received; expected %llu (%llu), "
             "%llu (%llu)",
             v_sent[peer], v_sent_bytes[peer], v_recv[peer], v_recv_bytes[peer], want_sent, want_sent_bytes, want_recv,
             want_recv_bytes);
    }
    unsigned long long stripes = 0;
    for (int i = 0; i < n_stripe; ++i) {
        stripes += v_stripe[i];
    }
    if (rank == 0 && stripes < kLarge) {
        FAIL("%llu rendezvous data fragments for %d large messages", stripes, kLarge);
    }
    if (rank == 1 && !(seconds > 0.0 && seconds < 10.0)) {
        FAIL("matching took %g s", seconds);
    }
    /* Stopped: more traffic changes nothing. A reset zeroes; readreset gives and zeroes. */
    known_traffic(buf);
    unsigned long long again[2];
    OK(MPI_T_pvar_read(session, sent, again));
    if (again[peer] != want_sent) {
        FAIL("a stopped counter moved: %llu", again[peer]);
    }
    OK(MPI_T_pvar_readreset(session, sent, again));
    OK(MPI_T_pvar_read(session, sent, again));
    if (again[peer] != 0) {
        FAIL("readreset left %llu", again[peer]);
    }
    unsigned long long set[2] = {5, 5};
    OK(MPI_T_pvar_write(session, sent, set));
    OK(MPI_T_pvar_read(session, sent, again));
    if (again[0] != 5 || again[1] != 5) {
        FAIL("written 5, read %llu %llu", again[0], again[1]);
    }
    OK(MPI_T_pvar_reset(session, MPI_T_PVAR_ALL_HANDLES));
    OK(MPI_T_pvar_handle_free(session, &sent));
    if (sent != MPI_T_PVAR_HANDLE_NULL) {
        FAIL("freed handle not MPI_T_PVAR_HANDLE_NULL");
    }
    EXPECT_RC(MPI_T_pvar_read(session, sent, again), MPI_T_ERR_INVALID_HANDLE);
}

static void check_queues(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int n = 0;
    unsigned long ulen = 99, uhwm = 99, plen = 99, phwm = 99;
    MPI_T_pvar_handle hu = alloc("pml_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL, &comm, &n);
    MPI_T_pvar_handle hh = alloc("pml_unexpected_queue_highwatermark", MPI_T_PVAR_CLASS_HIGHWATERMARK, &comm, &n);
    MPI_T_pvar_handle pu = alloc("pml_posted_queue_length", MPI_T_PVAR_CLASS_LEVEL, &comm, &n);
    MPI_T_pvar_handle ph = alloc("pml_posted_queue_highwatermark", MPI_T_PVAR_CLASS_HIGHWATERMARK, &comm, &n);
    EXPECT_RC(MPI_T_pvar_start(session, hu), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT_RC(MPI_T_pvar_write(session, hu, &ulen), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT_RC(MPI_T_pvar_reset(session, hh), MPI_T_ERR_PVAR_NO_WRITE);
    int dummy[5] = {0};
    if (rank == 0) {
        for (int tag = 1; tag <= 5; ++tag) {
            MPI_Send(&dummy[tag - 1], 1, MPI_INT, 1, tag, comm);
        }
    } else {
        MPI_Probe(0, 5, comm, MPI_STATUS_IGNORE); /* non-overtaking: 1..4 are there too */
        OK(MPI_T_pvar_read(session, hu, &ulen));
        OK(MPI_T_pvar_read(session, hh, &uhwm));
        if (ulen != 5 || uhwm != 5) {
            FAIL("unexpected queue %lu, high-water mark %lu; expected 5 and 5", ulen, uhwm);
        }
        for (int tag = 1; tag <= 5; ++tag) {
            MPI_Recv(&dummy[tag - 1], 1, MPI_INT, 0, tag, comm, MPI_STATUS_IGNORE);
        }
        OK(MPI_T_pvar_read(session, hu, &ulen));
        OK(MPI_T_pvar_read(session, hh, &uhwm));
        if (ulen != 0 || uhwm != 5) {
            FAIL("after receiving: unexpected queue %lu, high-water mark %lu; expected 0 and 5", ulen, uhwm);
        }
        MPI_Request req[3];
        for (int i = 0; i < 3; ++i) {
            MPI_Irecv(&dummy[i], 1, MPI_INT, 0, 100, comm, &req[i]);
        }
        OK(MPI_T_pvar_read(session, pu, &plen));
        if (plen != 3) {
            FAIL("posted queue %lu, expected 3", plen);
        }
        MPI_Send(dummy, 0, MPI_INT, 0, 101, comm);
        MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
        OK(MPI_T_pvar_read(session, pu, &plen));
        OK(MPI_T_pvar_read(session, ph, &phwm));
        if (plen != 0 || phwm < 3) {
            FAIL("after matching: posted queue %lu, high-water mark %lu", plen, phwm);
        }
    }
    if (rank == 0) {
        MPI_Recv(dummy, 0, MPI_INT, 1, 101, comm, MPI_STATUS_IGNORE);
        for (int i = 0; i < 3; ++i) {
            MPI_Send(&dummy[i], 1, MPI_INT, 1, 100, comm);
        }
    }
    OK(MPI_T_pvar_handle_free(session, &hu));
    OK(MPI_T_pvar_handle_free(session, &hh));
    OK(MPI_T_pvar_handle_free(session, &pu));
    OK(MPI_T_pvar_handle_free(session, &ph));
    MPI_Comm_free(&comm);
}

static void check_state(void)
{
    int index = -1, count = 0;
    if (MPI_T_pvar_get_index("coll_tuned_allreduce_algorithm_chosen", MPI_T_PVAR_CLASS_STATE, &index) != MPI_SUCCESS) {
        return; /* coll tuned not built */
    }
    MPI_T_pvar_handle h;
    OK(MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count));
    MPI_T_enum e;
    OK(MPI_T_pvar_get_info(index, NULL, NULL, NULL, NULL, NULL, &e, NULL, NULL, NULL, NULL, NULL, NULL));
    int items = 0;
    OK(MPI_T_enum_get_info(e, &items, NULL, NULL));
    int x = 1, y = 0, chosen = -1;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    OK(MPI_T_pvar_read(session, h, &chosen));
    char name[64] = "";
    int found = 0;
    for (int k = 0; k < items; ++k) {
        int value = 0, len = sizeof name;
        char item[64];
        OK(MPI_T_enum_get_item(e, k, &value, item, &len));
        if (value == chosen) {
            found = 1;
            strcpy(name, item);
        }
    }
    if (!found || chosen == 0) {
        FAIL("allreduce chose %d, not an algorithm of its enumeration (%d items)", chosen, items);
    }
    if (rank == 0) {
        printf("mpit_pvars: an 8-byte MPI_Allreduce on 2 ranks ran \"%s\"\n", name);
    }
    OK(MPI_T_pvar_handle_free(session, &h));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int provided, num = 0;
    OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    OK(MPI_T_pvar_get_num(&num));
    for (int i = 0; i < num; ++i) {
        char name[128];
        int len = sizeof name, var_class, bind, readonly, continuous, atomic, verbosity;
        MPI_Datatype type;
        OK(MPI_T_pvar_get_info(i, name, &len, &verbosity, &var_class, &type, NULL, NULL, NULL, &bind, &readonly,
                               &continuous, &atomic));
        int index = -1;
        OK(MPI_T_pvar_get_index(name, var_class, &index));
        if (index != i) {
            FAIL("pvar %s: index %d, not %d", name, index, i);
        }
    }
    EXPECT_RC(MPI_T_pvar_get_index("pml_messages_sent", MPI_T_PVAR_CLASS_LEVEL, &num), MPI_T_ERR_INVALID_NAME);
    EXPECT_RC(MPI_T_pvar_start(MPI_T_PVAR_SESSION_NULL, MPI_T_PVAR_ALL_HANDLES), MPI_T_ERR_INVALID_SESSION);
    OK(MPI_T_pvar_session_create(&session));
    char *buf = malloc(kLargeBytes);
    memset(buf, 1, kLargeBytes);
    check_counters(buf);
    check_queues();
    check_state();
    OK(MPI_T_pvar_session_free(&session));
    if (session != MPI_T_PVAR_SESSION_NULL) {
        FAIL("freed session not MPI_T_PVAR_SESSION_NULL");
    }
    OK(MPI_T_finalize());
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("mpit_pvars: messages and bytes per peer, queue levels and high-water marks as sent\n");
    }
    MPI_Finalize();
    return 0;
}
