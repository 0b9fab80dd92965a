/* Blocking point-to-point, traced: a pipeline around the ring with MPI_Send, MPI_Ssend and MPI_Bsend
 * in eager and rendezvous sizes and several datatypes, MPI_Sendrecv and MPI_Sendrecv_replace with
 * both neighbours, and sends to MPI_PROC_NULL (which no trace may show). Every event is logged
 * (trace_log.h). Usage: trace_blocking <log directory> */
#include "trace_log.h"

static void pipeline(int mode, int count, MPI_Datatype type, int tag)
{
    const int next = (log_rank + 1) % log_size, prev = (log_rank + log_size - 1) % log_size;
    char *out = calloc((size_t)count, 16), *in = calloc((size_t)count, 16);
    /* Rank 0 starts, everyone else first receives: no two ranks wait on each other. */
    if (log_rank != 0) {
        t_recv(in, count, type, prev, tag, MPI_COMM_WORLD);
    }
    if (mode == 0) {
        t_send(out, count, type, next, tag, MPI_COMM_WORLD);
    } else if (mode == 1) {
        MPI_Ssend(out, count, type, next, tag, MPI_COMM_WORLD);
        log_message("send", MPI_COMM_WORLD, next, tag, type_bytes(count, type), 1);
    } else {
        MPI_Bsend(out, count, type, next, tag, MPI_COMM_WORLD);
        log_message("send", MPI_COMM_WORLD, next, tag, type_bytes(count, type), 1);
    }
    if (log_rank == 0) {
        t_recv(in, count, type, prev, tag, MPI_COMM_WORLD);
    }
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    log_open(argc, argv);
    const int next = (log_rank + 1) % log_size, prev = (log_rank + log_size - 1) % log_size;
    static char attached[1 << 20];
    MPI_Buffer_attach(attached, sizeof attached);

    const int counts[] = {1, 250, 40000};
    const MPI_Datatype types[] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};
    int tag = 10;
    for (int mode = 0; mode < 3; ++mode) {
        for (int c = 0; c < 3; ++c) {
            pipeline(mode, counts[c], types[c], tag++);
        }
    }
    /* Both directions at once. */
    double a[64] = {0}, b[64] = {0};
    MPI_Status st;
    MPI_Sendrecv(a, 64, MPI_DOUBLE, next, 50, b, 64, MPI_DOUBLE, prev, 50, MPI_COMM_WORLD, &st);
    log_message("send", MPI_COMM_WORLD, next, 50, 64 * 8, 1);
    log_received("recv", MPI_COMM_WORLD, &st);
    MPI_Sendrecv_replace(a, 10, MPI_INT, prev, 51, next, 51, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    log_message("send", MPI_COMM_WORLD, prev, 51, 40, 1);
    log_message("recv", MPI_COMM_WORLD, next, 51, 40, 1);
    /* No message exists: nothing is traced, nothing logged. */
    MPI_Send(a, 1, MPI_INT, MPI_PROC_NULL, 52, MPI_COMM_WORLD);
    MPI_Recv(a, 1, MPI_INT, MPI_PROC_NULL, 52, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    void *detached;
    int detached_size;
    MPI_Buffer_detach(&detached, &detached_size);
    t_p2p_barrier(MPI_COMM_WORLD);
    log_close();
    MPI_Finalize();
    printf("trace_blocking: rank %d done\n", log_rank);
    return 0;
}
