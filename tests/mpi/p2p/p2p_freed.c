/* Sends whose requests were freed (MPI_Request_free) right after MPI_Isend, by a sender that then calls
 * MPI_Finalize at once: rendezvous-sized messages, one on MPI_COMM_WORLD and one on a communicator the
 * sender frees too, received by a rank that posts its receives only later. Every byte must arrive
 * (MPI_Finalize waits for them). With the argument "unreceived" the sender also frees a send nobody
 * ever receives: MPI_Finalize must still end (the receiver's own MPI_Finalize tells the sender that
 * send is lost), saying so. Two ranks. */
#define _POSIX_C_SOURCE 200809L
#include "p2p_check.h"

#include <time.h>

enum { kBytes = 4 << 20 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "two ranks, not %d", size);
    const int unreceived = argc > 1 && strcmp(argv[1], "unreceived") == 0;
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    unsigned char *a = malloc(kBytes), *b = malloc(kBytes), *c = malloc(kBytes);
    if (rank == 0) {
        fill(a, kBytes, 1);
        fill(b, kBytes, 2);
        fill(c, kBytes, 3);
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Isend(a, kBytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
        MPI_Isend(b, kBytes, MPI_BYTE, 1, 2, dup, &r);
        MPI_Request_free(&r);
        if (unreceived) {
            MPI_Isend(c, kBytes, MPI_BYTE, 1, 99, MPI_COMM_WORLD, &r);
            MPI_Request_free(&r);
        }
        MPI_Comm_free(&dup);
    } else {
        /* Long enough for the sender to be inside MPI_Finalize. */
        const struct timespec pause = {0, 200 * 1000 * 1000};
        nanosleep(&pause, NULL);
        memset(a, 0, kBytes);
        memset(b, 0, kBytes);
        MPI_Recv(b, kBytes, MPI_BYTE, 0, 2, dup, MPI_STATUS_IGNORE);
        MPI_Recv(a, kBytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long bad = first_bad(a, kBytes, 1);
        CHECK(bad < 0, "the freed send on MPI_COMM_WORLD: byte %ld wrong", bad);
        bad = first_bad(b, kBytes, 2);
        CHECK(bad < 0, "the freed send on the freed communicator: byte %ld wrong", bad);
        MPI_Comm_free(&dup);
        printf("p2p_freed: both freed sends received whole\n");
    }
    MPI_Finalize();
    /* The sender's buffers are its own again only now. */
    free(a);
    free(b);
    free(c);
    return 0;
}
