/* The space of a buffered message the receiver has taken is free for the next buffered send, even when
 * the sender called nothing that progresses in between (MPI-4.1 3.6.2: the buffer holds the messages
 * still pending). Two ranks; rank 0 attaches room for exactly N messages of 1 MiB.
 *   1. rank 0 Ibsends N; rank 1 receives them. Rank 0 makes no MPI call until rank 1 says (through a
 *      file, which needs no progress of rank 0) that it has them all; then it Ibsends N more: each must
 *      succeed, the space of the first N being free once the engine has seen the receiver's answers.
 *   2. with rank 1 receiving nothing yet, one message more than the buffer holds is MPI_ERR_BUFFER, at
 *      once (it fails, it does not wait for a receiver).
 * Run with pml_single_copy=always: the receiver then reads each message itself, so rank 0's sends
 * complete only in rank 0's progress. */
#include "p2p_check.h"

#include <unistd.h>

enum { kMessages = 4, kBytes = 1 << 20 };

static void signal_file(const char *path)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot create %s", path);
    fclose(f);
}

/* Without any MPI call: rank 0's engine must not run meanwhile. */
static void await_file(const char *path)
{
    for (int waited = 0; access(path, F_OK) != 0; ++waited) {
        CHECK(waited < 120000, "%s did not appear within 120 s", path);
        usleep(1000);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "needs 2 ranks, not %d", size);
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    char received[512], refused[512];
    snprintf(received, sizeof received, "%s/p2p_bsend_room.%d.received", dir, pid);
    snprintf(refused, sizeof refused, "%s/p2p_bsend_room.%d.refused", dir, pid);

    const int bufsize = kMessages * (kBytes + MPI_BSEND_OVERHEAD);
    char *attach = malloc((size_t)bufsize);
    unsigned char *data = malloc(kBytes);
    MPI_Buffer_attach(attach, bufsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* 1. Room again once the receiver has the messages. */
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < kMessages; ++i) {
            const unsigned long message = (unsigned long)(round * kMessages + i);
            if (rank == 0) {
                fill(data, kBytes, message);
                MPI_Request rq;
                const int rc = MPI_Ibsend(data, kBytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &rq);
                CHECK(rc == MPI_SUCCESS,
                      "round %d, message %d: MPI_Ibsend failed (%d) though the receiver has every earlier one",
                      round, i, rc);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(data, kBytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                const long bad = first_bad(data, kBytes, message);
                CHECK(bad < 0, "message %lu: byte %ld differs", message, bad);
            }
        }
        if (round == 0) {
            if (rank == 1) {
                signal_file(received);
            } else {
                await_file(received);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. A full buffer whose messages nobody has received: MPI_ERR_BUFFER, not a wait. */
    if (rank == 0) {
        for (int i = 0; i < kMessages; ++i) {
            fill(data, kBytes, 100 + (unsigned long)i);
            CHECK(MPI_Bsend(data, kBytes, MPI_BYTE, 1, 2, MPI_COMM_WORLD) == MPI_SUCCESS, "message %d refused", i);
        }
        const double start = MPI_Wtime();
        int cls = -1;
        MPI_Error_class(MPI_Bsend(data, kBytes, MPI_BYTE, 1, 2, MPI_COMM_WORLD), &cls);
        CHECK(cls == MPI_ERR_BUFFER, "a message beyond a full buffer is MPI_ERR_BUFFER (class %d)", cls);
        CHECK(MPI_Wtime() - start < 10.0, "refusing it took %.1f s", MPI_Wtime() - start);
        signal_file(refused);
    } else {
        await_file(refused);
        for (int i = 0; i < kMessages; ++i) {
            MPI_Recv(data, kBytes, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            const long bad = first_bad(data, kBytes, 100 + (unsigned long)i);
            CHECK(bad < 0, "held message %d: byte %ld differs", i, bad);
        }
    }
    void *back = NULL;
    int back_size = 0;
    MPI_Buffer_detach(&back, &back_size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        unlink(received);
        unlink(refused);
        printf("p2p_bsend_room: the space of received buffered messages was reused\n");
    }
    free(attach);
    free(data);
    MPI_Finalize();
    return 0;
}
