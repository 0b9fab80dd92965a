/* A message sent on a communicator and never received (an erroneous program) must not reach a later
 * communicator that got the same context id: it arrives after the receiver freed the communicator,
 * waits among the early messages of that id, and must not be replayed to the next communicator with
 * it (Tessera drops it with a warning). Then, once more, with the message already queued as unexpected
 * when the receiver frees. The new communicator's own messages arrive whole. Plain MPI C, 2 or more ranks
 * (ranks above 1 only take part in the creations). */
#include <mpi.h>

#include <stdio.h>

#include "../mpi_check.h"

static int rank;

/* Rank 0 sends `stale` on a duplicate of WORLD that rank 1 never receives from: rank 1 frees it before
 * (early) or after (late_free) the message arrives. Then both make a new duplicate, which takes the same
 * lowest free id, and exchange a real message on it. */
static void round_trip(int late_free, int stale)
{
    MPI_Comm a, b;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &a) == MPI_SUCCESS, "MPI_Comm_dup");
    if (rank == 1 && !late_free) {
        MPI_Comm_free(&a);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(MPI_Send(&stale, 1, MPI_INT, 1, 5, a) == MPI_SUCCESS, "MPI_Send on the first duplicate");
    }
    /* Fragments between two processes arrive in order: once this one is in, so is the stale one. */
    int go = 1;
    if (rank == 0) {
        MPI_Send(&go, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&go, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (a != MPI_COMM_NULL) {
        MPI_Comm_free(&a);
    }
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &b) == MPI_SUCCESS, "MPI_Comm_dup");
    if (rank == 1) {
        int flag = 1;
        MPI_Status st;
        CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, b, &flag, &st) == MPI_SUCCESS, "MPI_Iprobe");
        CHECK(!flag, "the message of a freed communicator (tag %d) reached the next one", st.MPI_TAG);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        const int fresh = stale + 1;
        CHECK(MPI_Send(&fresh, 1, MPI_INT, 1, 5, b) == MPI_SUCCESS, "MPI_Send on the second duplicate");
    } else if (rank == 1) {
        int got = 0;
        CHECK(MPI_Recv(&got, 1, MPI_INT, 0, 5, b, MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Recv");
        CHECK(got == stale + 1, "the second duplicate's own message: got %d, want %d", got, stale + 1);
    }
    MPI_Comm_free(&b);
}

int main(int argc, char **argv)
{
    int size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 ranks");
    round_trip(0, 100);
    round_trip(1, 200);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("comm_freed_unreceived: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
