/* What the multi-threaded benchmarks share: MPI_THREAD_MULTIPLE or a clear refusal, and the threads
 * that run one function each, started together. Plain MPI C and POSIX threads: built against Tessera,
 * Open MPI and MPICH by threads_bench.py. */
#ifndef TESSERA_BENCH_MT_COMMON_H
#define TESSERA_BENCH_MT_COMMON_H

#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Initialises with MPI_THREAD_MULTIPLE. A runtime that offers less gets one line that the runner
 * reports ("thread_level <provided>") and the program ends without measuring. MT_SINGLE=1 in the
 * environment asks for MPI_THREAD_SINGLE instead (with one thread: the cost of MULTIPLE itself). */
static int mt_init(int *argc, char ***argv, int *rank)
{
    const char *single = getenv("MT_SINGLE");
    const int wanted = single != NULL && single[0] == '1' ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE;
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, wanted, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    if (provided < wanted) {
        if (*rank == 0) {
            printf("thread_level %d 0\n", provided);
        }
        MPI_Finalize();
        return 0;
    }
    return 1;
}

/* THREADS, the first argument (default 1): 1..64, or the job ends with a message naming `program`. */
static int mt_threads(int argc, char **argv, const char *program)
{
    const int nthreads = argc > 1 ? atoi(argv[1]) : 1;
    if (nthreads < 1 || nthreads > 64) {
        fprintf(stderr, "%s: THREADS must be 1..64, not %s\n", program, argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return nthreads;
}

typedef struct {
    int thread;
    int nthreads;
    int rank;
    long iters;     /* out: iterations done before the first thread of rank 0 marked the last */
    int size;
    pthread_barrier_t *start;
    double seconds; /* out: this thread's time for its iters */
} mt_task;

/* Runs body(task) on nthreads threads that start their timed loops together; fills each seconds. */
static void mt_run(mt_task *tasks, int nthreads, void *(*body)(void *))
{
    pthread_t th[64];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)nthreads);
    for (int t = 0; t < nthreads; ++t) {
        tasks[t].start = &start;
        pthread_create(&th[t], NULL, body, &tasks[t]);
    }
    for (int t = 0; t < nthreads; ++t) {
        pthread_join(th[t], NULL);
    }
    pthread_barrier_destroy(&start);
}

#endif
