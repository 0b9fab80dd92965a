/* MPI ranks that stress the launcher and the tcp wire-up (launch_cases.sh). argv[1] picks the mode:
 *   accept-then-compute S   rank 1 sends to rank 0 at once; rank 0 makes one progress pass (accepting
 *                           the connection), then stays out of MPI for S seconds before receiving
 *   connect-then-compute S  rank 1 starts a send to rank 0 (opening the connection), then stays out of
 *                           MPI for S seconds before waiting for it; rank 0 receives all along
 *   spin DIR                every rank writes DIR/jobid and DIR/ready.<rank> after MPI_Init, then
 *                           waits in MPI_Recv for a message that never comes (a busy rank)
 *   late-init DIR S         like spin, but the last rank sleeps S seconds before MPI_Init, so the
 *                           others wait in the wire-up
 *   kill-one                after a barrier the last rank kills itself with SIGKILL while the others
 *                           wait for a message from it
 *   child-env               each rank runs a shell after MPI_Init and prints whether that child
 *                           sees TESSERA_JOB_KEY
 * Prints "rank R ok" when a mode ends normally. */
#include <mpi.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void pause_seconds(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) != 0) {
    }
}

static void touch(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

static void wait_forever(void)
{
    int v = 0;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const char *jobid = getenv("TESSERA_JOBID");
    const char *env_rank = getenv("TESSERA_RANK");
    const char *env_size = getenv("TESSERA_SIZE");
    if (strcmp(mode, "late-init") == 0 && argc > 3) {
        touch(argv[2], "jobid", jobid != NULL ? jobid : "");
        if (env_rank != NULL && env_size != NULL && atoi(env_rank) == atoi(env_size) - 1) {
            pause_seconds(atof(argv[3]));
        }
    }
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strcmp(mode, "accept-then-compute") == 0 || strcmp(mode, "connect-then-compute") == 0) {
        const double s = argc > 2 ? atof(argv[2]) : 30;
        const int acceptor_computes = strcmp(mode, "accept-then-compute") == 0;
        if (rank == 1) {
            v = 42;
            MPI_Request req;
            MPI_Isend(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &req);
            if (!acceptor_computes) {
                pause_seconds(s);
            }
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else if (rank == 0) {
            if (acceptor_computes) {
                pause_seconds(1.0); /* the connection and its hello are there by now */
                int flag = 0;
                MPI_Iprobe(MPI_ANY_SOURCE, 1234, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
                pause_seconds(s);
            }
            MPI_Recv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (v != 42) {
                fprintf(stderr, "rank 0 received %d, expected 42\n", v);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(mode, "spin") == 0 || strcmp(mode, "late-init") == 0) {
        char name[64];
        snprintf(name, sizeof name, "ready.%d", rank);
        if (argc > 2) {
            touch(argv[2], "jobid", jobid != NULL ? jobid : "");
            touch(argv[2], name, "1");
        }
        wait_forever();
    } else if (strcmp(mode, "kill-one") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == size - 1) {
            pause_seconds(0.2);
            kill(getpid(), SIGKILL);
        }
        MPI_Recv(&v, 1, MPI_INT, size - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (strcmp(mode, "child-env") == 0) {
        char command[128];
        snprintf(command, sizeof command,
                 "if [ -n \"$TESSERA_JOB_KEY\" ]; then echo 'rank %d child sees the job key'; "
                 "else echo 'rank %d child sees no job key'; fi",
                 rank, rank);
        fflush(stdout);
        if (system(command) != 0) {
            MPI_Abort(MPI_COMM_WORLD, 4);
        }
    } else {
        fprintf(stderr, "mpi_launch_probe: unknown mode '%s'\n", mode);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    printf("rank %d ok\n", rank);
    MPI_Finalize();
    return 0;
}
