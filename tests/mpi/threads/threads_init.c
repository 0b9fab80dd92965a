/* Thread level and MPI_Finalize under MPI_THREAD_MULTIPLE: MPI_Query_thread gives MULTIPLE in every
 * thread, MPI_Is_thread_main is true in the thread that initialized MPI only; T threads exchange
 * messages and are joined; then MPI_Finalize runs while T more threads are alive but idle (blocked on
 * a condition variable, having made MPI calls before), and those threads, woken after it, see
 * MPI_Finalized true. The job must end cleanly, every rank printing its line.
 *
 * usage: threads_init [T threads (default 4)]
 */
#include "threads_check.h"

static int T;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int finalized_flag, idle_ready;
static atomic_int saw_finalized;

static void check_level(int t)
{
    int level = -1, is_main = -1;
    MPI_Query_thread(&level);
    MPI_Is_thread_main(&is_main);
    CHECK(level == MPI_THREAD_MULTIPLE, "thread %d: MPI_Query_thread gives %d", t, level);
    CHECK(is_main == 0, "thread %d: MPI_Is_thread_main is true outside the main thread", t);
}

static void *talker(void *arg)
{
    const int t = (int)(long)arg;
    check_level(t);
    const int next = (world_rank + 1) % world_size, prev = (world_rank + world_size - 1) % world_size;
    for (int i = 0; i < 50; ++i) {
        int out = t * 1000 + i, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, next, t, &in, 1, MPI_INT, prev, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(in == out, "thread %d: received %d, expected %d", t, in, out);
    }
    return NULL;
}

static void *idler(void *arg)
{
    const int t = (int)(long)arg;
    check_level(T + t);
    pthread_mutex_lock(&lock);
    ++idle_ready;
    pthread_cond_broadcast(&cond);
    while (!finalized_flag) {
        pthread_cond_wait(&cond, &lock);
    }
    pthread_mutex_unlock(&lock);
    int finalized = 0, initialized = 0;
    MPI_Finalized(&finalized);
    MPI_Initialized(&initialized);
    if (finalized && initialized) {
        atomic_fetch_add(&saw_finalized, 1);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    T = threads_arg(argc, argv, 1, 4, 1, kMaxThreads / 2, "threads");
    int level = -1, is_main = 0;
    MPI_Query_thread(&level);
    MPI_Is_thread_main(&is_main);
    CHECK(level == MPI_THREAD_MULTIPLE && is_main, "main thread: MPI_Query_thread %d, MPI_Is_thread_main %d", level,
          is_main);
    threads_run(T, talker);

    pthread_t idle[kMaxThreads];
    for (long t = 0; t < T; ++t) {
        pthread_create(&idle[t], NULL, idler, (void *)t);
    }
    pthread_mutex_lock(&lock);
    while (idle_ready < T) {
        pthread_cond_wait(&cond, &lock);
    }
    pthread_mutex_unlock(&lock);
    MPI_Barrier(MPI_COMM_WORLD);
    const int rank = world_rank, size = world_size;
    MPI_Finalize();
    pthread_mutex_lock(&lock);
    finalized_flag = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    for (int t = 0; t < T; ++t) {
        pthread_join(idle[t], NULL);
    }
    if (atomic_load(&saw_finalized) != T) {
        fprintf(stderr, "rank %d: FAILED: %d of %d idle threads saw MPI_Finalized and MPI_Initialized true\n", rank,
                atomic_load(&saw_finalized), T);
        return 1;
    }
    printf("threads_init: rank %d of %d finalized with %d idle threads\n", rank, size, T);
    return 0;
}
