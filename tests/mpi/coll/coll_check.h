/* What the collective test programs share: a check that names the failure and ends the job, the
 * values every rank contributes (so that any rank can compute what a collective must give), and the
 * ways a non-blocking collective is completed. Plain MPI C: the programs also run over the translators. */
#ifndef TESSERA_TESTS_MPI_COLL_CHECK_H
#define TESSERA_TESTS_MPI_COLL_CHECK_H

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)                                                                                   \
    do {                                                                                                   \
        if (!(cond)) {                                                                                     \
            int r_ = -1;                                                                                   \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                                            \
            fprintf(stderr, "rank %d: FAILED %s:%d: ", r_, __FILE__, __LINE__);                            \
            fprintf(stderr, __VA_ARGS__);                                                                  \
            fprintf(stderr, "\n");                                                                         \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                  \
        }                                                                                                  \
    } while (0)

/* Element i of what rank r contributes (to a rooted or all-to-one collective): small, so that sums
 * over 4 ranks fit an int. */
static inline int value(int r, size_t i)
{
    return (r + 1) * 1000 + (int)(i % 997);
}

/* Element i of the block rank `from` sends to rank `to` (all-to-all). */
static inline int value2(int from, int to, size_t i)
{
    return from * 100000 + to * 10000 + (int)(i % 9973);
}

/* A value no collective writes: gaps and untouched tails must keep it. */
#define SENTINEL (-7777777)

static inline int *ints(size_t n)
{
    int *p = (int *)malloc((n > 0 ? n : 1) * sizeof(int));
    CHECK(p != NULL, "out of memory (%zu ints)", n);
    for (size_t i = 0; i < n; ++i) {
        p[i] = SENTINEL;
    }
    return p;
}

/* How a collective is run: blocking, non-blocking with MPI_Wait, or non-blocking while a point-to-point
 * exchange with the neighbours is pending, everything completed by one MPI_Waitall (or MPI_Test). */
enum mode { BLOCKING, NONBLOCKING_WAIT, NONBLOCKING_MIXED, MODES };
static const char *const mode_names[MODES] = {"blocking", "non-blocking (Wait)", "non-blocking mixed with p2p"};

struct pending_p2p {
    MPI_Request rq[2];
    int out, in;
    int from;
};

/* Before a non-blocking collective in mode NONBLOCKING_MIXED: a ring exchange left pending. */
static inline void p2p_start(struct pending_p2p *p, int tag)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    p->from = (rank + size - 1) % size;
    p->out = rank * 10 + tag;
    p->in = -1;
    MPI_Irecv(&p->in, 1, MPI_INT, p->from, tag, MPI_COMM_WORLD, &p->rq[0]);
    MPI_Isend(&p->out, 1, MPI_INT, (rank + 1) % size, tag, MPI_COMM_WORLD, &p->rq[1]);
}

/* Completes a collective's request the way `mode` says (a no-op for BLOCKING). */
static inline void complete(enum mode mode, MPI_Request *request, struct pending_p2p *p, int tag)
{
    if (mode == NONBLOCKING_WAIT) {
        int rc = MPI_Wait(request, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && *request == MPI_REQUEST_NULL, "MPI_Wait on a collective: %d", rc);
    } else if (mode == NONBLOCKING_MIXED) {
        MPI_Request all[3] = {p->rq[0], *request, p->rq[1]};
        int flag = 0;
        /* A few tests first: a collective progresses through MPI_Test like any request. */
        for (int i = 0; i < 3 && !flag; ++i) {
            MPI_Testall(3, all, &flag, MPI_STATUSES_IGNORE);
        }
        if (!flag) {
            MPI_Waitall(3, all, MPI_STATUSES_IGNORE);
        }
        *request = all[1];
        CHECK(all[0] == MPI_REQUEST_NULL && all[1] == MPI_REQUEST_NULL && all[2] == MPI_REQUEST_NULL,
              "MPI_Waitall left a request active");
        CHECK(p->in == p->from * 10 + tag, "the point-to-point message pending during the collective: got %d, "
                                           "want %d",
              p->in, p->from * 10 + tag);
    }
}

/* Whether the MPI library underneath names itself `name` ("Open MPI", "MPICH"). */
static inline int runtime_is(const char *name)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    return strstr(version, name) != NULL;
}

#endif
