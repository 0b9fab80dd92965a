/* The progress thread (mpi_async_progress) moves data while the application computes and makes no MPI
 * call. Two ranks:
 * 1. rank 1 posts a 4 MiB receive, tells rank 0, then polls its buffer without calling MPI: the data
 *    must arrive (only a thread of the library can answer the rendezvous and receive it);
 * 2. rank 0 starts a 4 MiB send, sleeps without calling MPI, then sends "awake": rank 1's receive must
 *    complete before "awake" is there;
 * 3. the same with an MPI_Iallreduce of 1 MiB of doubles started by both;
 * 4. an idle process: over a second of sleep the progress thread takes less than a fifth of a core.
 * Without the thread, 1 fails after `limit` seconds and 2, 3 find "awake" first. */
#include "../mpi_check.h"

#include <time.h>

enum { kBig = 4 << 20, kReduce = (1 << 20) / (int)sizeof(double) };

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_for(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static unsigned char pattern(int i)
{
    return (unsigned char)(i * 7 + 3);
}

/* Reads the buffer while the progress thread fills it, on purpose: that the data moves with no MPI
 * call is what this test shows. Not instrumented by ThreadSanitizer (tools/test-tsan), which would
 * report that as a race, and check each of the 4 Mi reads against its suppressions for minutes. */
#if defined(__SANITIZE_THREAD__)
#define RACES_ON_PURPOSE __attribute__((no_sanitize("thread")))
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACES_ON_PURPOSE __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef RACES_ON_PURPOSE
#define RACES_ON_PURPOSE
#endif

RACES_ON_PURPOSE static int arrived(const unsigned char *buf)
{
    for (int i = 0; i < kBig; ++i) {
        if (buf[i] != pattern(i)) {
            return 0;
        }
    }
    return 1;
}

/* Rank `sleeper` sleeps `nap` seconds without MPI after starting *req, then sends "awake"; the other
 * rank's completion of *req must come first. */
static void done_while_asleep(int rank, int sleeper, MPI_Request *req, double nap, const char *what)
{
    if (rank == sleeper) {
        sleep_for(nap);
        int awake = 1;
        MPI_Send(&awake, 1, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD);
        MPI_Wait(req, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(req, MPI_STATUS_IGNORE);
        int there = 0;
        MPI_Iprobe(sleeper, 3, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE);
        CHECK(!there, "%s completed only after rank %d woke up: nothing progressed it while rank %d slept", what,
              sleeper, sleeper);
        int awake = 0;
        MPI_Recv(&awake, 1, MPI_INT, sleeper, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "run on 2 ranks, not %d", size);
    const double limit = argc > 1 ? atof(argv[1]) : 20.0; /* seconds: a stall, not a slow machine */
    const double nap = argc > 2 ? atof(argv[2]) : 3.0;

    unsigned char *buf = malloc(kBig);
    CHECK(buf != NULL, "out of memory");
    int posted = 0;

    /* 1. The receiver's thread answers the rendezvous and takes the data. */
    if (rank == 0) {
        for (int i = 0; i < kBig; ++i) {
            buf[i] = pattern(i);
        }
        MPI_Recv(&posted, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, kBig, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    } else {
        memset(buf, 0, kBig);
        MPI_Request req;
        MPI_Irecv(buf, kBig, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req);
        MPI_Send(&posted, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        const double start = now(CLOCK_MONOTONIC);
        int got = 0;
        while (!(got = arrived(buf)) && now(CLOCK_MONOTONIC) - start < limit) {
            sleep_for(0.01);
        }
        CHECK(got, "a posted 4 MiB receive got no data in %.0f s while the application made no MPI call", limit);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }

    /* 2. The sender's thread sends the data while rank 0 sleeps. */
    MPI_Request req;
    if (rank == 0) {
        MPI_Isend(buf, kBig, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &req);
    } else {
        memset(buf, 0, kBig);
        MPI_Irecv(buf, kBig, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req);
    }
    done_while_asleep(rank, 0, &req, nap, "a 4 MiB receive");
    CHECK(rank == 0 || arrived(buf), "the 4 MiB message arrived damaged");

    /* 3. A non-blocking collective's schedule advances while rank 0 sleeps. */
    double *in = malloc(kReduce * sizeof(double)), *out = malloc(kReduce * sizeof(double));
    CHECK(in != NULL && out != NULL, "out of memory");
    for (int i = 0; i < kReduce; ++i) {
        in[i] = (double)(i + rank);
    }
    MPI_Iallreduce(in, out, kReduce, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    done_while_asleep(rank, 0, &req, nap, "an MPI_Iallreduce of 1 MiB");
    for (int i = 0; i < kReduce; ++i) {
        CHECK(out[i] == (double)(2 * i + 1), "MPI_Iallreduce: element %d is %g, not %d", i, out[i], 2 * i + 1);
    }

    /* 4. Idle, the thread sleeps. */
    MPI_Barrier(MPI_COMM_WORLD);
    const double cpu0 = now(CLOCK_PROCESS_CPUTIME_ID);
    sleep_for(1.0);
    const double cpu = now(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    CHECK(cpu < 0.2, "an idle process used %.2f s of CPU in 1 s of sleep: the progress thread does not back off", cpu);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("p2p_async: the progress thread moved a rendezvous receive and send and an MPI_Iallreduce; idle it "
               "used %.3f s of CPU per s\n", cpu);
    }
    free(in);
    free(out);
    free(buf);
    MPI_Finalize();
    return 0;
}
