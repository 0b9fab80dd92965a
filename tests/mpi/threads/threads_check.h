/* What the multi-threaded test programs share: MPI_Init_thread that fails the job unless
 * MPI_THREAD_MULTIPLE is provided (a program that silently ran one thread would prove nothing), running
 * N threads on one function, a start line the threads wait at together (so that their calls overlap),
 * and the failed-check macro of mpi_check.h, which MPI_Abort()s: callable from any thread under
 * MULTIPLE. Plain MPI C with POSIX threads: the programs also run over the translators. */
#ifndef TESSERA_TESTS_MPI_THREADS_THREADS_CHECK_H
#define TESSERA_TESTS_MPI_THREADS_THREADS_CHECK_H

#include "../mpi_check.h"

#include <pthread.h>
#include <stdatomic.h>

enum { kMaxThreads = 64 };

static int world_rank = -1, world_size = 0;

static inline void threads_init(int *argc, char ***argv)
{
    int provided = -1;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE asked, %d provided (MPI_THREAD_MULTIPLE is %d)",
          provided, MPI_THREAD_MULTIPLE);
}

/* argv[i] as a count in [lo, hi], or `fallback` when absent; anything else ends the job naming it. */
static inline int threads_arg(int argc, char **argv, int i, int fallback, int lo, int hi, const char *what)
{
    if (argc <= i) {
        return fallback;
    }
    char *end = NULL;
    const long v = strtol(argv[i], &end, 10);
    CHECK(end != argv[i] && *end == '\0' && v >= lo && v <= hi, "argument %d (%s) is '%s': expected %d to %d", i,
          what, argv[i], lo, hi);
    return (int)v;
}

/* Runs fn(0) .. fn(n - 1) on n threads at once and joins them. */
static inline void threads_run(int n, void *(*fn)(void *))
{
    pthread_t threads[kMaxThreads];
    CHECK(n >= 1 && n <= kMaxThreads, "%d threads asked, 1 to %d supported", n, kMaxThreads);
    for (long t = 0; t < n; ++t) {
        CHECK(pthread_create(&threads[t], NULL, fn, (void *)t) == 0, "pthread_create of thread %ld failed", t);
    }
    for (int t = 0; t < n; ++t) {
        pthread_join(threads[t], NULL);
    }
}

/* A start line for the threads of one process: each waits until all `n` have arrived, so that their
 * MPI calls really run at the same time rather than one after the other as threads start. */
typedef struct {
    pthread_barrier_t barrier;
} start_line;

static inline void start_line_init(start_line *s, int n)
{
    pthread_barrier_init(&s->barrier, NULL, (unsigned)n);
}

static inline void start_line_wait(start_line *s)
{
    pthread_barrier_wait(&s->barrier);
}

static inline void start_line_destroy(start_line *s)
{
    pthread_barrier_destroy(&s->barrier);
}

/* Ends a passing run: everyone reached the end, then one line that the tests match. */
static inline int threads_pass(const char *program, const char *what)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank == 0) {
        printf("%s: all checks passed on %d ranks (%s)\n", program, world_size, what);
    }
    MPI_Finalize();
    return 0;
}

#endif
