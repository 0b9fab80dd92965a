/* What the collective test programs share: a check that names the failure and ends the job, the
 * values every rank contributes (so that any rank can compute what a collective must give), and the
 * ways a non-blocking collective is completed. Plain MPI C: the programs also run over the translators. */
#ifndef TESSERA_TESTS_MPI_COLL_CHECK_H
#define TESSERA_TESTS_MPI_COLL_CHECK_H

#include "../mpi_check.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The communicator the checks run on: MPI_COMM_WORLD, or with the program argument "reverse" the same
 * ranks in reverse order, or with "halves" the even and the odd ranks apart, each in reverse order
 * (MPI_Comm_split), so that the collectives' ranks differ from MPI_COMM_WORLD's. */
static MPI_Comm test_comm;

static inline void test_comm_init(int argc, char **argv)
{
    int world_rank, world_size;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    test_comm = MPI_COMM_WORLD;
    for (int a = 1; a < argc; ++a) {
        const int halves = strcmp(argv[a], "halves") == 0;
        if (halves || strcmp(argv[a], "reverse") == 0) {
            int rc = MPI_Comm_split(MPI_COMM_WORLD, halves ? world_rank % 2 : 0, world_size - world_rank, &test_comm);
            if (rc != MPI_SUCCESS) {
                fprintf(stderr, "MPI_Comm_split failed (%d)\n", rc);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    }
}

/* What the programs print about the communicator: "4 ranks", "2 ranks (halves of 4)". */
static inline const char *test_comm_label(void)
{
    static char label[64];
    int size, world;
    MPI_Comm_size(test_comm, &size);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (test_comm == MPI_COMM_WORLD) {
        snprintf(label, sizeof label, "%d ranks", size);
    } else {
        snprintf(label, sizeof label, "%d ranks (split from %d)", size, world);
    }
    return label;
}

static inline void test_comm_free(void)
{
    if (test_comm != MPI_COMM_WORLD) {
        MPI_Comm_free(&test_comm);
    }
}

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
    MPI_Comm_rank(test_comm, &rank);
    MPI_Comm_size(test_comm, &size);
    p->from = (rank + size - 1) % size;
    p->out = rank * 10 + tag;
    p->in = -1;
    MPI_Irecv(&p->in, 1, MPI_INT, p->from, tag, test_comm, &p->rq[0]);
    MPI_Isend(&p->out, 1, MPI_INT, (rank + 1) % size, tag, test_comm, &p->rq[1]);
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

/* A non-commutative op's arithmetic: 2x2 integer matrices multiplied modulo a prime. b = a * b. */
enum { MATRIX_PRIME = 10007 };

static inline void matmul(const int *a, int *b)
{
    const long long m0 = ((long long)a[0] * b[0] + (long long)a[1] * b[2]) % MATRIX_PRIME;
    const long long m1 = ((long long)a[0] * b[1] + (long long)a[1] * b[3]) % MATRIX_PRIME;
    const long long m2 = ((long long)a[2] * b[0] + (long long)a[3] * b[2]) % MATRIX_PRIME;
    const long long m3 = ((long long)a[2] * b[1] + (long long)a[3] * b[3]) % MATRIX_PRIME;
    b[0] = (int)m0;
    b[1] = (int)m1;
    b[2] = (int)m2;
    b[3] = (int)m3;
}

/* Matrix j of rank r; none of them commute with each other in general. */
static inline void matrix(int r, int j, int *m)
{
    m[0] = r + 2;
    m[1] = (j + 1) % MATRIX_PRIME;
    m[2] = (r * 3 + j) % 7;
    m[3] = 1 + r % 2;
}

/* The product of the matrices j of ranks [from, to), in rank order. */
static inline void product(int from, int to, int j, int *m)
{
    m[0] = 1, m[1] = 0, m[2] = 0, m[3] = 1;
    for (int r = to - 1; r >= from; --r) {
        int a[4];
        matrix(r, j, a);
        matmul(a, m);
    }
}

/* A call that must fail with error class `want` (under MPI_ERRORS_RETURN). */
#define EXPECT_CLASS(call, want)                                                                           \
    do {                                                                                                   \
        const int rc_ = (call);                                                                            \
        int class_ = MPI_SUCCESS;                                                                          \
        MPI_Error_class(rc_, &class_);                                                                     \
        CHECK(class_ == (want), "%s: error class %d, want %s (%d)", #call, class_, #want, (want));         \
    } while (0)

#endif
