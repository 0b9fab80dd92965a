/*
 * Writing a cvar that may change while MPI runs takes effect: pml_eager_limit lowered to 1 KiB through
 * MPI_T makes a 4000-byte send a rendezvous (it cannot complete before the receiver posts its receive),
 * and set back to 0 (the transport decides: 16 KiB for shm) makes it eager again (it completes while
 * the receive is not posted yet). Two ranks; rank 0 sends.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int rank = -1;

#define FAIL(...)                                                                                          \
    do {                                                                                                   \
        fprintf(stderr, "rank %d: FAILED %s:%d: ", rank, __FILE__, __LINE__);                              \
        fprintf(stderr, __VA_ARGS__);                                                                      \
        fprintf(stderr, "\n");                                                                             \
        MPI_Abort(MPI_COMM_WORLD, 1);                                                                      \
    } while (0)

static void set_eager_limit(unsigned long value)
{
    int index = -1, count = 0;
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    if (MPI_T_cvar_get_index("pml_eager_limit", &index) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS) {
        FAIL("no pml_eager_limit cvar");
    }
    int rc = MPI_T_cvar_write(h, &value);
    if (rc != MPI_SUCCESS) {
        FAIL("MPI_T_cvar_write(pml_eager_limit, %lu) returned %d", value, rc);
    }
    unsigned long back = 1;
    MPI_T_cvar_read(h, &back);
    if (back != value) {
        FAIL("pml_eager_limit reads %lu after writing %lu", back, value);
    }
    MPI_T_cvar_handle_free(&h);
}

/* Whether a 4000-byte send completed before the receiver posted its receive (eager) within `seconds`. */
static int completes_alone(double seconds)
{
    static char buf[4000];
    int done = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Request req;
        MPI_Isend(buf, sizeof buf, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &req);
        const double end = MPI_Wtime() + seconds;
        while (!done && MPI_Wtime() < end) {
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            if (!done) {
                usleep(1000);
            }
        }
        MPI_Send(NULL, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(NULL, 0, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(buf, sizeof buf, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Bcast(&done, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return done;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    if (!completes_alone(10.0)) {
        FAIL("with the default eager limit a 4000-byte send did not complete before its receive was posted");
    }
    set_eager_limit(1024);
    if (completes_alone(0.5)) {
        FAIL("with pml_eager_limit=1024 written through MPI_T a 4000-byte send still went eagerly");
    }
    set_eager_limit(0);
    if (!completes_alone(10.0)) {
        FAIL("with pml_eager_limit back at 0 a 4000-byte send did not go eagerly");
    }
    MPI_T_finalize();
    if (rank == 0) {
        printf("mpit_write: pml_eager_limit written through MPI_T switched a 4000-byte send to rendezvous and back\n");
    }
    MPI_Finalize();
    return 0;
}
