/* Ways a job ends early, one per mode (argv[1]); the last rank fails, the others wait to be ended:
 *   abort             MPI_Abort(MPI_COMM_WORLD, 7)
 *   unsupported       MPI_Get_hw_resource_info, which nobody provides, under MPI_COMM_SELF's default
 *                     MPI_ERRORS_ARE_FATAL
 *   errors_abort      MPI_ERRORS_ABORT on MPI_COMM_WORLD, then a NULL output pointer (MPI_ERR_ARG)
 *   call_errhandler   MPI_Comm_call_errhandler(dup of MPI_COMM_SELF, MPI_ERR_OTHER) under the
 *                     MPI_ERRORS_ARE_FATAL it inherits (the message names a communicator without a name)
 *   user_error        the same with a code of a class the application added (16384 and up: the job
 *                     must still end with a failing status), with its MPI_Add_error_string text
 * The test script checks mpirun's exit status, the messages, and that the waiting ranks were ended
 * long before their 60 s are up. */
#include <mpi.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank = 0, size = 1;
    const char *mode = argc > 1 ? argv[1] : "abort";
    struct timespec pause = {0, 100000000};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1) {
        printf("rank %d: failing with '%s'\n", rank, mode);
        fflush(stdout);
        if (strcmp(mode, "abort") == 0) {
            MPI_Abort(MPI_COMM_WORLD, 7);
        } else if (strcmp(mode, "unsupported") == 0) {
            MPI_Info hw = MPI_INFO_NULL;
            MPI_Get_hw_resource_info(&hw);
        } else if (strcmp(mode, "errors_abort") == 0) {
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT);
            MPI_Comm_rank(MPI_COMM_WORLD, NULL);
        } else if (strcmp(mode, "call_errhandler") == 0) {
            MPI_Comm self = MPI_COMM_NULL;
            MPI_Comm_dup(MPI_COMM_SELF, &self);
            MPI_Comm_call_errhandler(self, MPI_ERR_OTHER);
        } else if (strcmp(mode, "user_error") == 0) {
            int cls = 0, code = 0;
            MPI_Add_error_class(&cls);
            MPI_Add_error_code(cls, &code);
            MPI_Add_error_string(code, "the frobnicator jammed");
            MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
        }
        fprintf(stderr, "rank %d: still running after '%s'\n", rank, mode);
        return 3;
    }
    /* The others would finish after 60 s: the test fails if mpirun lets them. */
    for (int i = 0; i < 600; ++i) {
        nanosleep(&pause, NULL);
    }
    fprintf(stderr, "rank %d: nobody ended the job\n", rank);
    MPI_Finalize();
    return 0;
}
