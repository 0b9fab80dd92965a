/* Request-based one-sided operations (MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate) on any
 * number of ranks: completed with MPI_Wait, MPI_Test and MPI_Waitall inside lock and lock_all epochs; an
 * Rput's origin buffer reused as soon as its request completed; Rget's data there when its request
 * completed; MPI_ERR_RMA_SYNC outside passive target epochs; and, under MPI_THREAD_MULTIPLE, four
 * threads per rank issuing and waiting for request-based operations on one window at once. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures, multiple;
static long *mem;
static MPI_Win win;

#define CHECK(cond, ...)                                                                                              \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "rank %d: line %d: ", rank, __LINE__);                                                   \
            fprintf(stderr, __VA_ARGS__);                                                                             \
            fputc('\n', stderr);                                                                                      \
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);                                                      \
        }                                                                                                             \
    } while (0)

enum { N = 16, THREADS = 4, ROUNDS = 100, SLOTS = 4 * N + THREADS };
/* Window layout (longs): [0, N) rput target, [N, 2N) rget source, [2N, 3N) raccumulate sums,
 * [3N, 4N) rget_accumulate counters, then one counter per thread. */

static int error_class(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

/* Over a translated runtime (tests/translator) the checks of what Tessera promises beyond the standard's
 * required behaviour are skipped. */
static int native_engine(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    return strstr(version, "(translator") == NULL;
}

static void *thread_main(void *arg)
{
    const int me = (int)(long)arg;
    const long one = 1;
    for (int round = 0; round < ROUNDS; ++round) {
        const int target = (rank + round) % size;
        long old = -1, seen = -1;
        MPI_Request r[2];
        MPI_Rget_accumulate(&one, 1, MPI_LONG, &old, 1, MPI_LONG, target, 4 * N + me, 1, MPI_LONG, MPI_SUM, win,
                            &r[0]);
        MPI_Rget(&seen, 1, MPI_LONG, target, N, 1, MPI_LONG, win, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(old >= 0, "thread %d: fetched %ld", me, old);
        CHECK(seen == 1000L * target, "thread %d: got %ld from rank %d", me, seen, target);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    multiple = provided == MPI_THREAD_MULTIPLE;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Win_allocate(SLOTS * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < SLOTS; ++i) {
        mem[i] = i >= N && i < 2 * N ? 1000L * rank + (i - N) : 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const int right = (rank + 1) % size;

    /* Rput and Rget under an exclusive lock, waited for one by one; the origin buffer is reused at once. */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    long buf[N], got[N];
    MPI_Request put_req[N];
    for (int i = 0; i < N; ++i) {
        buf[0] = 100L * rank + i;
        MPI_Rput(buf, 1, MPI_LONG, right, i, 1, MPI_LONG, win, &put_req[i]);
        MPI_Wait(&put_req[i], MPI_STATUS_IGNORE); /* now buf may change */
        CHECK(put_req[i] == MPI_REQUEST_NULL, "a waited request is MPI_REQUEST_NULL");
    }
    MPI_Request get_req;
    memset(got, 0xff, sizeof got);
    MPI_Rget(got, N, MPI_LONG, right, N, N, MPI_LONG, win, &get_req);
    int flag = 0;
    for (long spins = 0; !flag && spins < 100000000L; ++spins) {
        MPI_Test(&get_req, &flag, MPI_STATUS_IGNORE);
    }
    CHECK(flag, "MPI_Test never completed the Rget");
    for (int i = 0; i < N; ++i) {
        CHECK(got[i] == 1000L * right + i, "rget[%d] = %ld once its request completed", i, got[i]);
    }
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) {
        const int left = (rank + size - 1) % size;
        CHECK(mem[i] == 100L * left + i, "rput[%d] = %ld", i, mem[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Raccumulate and Rget_accumulate to every rank under lock_all, completed together with MPI_Waitall,
     * and some left for the unlock to complete. */
    MPI_Win_lock_all(0, win);
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * 2 * N * (size_t)size);
    long *olds = malloc(sizeof(long) * N * (size_t)size);
    int nreq = 0;
    for (int t = 0; t < size; ++t) {
        for (int i = 0; i < N; ++i) {
            const long v = rank + 1, one = 1;
            MPI_Raccumulate(&v, 1, MPI_LONG, t, 2 * N + i, 1, MPI_LONG, MPI_SUM, win, &reqs[nreq++]);
            MPI_Rget_accumulate(&one, 1, MPI_LONG, &olds[t * N + i], 1, MPI_LONG, t, 3 * N + i, 1, MPI_LONG, MPI_SUM,
                                win, &reqs[nreq++]);
        }
    }
    MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N * size; ++i) {
        CHECK(olds[i] >= 0 && olds[i] < size, "fetched counter %ld", olds[i]);
    }
    /* A request left to the flush: it completes with it. */
    long late = -1;
    MPI_Request late_req;
    MPI_Rget(&late, 1, MPI_LONG, right, N + 1, 1, MPI_LONG, win, &late_req);
    MPI_Win_flush(right, win);
    CHECK(late == 1000L * right + 1, "rget completed by flush: %ld", late);
    MPI_Wait(&late_req, MPI_STATUS_IGNORE);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    const long expect = (long)size * (size + 1) / 2;
    for (int i = 0; i < N; ++i) {
        CHECK(mem[2 * N + i] == expect, "raccumulate sum %ld, not %ld", mem[2 * N + i], expect);
        CHECK(mem[3 * N + i] == size, "rget_accumulate counter %ld, not %d", mem[3 * N + i], size);
    }
    free(reqs);
    free(olds);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Only in passive target epochs. */
    MPI_Request r = MPI_REQUEST_NULL;
    if (native_engine()) {
        MPI_Win_fence(0, win);
        CHECK(error_class(MPI_Rput(buf, 1, MPI_LONG, right, 0, 1, MPI_LONG, win, &r)) == MPI_ERR_RMA_SYNC,
              "rput in a fence epoch");
        CHECK(r == MPI_REQUEST_NULL, "a refused call leaves MPI_REQUEST_NULL");
        CHECK(error_class(MPI_Rget(buf, 1, MPI_LONG, right, 0, 1, MPI_LONG, win, &r)) == MPI_ERR_RMA_SYNC,
              "rget in a fence epoch");
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        CHECK(error_class(MPI_Raccumulate(buf, 1, MPI_LONG, right, 0, 1, MPI_LONG, MPI_SUM, win, &r)) ==
                  MPI_ERR_RMA_SYNC,
              "raccumulate outside any epoch");
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Threads: each issues request-based operations and waits for its own, on one window at once. */
    if (multiple) {
        MPI_Win_lock_all(0, win);
        pthread_t th[THREADS];
        for (long i = 0; i < THREADS; ++i) {
            pthread_create(&th[i], NULL, thread_main, (void *)i);
        }
        for (int i = 0; i < THREADS; ++i) {
            pthread_join(th[i], NULL);
        }
        MPI_Win_unlock_all(win);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < THREADS; ++i) {
            CHECK(mem[4 * N + i] == ROUNDS, "thread counter %d is %ld, not %d", i, mem[4 * N + i], ROUNDS);
        }
    }

    CHECK(MPI_Win_free(&win) == MPI_SUCCESS, "free");
    int total = 0;
    MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) {
        printf("win_request: all checks passed on %d ranks%s\n", size, multiple ? " (threads too)" : "");
    }
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}
