/* Every send mode in its blocking, non-blocking and persistent form, every completion call, and
 * MPI_PROC_NULL with every call, on 2-4 ranks around the ring:
 *   - Send/Ssend/Rsend/Bsend, Isend/Issend/Irsend/Ibsend and Send_init/Ssend_init/Rsend_init/Bsend_init,
 *     each with an eager (8 B) and a rendezvous-sized (1 MiB + 5) message, into receives posted before a
 *     barrier (so ready sends are legal) and completed by Wait, Test, Testany or Testsome;
 *   - a synchronous send does not complete before its receive is posted;
 *   - Testany/Testsome/Waitany/Waitsome of null requests, MPI_STATUS(ES)_IGNORE everywhere;
 *   - MPI_Request_free of an active send: the message still arrives;
 *   - Get_count/Get_elements of basic types, MPI_UNDEFINED for a partial element;
 *   - every call with MPI_PROC_NULL: immediate completion, source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
#define _POSIX_C_SOURCE 200809L
#include "p2p_check.h"

#include <sched.h>
#include <string.h>

enum { kSendModes = 12, kCompletions = 4 };

static const char *const kModeNames[kSendModes] = {"Send",  "Ssend",  "Rsend",  "Bsend",
                                                   "Isend", "Issend", "Irsend", "Ibsend",
                                                   "Send_init", "Ssend_init", "Rsend_init", "Bsend_init"};

static int rank, size, peer, from;

/* Completes one request by the chosen call; the others are polled in a loop that yields, since ranks
 * may outnumber cores. */
static void complete(MPI_Request *rq, int how, MPI_Status *st)
{
    int flag = 0, index = -1, outcount = 0, indices[1];
    for (long spin = 0; !flag; ++spin) {
        switch (how) {
        case 0:
            MPI_Wait(rq, st);
            flag = 1;
            break;
        case 1:
            MPI_Test(rq, &flag, st);
            break;
        case 2:
            MPI_Testany(1, rq, &index, &flag, st);
            CHECK(!flag || index == 0, "Testany completed index %d", index);
            break;
        default:
            MPI_Testsome(1, rq, &outcount, indices, st);
            CHECK(outcount == 0 || (outcount == 1 && indices[0] == 0), "Testsome gave %d", outcount);
            flag = outcount == 1;
            break;
        }
        if (!flag && spin % 64 == 63) {
            sched_yield();
        }
    }
}

/* One message from each rank to the next with the given send mode. */
static void send_mode(int mode, size_t n, unsigned long id, int how)
{
    unsigned char *out = malloc(n + 1), *in = malloc(n + 1);
    fill(out, n, id * 16 + (unsigned long)rank);
    memset(in, 0xee, n + 1);
    const int tag = 100 + mode;
    MPI_Request recv, send = MPI_REQUEST_NULL;
    MPI_Status st;
    if (mode >= 8) {
        MPI_Recv_init(in, (int)n, MPI_BYTE, from, tag, MPI_COMM_WORLD, &recv);
        MPI_Start(&recv);
    } else {
        MPI_Irecv(in, (int)n, MPI_BYTE, from, tag, MPI_COMM_WORLD, &recv);
    }
    p2p_barrier(); /* every receive is posted: ready sends may go */
    const int c = (int)n;
    switch (mode) {
    case 0: MPI_Send(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD); break;
    case 1: MPI_Ssend(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD); break;
    case 2: MPI_Rsend(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD); break;
    case 3: MPI_Bsend(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD); break;
    case 4: MPI_Isend(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &send); break;
    case 5: MPI_Issend(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &send); break;
    case 6: MPI_Irsend(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &send); break;
    case 7: MPI_Ibsend(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &send); break;
    case 8: MPI_Send_init(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &send); break;
    case 9: MPI_Ssend_init(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &send); break;
    case 10: MPI_Rsend_init(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &send); break;
    default: MPI_Bsend_init(out, c, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &send); break;
    }
    if (mode >= 8) {
        MPI_Start(&send);
    }
    if (mode % 4 == 3) {
        memset(out, 0, n); /* a buffered message was copied: the buffer may change at once */
    }
    complete(&recv, how, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(st.MPI_SOURCE == from && st.MPI_TAG == tag && count == c, "%s of %zu bytes: status %d/%d count %d",
          kModeNames[mode], n, st.MPI_SOURCE, st.MPI_TAG, count);
    const long bad = first_bad(in, n, id * 16 + (unsigned long)from);
    CHECK(bad < 0, "%s of %zu bytes: byte %ld differs", kModeNames[mode], n, bad);
    CHECK(in[n] == 0xee, "%s of %zu bytes: the byte after the buffer was written", kModeNames[mode], n);
    if (send != MPI_REQUEST_NULL) {
        complete(&send, (how + 1) % kCompletions, MPI_STATUS_IGNORE);
    }
    if (mode >= 8) {
        CHECK(send != MPI_REQUEST_NULL && recv != MPI_REQUEST_NULL, "completion keeps persistent requests");
        MPI_Request_free(&send);
        MPI_Request_free(&recv);
    } else {
        CHECK(recv == MPI_REQUEST_NULL && send == MPI_REQUEST_NULL, "completion frees the requests");
    }
    free(out);
    free(in);
}

/* Rank 0's synchronous send to rank 1 stays incomplete until rank 1 posts the receive, which it does
 * only after rank 0 has tested it (and told it so). */
static void synchronous(size_t n)
{
    unsigned char *buf = malloc(n + 1);
    int go = 0;
    if (rank == 0) {
        fill(buf, n, 77);
        MPI_Request rq;
        int flag = 0;
        MPI_Issend(buf, (int)n, MPI_BYTE, 1, 200, MPI_COMM_WORLD, &rq);
        for (int i = 0; i < 2000 && !flag; ++i) {
            MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
            if (i % 64 == 63) {
                sched_yield();
            }
        }
        CHECK(!flag, "a synchronous send of %zu bytes completed before its receive was posted", n);
        MPI_Send(&go, 1, MPI_INT, 1, 201, MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&go, 1, MPI_INT, 0, 201, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(buf, (int)n, MPI_BYTE, 0, 200, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const long bad = first_bad(buf, n, 77);
        CHECK(bad < 0, "synchronous message of %zu bytes: byte %ld differs", n, bad);
    }
    free(buf);
}

static void null_requests(void)
{
    MPI_Request rq[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int index = 0, flag = 0, outcount = 0, indices[3];
    MPI_Status st;
    MPI_Testany(3, rq, &index, &flag, &st);
    CHECK(flag && index == MPI_UNDEFINED, "Testany of null requests: flag %d index %d", flag, index);
    MPI_Waitany(3, rq, &index, MPI_STATUS_IGNORE);
    CHECK(index == MPI_UNDEFINED, "Waitany of null requests: index %d", index);
    MPI_Testsome(3, rq, &outcount, indices, MPI_STATUSES_IGNORE);
    CHECK(outcount == MPI_UNDEFINED, "Testsome of null requests: %d", outcount);
    MPI_Waitsome(3, rq, &outcount, indices, MPI_STATUSES_IGNORE);
    CHECK(outcount == MPI_UNDEFINED, "Waitsome of null requests: %d", outcount);
    flag = 0;
    MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    CHECK(flag, "Test of a null request is true");
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
    MPI_Testall(3, rq, &flag, MPI_STATUSES_IGNORE);
    CHECK(flag, "Testall of null requests is true");
}

/* Several receives completed by Testany, Testsome and Waitsome with MPI_STATUSES_IGNORE. */
static void completion_sets(void)
{
    enum { kMessages = 8 };
    int in[kMessages], out[kMessages];
    MPI_Request rq[2 * kMessages];
    for (int i = 0; i < kMessages; ++i) {
        in[i] = -1;
        out[i] = rank * 100 + i;
        MPI_Irecv(&in[i], 1, MPI_INT, from, 300 + i, MPI_COMM_WORLD, &rq[i]);
    }
    for (int i = kMessages - 1; i >= 0; --i) {
        MPI_Isend(&out[i], 1, MPI_INT, peer, 300 + i, MPI_COMM_WORLD, &rq[kMessages + i]);
    }
    int done = 0, indices[2 * kMessages];
    for (long spin = 0; done < 2 * kMessages; ++spin) {
        int flag = 0, index = -1, outcount = 0;
        if (spin % 3 == 0) {
            MPI_Testany(2 * kMessages, rq, &index, &flag, MPI_STATUS_IGNORE);
            done += flag && index != MPI_UNDEFINED;
        } else if (spin % 3 == 1) {
            MPI_Testsome(2 * kMessages, rq, &outcount, indices, MPI_STATUSES_IGNORE);
            CHECK(outcount != MPI_UNDEFINED, "Testsome with active requests gave MPI_UNDEFINED");
            done += outcount;
        } else {
            MPI_Waitsome(2 * kMessages, rq, &outcount, indices, MPI_STATUSES_IGNORE);
            CHECK(outcount >= 1, "Waitsome with active requests gave %d", outcount);
            done += outcount;
        }
        if (spin % 64 == 63) {
            sched_yield();
        }
    }
    for (int i = 0; i < kMessages; ++i) {
        CHECK(in[i] == from * 100 + i, "message %d of the set carries %d", i, in[i]);
    }
}

/* An active send freed at once still delivers its message. */
static void free_active(void)
{
    const size_t n = (1 << 20) + 5;
    unsigned char *out = malloc(n), *in = malloc(n);
    fill(out, n, 500 + (unsigned long)rank);
    MPI_Request rq;
    MPI_Isend(out, (int)n, MPI_BYTE, peer, 400, MPI_COMM_WORLD, &rq);
    MPI_Request_free(&rq);
    CHECK(rq == MPI_REQUEST_NULL, "Request_free sets MPI_REQUEST_NULL");
    MPI_Recv(in, (int)n, MPI_BYTE, from, 400, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const long bad = first_bad(in, n, 500 + (unsigned long)from);
    CHECK(bad < 0, "message of a freed send: byte %ld differs", bad);
    /* The freed send's buffer may be reused only once the message is known to have arrived. */
    p2p_barrier();
    free(out);
    free(in);
}

static void counts(void)
{
    int ints[5] = {1, 2, 3, 4, 5}, got[8], n = -1, elements = -1;
    MPI_Status st;
    MPI_Sendrecv(ints, 5, MPI_INT, peer, 500, got, 8, MPI_INT, from, 500, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    MPI_Get_elements(&st, MPI_INT, &elements);
    CHECK(n == 5 && elements == 5, "5 MPI_INT: count %d elements %d", n, elements);
    MPI_Get_count(&st, MPI_SHORT, &n);
    CHECK(n == 10, "5 MPI_INT counted in MPI_SHORT: %d", n);
    char bytes[6] = {0};
    MPI_Sendrecv(bytes, 6, MPI_BYTE, peer, 501, got, 32, MPI_BYTE, from, 501, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == MPI_UNDEFINED, "6 bytes counted in MPI_INT: %d, expected MPI_UNDEFINED", n);
    MPI_Get_count(&st, MPI_BYTE, &n);
    MPI_Get_elements(&st, MPI_BYTE, &elements);
    CHECK(n == 6 && elements == 6, "6 bytes: count %d elements %d", n, elements);
}

static void check_null_status(const MPI_Status *st, const char *call)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    CHECK(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG && n == 0,
          "%s with MPI_PROC_NULL: source %d tag %d count %d", call, st->MPI_SOURCE, st->MPI_TAG, n);
}

/* Every call with MPI_PROC_NULL completes at once; receives leave their buffers alone. */
static void proc_null(void)
{
    const int N = MPI_PROC_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    int buf[4] = {5, 6, 7, 8}, flag = 0;
    MPI_Status st;
    MPI_Request rq, rqs[8];
    MPI_Message msg;

    MPI_Send(buf, 4, MPI_INT, N, 1, w);
    MPI_Ssend(buf, 4, MPI_INT, N, 1, w);
    MPI_Rsend(buf, 4, MPI_INT, N, 1, w);
    MPI_Bsend(buf, 4, MPI_INT, N, 1, w);
    MPI_Recv(buf, 4, MPI_INT, N, 1, w, &st);
    check_null_status(&st, "MPI_Recv");
    MPI_Isend(buf, 4, MPI_INT, N, 1, w, &rqs[0]);
    MPI_Issend(buf, 4, MPI_INT, N, 1, w, &rqs[1]);
    MPI_Irsend(buf, 4, MPI_INT, N, 1, w, &rqs[2]);
    MPI_Ibsend(buf, 4, MPI_INT, N, 1, w, &rqs[3]);
    MPI_Irecv(buf, 4, MPI_INT, N, 1, w, &rqs[4]);
    int nrq = 5;
    /* Translated, the runtime decides what it can promise (checked natively against each). */
    const int ompi = runtime_is("Open MPI"), mpich = runtime_is("MPICH");
    (void)ompi; /* used only by the MPI-4 calls */
#if MPI_VERSION >= 4 /* MPI-4 calls: so that the program also builds against Open MPI 4.1 */
    /* Open MPI 4.1 lacks MPI_Isendrecv, and MPICH 4.0's crashes on MPI_PROC_NULL (it hands the null
     * peer to its transport). */
    if (!ompi && !mpich) {
        MPI_Isendrecv(buf, 4, MPI_INT, N, 1, buf, 4, MPI_INT, N, 1, w, &rqs[nrq++]);
        MPI_Isendrecv_replace(buf, 4, MPI_INT, N, 1, N, 1, w, &rqs[nrq++]);
    }
#endif
    {
        MPI_Status sts[8];
        MPI_Waitall(nrq, rqs, sts);
        /* MPICH 4.0.2's MPI_Waitall leaves source and tag 0 in the status of an MPI_PROC_NULL receive
         * completed together with sends (its own mpicc and mpirun show the same). */
        for (int i = mpich ? 5 : 4; i < nrq; ++i) {
            check_null_status(&sts[i], i == 4 ? "MPI_Irecv" : i == 5 ? "MPI_Isendrecv" : "MPI_Isendrecv_replace");
        }
    }
    MPI_Send_init(buf, 4, MPI_INT, N, 1, w, &rqs[0]);
    MPI_Ssend_init(buf, 4, MPI_INT, N, 1, w, &rqs[1]);
    MPI_Rsend_init(buf, 4, MPI_INT, N, 1, w, &rqs[2]);
    MPI_Bsend_init(buf, 4, MPI_INT, N, 1, w, &rqs[3]);
    MPI_Recv_init(buf, 4, MPI_INT, N, 1, w, &rqs[4]);
    for (int round = 0; round < 2; ++round) {
        MPI_Status sts[5];
        if (round == 0) {
            MPI_Startall(5, rqs);
        } else {
            for (int i = 0; i < 5; ++i) {
                MPI_Start(&rqs[i]);
            }
        }
        MPI_Waitall(5, rqs, sts);
        if (!mpich) { /* MPICH 4.0.2 reports source MPI_ANY_SOURCE for a persistent one (natively too) */
            check_null_status(&sts[4], "MPI_Recv_init");
        }
    }
    for (int i = 0; i < 5; ++i) {
        MPI_Request_free(&rqs[i]);
    }
    MPI_Sendrecv(buf, 4, MPI_INT, N, 1, buf, 4, MPI_INT, N, 1, w, &st);
    check_null_status(&st, "MPI_Sendrecv");
    MPI_Sendrecv_replace(buf, 4, MPI_INT, N, 1, N, 1, w, &st);
    check_null_status(&st, "MPI_Sendrecv_replace");
    MPI_Probe(N, 1, w, &st);
    check_null_status(&st, "MPI_Probe");
    MPI_Iprobe(N, 1, w, &flag, &st);
    CHECK(flag, "MPI_Iprobe of MPI_PROC_NULL finds a message");
    check_null_status(&st, "MPI_Iprobe");
    MPI_Mprobe(N, 1, w, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NO_PROC, "MPI_Mprobe of MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC");
    check_null_status(&st, "MPI_Mprobe");
    MPI_Mrecv(buf, 4, MPI_INT, &msg, &st);
    check_null_status(&st, "MPI_Mrecv");
    flag = 0;
    MPI_Improbe(N, 1, w, &flag, &msg, &st);
    CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "MPI_Improbe of MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC");
    check_null_status(&st, "MPI_Improbe");
    MPI_Imrecv(buf, 4, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, &st);
    check_null_status(&st, "MPI_Imrecv");
    MPI_Irecv(buf, 4, MPI_INT, N, 1, w, &rq);
    MPI_Request_get_status(rq, &flag, &st);
    CHECK(flag && rq != MPI_REQUEST_NULL, "MPI_Request_get_status of a receive from MPI_PROC_NULL");
    check_null_status(&st, "MPI_Request_get_status");
    MPI_Test(&rq, &flag, &st);
    CHECK(flag && rq == MPI_REQUEST_NULL, "MPI_Test of a receive from MPI_PROC_NULL");
    check_null_status(&st, "MPI_Test");
    CHECK(buf[0] == 5 && buf[3] == 8, "a receive from MPI_PROC_NULL changed its buffer");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs two ranks");
    peer = (rank + 1) % size;
    from = (rank + size - 1) % size;
    const size_t large = (1 << 20) + 5;
    const int attached = 2 * ((int)large + MPI_BSEND_OVERHEAD) + 1024;
    char *attach = malloc((size_t)attached);
    MPI_Buffer_attach(attach, attached);

    unsigned long id = 1;
    for (int mode = 0; mode < kSendModes; ++mode) {
        for (int how = 0; how < kCompletions; ++how) {
            send_mode(mode, how % 2 ? large : 8, id++, how);
        }
    }
    p2p_barrier();
    synchronous(8);
    synchronous(large);
    p2p_barrier();
    null_requests();
    completion_sets();
    free_active();
    counts();
    proc_null();

    void *back = NULL;
    int back_size = 0;
    MPI_Buffer_detach(&back, &back_size);
    CHECK(back == attach && back_size == attached, "MPI_Buffer_detach returns the attached buffer");
    free(attach);
    p2p_barrier();
    if (rank == 0) {
        printf("p2p_calls: %d send modes x %d completions, synchronous, null requests, PROC_NULL on %d ranks: ok\n",
               kSendModes, kCompletions, size);
    }
    MPI_Finalize();
    return 0;
}
