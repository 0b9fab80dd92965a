/* Messages left unreceived at exit, traced: every rank but 0 sends rank 0 small messages it never
 * receives (tag 77), besides ones it does; the trace keeps the sends. Usage: trace_unreceived <dir> */
#include "trace_log.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    log_open(argc, argv);
    int value = log_rank;
    if (log_rank != 0) {
        for (int i = 0; i < 3; ++i) {
            MPI_Send(&value, 1, MPI_INT, 0, 77, MPI_COMM_WORLD); /* small: complete without a receiver */
            log_message("send", MPI_COMM_WORLD, 0, 77, 4, 0);
        }
        t_send(&value, 1, MPI_INT, 0, 78, MPI_COMM_WORLD);
    } else {
        for (int r = 1; r < log_size; ++r) {
            t_recv(&value, 1, MPI_INT, r, 78, MPI_COMM_WORLD);
        }
    }
    t_p2p_barrier(MPI_COMM_WORLD);
    log_close();
    MPI_Finalize();
    printf("trace_unreceived: rank %d done\n", log_rank);
    return 0;
}
