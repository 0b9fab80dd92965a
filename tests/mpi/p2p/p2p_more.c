/* Buffered sends, matched probes and the combined non-blocking send-receive, on 2-4 ranks:
 *   - MPI_Buffer_attach, MPI_Bsend/MPI_Ibsend of small and large messages, MPI_ERR_BUFFER when the
 *     buffer is too small, MPI_Buffer_detach waiting for delivery and returning the buffer;
 *   - MPI_Mprobe/MPI_Improbe + MPI_Mrecv/MPI_Imrecv, MPI_MESSAGE_NO_PROC;
 *   - MPI_Isendrecv and MPI_Isendrecv_replace around the ring, with MPI_PROC_NULL too;
 *   - sends and receives at MPI_BOTTOM with datatypes of absolute addresses. */
#include "p2p_check.h"

#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Status st;

    /* Buffered sends. */
    const int big = 1 << 20;
    const int bufsize = 4 * (big + MPI_BSEND_OVERHEAD) + 64;
    char *attach = malloc((size_t)bufsize);
    MPI_Buffer_attach(attach, bufsize);
    unsigned char *out = malloc((size_t)big), *in = malloc((size_t)big);
    for (int round = 0; round < 3; ++round) {
        fill(out, (size_t)big, (unsigned long)(rank * 10 + round));
        MPI_Bsend(out, big, MPI_BYTE, peer, 40 + round, MPI_COMM_WORLD);
        memset(out, 0, (size_t)big); /* the message was copied: the buffer may change at once */
        MPI_Request rq;
        int small = rank * 100 + round;
        MPI_Ibsend(&small, 1, MPI_INT, peer, 50 + round, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Recv(in, big, MPI_BYTE, from, 40 + round, MPI_COMM_WORLD, &st);
        const long bad = first_bad(in, (size_t)big, (unsigned long)(from * 10 + round));
        CHECK(bad < 0, "buffered message %d: byte %ld differs", round, bad);
        int got = -1;
        MPI_Recv(&got, 1, MPI_INT, from, 50 + round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(got == from * 100 + round, "buffered small message %d carries %d", round, got);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1;
    const int rc = MPI_Bsend(out, bufsize, MPI_BYTE, peer, 60, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER, "a message larger than the buffer is MPI_ERR_BUFFER (class %d)", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    void *back = NULL;
    int back_size = 0;
    MPI_Buffer_detach(&back, &back_size);
    CHECK(back == attach && back_size == bufsize, "MPI_Buffer_detach returns the attached buffer");
    free(attach);
    p2p_barrier();

    /* Matched probes. */
    int value = rank;
    MPI_Send(&value, 1, MPI_INT, peer, 70, MPI_COMM_WORLD);
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Mprobe(from, 70, MPI_COMM_WORLD, &msg, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(msg != MPI_MESSAGE_NULL && st.MPI_SOURCE == from && count == 1, "MPI_Mprobe");
    int flag = 1;
    MPI_Message other;
    MPI_Improbe(from, 70, MPI_COMM_WORLD, &flag, &other, MPI_STATUS_IGNORE);
    CHECK(!flag, "a matched message is no longer visible to probes");
    int got = -1;
    MPI_Mrecv(&got, 1, MPI_INT, &msg, &st);
    CHECK(got == from && msg == MPI_MESSAGE_NULL, "MPI_Mrecv got %d", got);
    MPI_Request rq, large_send;
    MPI_Isend(out, big, MPI_BYTE, peer, 71, MPI_COMM_WORLD, &large_send); /* rendezvous: must not block */
    flag = 0;
    while (!flag) {
        MPI_Improbe(MPI_ANY_SOURCE, 71, MPI_COMM_WORLD, &flag, &msg, &st);
    }
    MPI_Imrecv(in, big, MPI_BYTE, &msg, &rq);
    MPI_Wait(&rq, &st);
    MPI_Wait(&large_send, MPI_STATUS_IGNORE);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == big && st.MPI_SOURCE == from, "MPI_Imrecv of a large message: %d bytes from %d", count, st.MPI_SOURCE);
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Mprobe of MPI_PROC_NULL");
    MPI_Mrecv(&got, 1, MPI_INT, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Mrecv of MPI_MESSAGE_NO_PROC");
    p2p_barrier();

    /* MPI_Isendrecv, MPI_Isendrecv_replace. */
    for (int round = 0; round < 4; ++round) {
        const size_t n = round % 2 ? (size_t)big : 100;
        fill(out, n, (unsigned long)(rank * 7 + round));
        MPI_Isendrecv(out, (int)n, MPI_BYTE, peer, 80, in, (int)n, MPI_BYTE, from, 80, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, &st);
        CHECK(st.MPI_SOURCE == from && first_bad(in, n, (unsigned long)(from * 7 + round)) < 0,
              "MPI_Isendrecv round %d", round);
        fill(in, n, (unsigned long)(rank * 11 + round));
        MPI_Isendrecv_replace(in, (int)n, MPI_BYTE, peer, 81, from, 81, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, &st);
        CHECK(first_bad(in, n, (unsigned long)(from * 11 + round)) < 0, "MPI_Isendrecv_replace round %d", round);
    }
    MPI_Isendrecv(out, 4, MPI_BYTE, MPI_PROC_NULL, 0, in, 4, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Isendrecv with MPI_PROC_NULL on both sides");

    /* MPI_BOTTOM with a datatype of absolute addresses (MPICH's pt2pt/bottom): blocking and not. */
    {
        int value = rank * 100 + 1, got[2] = {-1, -1};
        MPI_Aint at[2];
        int lens[2] = {1, 1};
        MPI_Datatype ints[2] = {MPI_INT, MPI_INT}, mine, theirs;
        MPI_Get_address(&value, &at[0]);
        MPI_Type_create_struct(1, lens, at, ints, &mine);
        MPI_Get_address(&got[0], &at[0]);
        MPI_Get_address(&got[1], &at[1]);
        MPI_Type_create_struct(2, lens, at, ints, &theirs);
        MPI_Type_commit(&mine);
        MPI_Type_commit(&theirs);
        CHECK(MPI_Irecv(MPI_BOTTOM, 1, theirs, from, 82, MPI_COMM_WORLD, &rq) == MPI_SUCCESS, "MPI_Irecv at MPI_BOTTOM");
        CHECK(MPI_Send(MPI_BOTTOM, 1, mine, peer, 82, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Send from MPI_BOTTOM");
        CHECK(MPI_Send(MPI_BOTTOM, 1, mine, peer, 82, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Send from MPI_BOTTOM");
        MPI_Wait(&rq, &st);
        CHECK(MPI_Recv(MPI_BOTTOM, 1, mine, from, 82, MPI_COMM_WORLD, &st) == MPI_SUCCESS, "MPI_Recv at MPI_BOTTOM");
        CHECK(got[0] == from * 100 + 1 && got[1] == -1 && value == from * 100 + 1,
              "MPI_BOTTOM messages: got %d %d and %d, expected %d", got[0], got[1], value, from * 100 + 1);
        MPI_Type_free(&mine);
        MPI_Type_free(&theirs);
    }

    free(out);
    free(in);
    p2p_barrier();
    if (rank == 0) {
        printf("p2p_more: buffered sends, matched probes, Isendrecv on %d ranks: ok\n", size);
    }
    MPI_Finalize();
    return 0;
}
