/* Context ids under concurrent creation: the two halves of MPI_COMM_WORLD duplicate their own half
 * over and over at the same time (and free, so ids are reused: more creations than a process has
 * ids); non-blocking duplications in flight while blocking ones run; two MPI_Comm_idup on different
 * communicators started in opposite orders by the two halves; several MPI_Comm_idup of the same
 * communicators in flight at once; many communicators alive at once.
 * Every communicator carries a message from each rank to the next, checked by value and checked
 * absent from the others: a collision of contexts would deliver it elsewhere.
 * Plain MPI C; also run over the translators. Argument: the number of dup/free rounds (5000). */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#include "../p2p/p2p_check.h"

static int rank, size;

/* A ring message on c (tag 0): from each rank to the next, with a value naming the sender, the
 * communicator's serial and the round; received with wildcards so that a stray message would show. */
static void ring(MPI_Comm c, int serial, int round)
{
    int r, n, out, in = -1;
    MPI_Status st;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    out = (serial * 1000 + round) * 64 + r;
    MPI_Request rq;
    MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c, &rq);
    MPI_Send(&out, 1, MPI_INT, (r + 1) % n, 0, c);
    MPI_Wait(&rq, &st);
    const int from = (r + n - 1) % n;
    CHECK(st.MPI_SOURCE == from && in == (serial * 1000 + round) * 64 + from,
          "communicator %d round %d: got %d from %d, expected %d from %d", serial, round, in, st.MPI_SOURCE,
          (serial * 1000 + round) * 64 + from, from);
}

/* Nothing is waiting on c. */
static void nothing_left(MPI_Comm c, const char *what)
{
    int flag = 1;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c, &flag, &st);
    CHECK(!flag, "a message from %d (tag %d) is left on %s", st.MPI_SOURCE, st.MPI_TAG, what);
}

int main(int argc, char **argv)
{
    MPI_Comm half, wdup;
    int rounds = argc > 1 ? atoi(argv[1]) : 5000;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_dup(MPI_COMM_WORLD, &wdup);

    /* 1. Each half duplicates itself, uses and frees the duplicate, at the same time as the other. */
    for (int i = 0; i < rounds; ++i) {
        MPI_Comm d;
        CHECK(MPI_Comm_dup(half, &d) == MPI_SUCCESS, "MPI_Comm_dup of my half, round %d", i);
        if (i % 50 == 0) {
            ring(d, 1, i);
            nothing_left(d, "the half's duplicate");
        }
        MPI_Comm_free(&d);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. A non-blocking duplication of the half in flight while a blocking one of the world runs, and
     * traffic on both results and on the parents. */
    for (int i = 0; i < 50; ++i) {
        MPI_Comm nb, b;
        MPI_Request rq;
        MPI_Comm_idup(half, &nb, &rq);
        MPI_Comm_dup(MPI_COMM_WORLD, &b);
        ring(b, 2, i);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        ring(nb, 3, i);
        ring(half, 4, i);
        nothing_left(nb, "the idup'd half");
        nothing_left(b, "the dup'd world");
        MPI_Comm_free(&b);
        MPI_Comm_free(&nb);
    }

    /* 3. Two duplications on different communicators, started in opposite orders by the two halves
     * (each communicator sees its collectives in one order): the ids must still differ everywhere. */
    for (int i = 0; i < 50; ++i) {
        MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL;
        MPI_Request rq[2];
        if (rank % 2 == 0) {
            MPI_Comm_idup(wdup, &a, &rq[0]);
            MPI_Comm_idup(half, &b, &rq[1]);
        } else {
            MPI_Comm_idup(half, &b, &rq[1]);
            MPI_Comm_idup(wdup, &a, &rq[0]);
        }
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        ring(a, 5, i);
        ring(b, 6, i);
        nothing_left(a, "the world's duplicate");
        nothing_left(b, "the half's duplicate");
        MPI_Comm_free(&a);
        MPI_Comm_free(&b);
    }

    /* 5. Several duplications of the same communicators in flight at once, a blocking one among them
     * (MPICH's comm_idup_mul): their agreements start exchanges whenever progress reaches them, in a
     * different order in each process, and must still pair up. On an intercommunicator between the
     * halves too. Open MPI 4.1 itself hangs when duplications of different communicators are in
     * flight together like this (natively too): over it they all duplicate wdup. */
    {
        enum { kFlight = 7 };
        const int mixed = !runtime_is("Open MPI");
        MPI_Comm inter = MPI_COMM_NULL;
        if (size > 1) {
            MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 77, &inter);
        }
        for (int i = 0; i < 20; ++i) {
            MPI_Comm d[kFlight], b;
            MPI_Request rq[kFlight];
            for (int k = 0; k < kFlight; ++k) {
                const MPI_Comm parent = !mixed ? (k % 3 == 2 ? MPI_COMM_NULL : wdup)
                                        : k % 3 == 0 ? wdup : k % 3 == 1 ? half : inter;
                if (parent == MPI_COMM_NULL) {
                    d[k] = MPI_COMM_NULL;
                    rq[k] = MPI_REQUEST_NULL;
                    continue;
                }
                CHECK(MPI_Comm_idup(parent, &d[k], &rq[k]) == MPI_SUCCESS, "MPI_Comm_idup %d, round %d", k, i);
                if (k == 3) {
                    MPI_Comm_dup(wdup, &b);
                }
            }
            if (rank % 2 == 1) { /* these wait for the last one first */
                MPI_Wait(&rq[kFlight - 1], MPI_STATUS_IGNORE);
            }
            MPI_Waitall(kFlight, rq, MPI_STATUSES_IGNORE);
            ring(b, 8, i);
            nothing_left(b, "a dup'd world among idups");
            MPI_Comm_free(&b);
            for (int k = 0; k < kFlight; ++k) {
                if (d[k] == MPI_COMM_NULL) {
                    continue;
                }
                if (k % 3 == 2) {
                    int one = 1, remote = 0, expect = 0;
                    MPI_Comm_remote_size(d[k], &expect);
                    MPI_Allreduce(&one, &remote, 1, MPI_INT, MPI_SUM, d[k]);
                    CHECK(remote == expect, "allreduce over an idup'd intercommunicator gave %d, not %d", remote,
                          expect);
                } else {
                    ring(d[k], 9 + k, i);
                }
                nothing_left(d[k], "one of several idups in flight");
                MPI_Comm_free(&d[k]);
            }
        }
        if (inter != MPI_COMM_NULL) {
            MPI_Comm_free(&inter);
        }
    }

    /* 4. Many alive at once, from both halves and the world, each with its own traffic. */
    {
        enum { kAlive = 60 };
        MPI_Comm alive[kAlive];
        for (int i = 0; i < kAlive; ++i) {
            MPI_Comm_dup(i % 3 == 0 ? MPI_COMM_WORLD : half, &alive[i]);
        }
        for (int i = kAlive - 1; i >= 0; --i) {
            ring(alive[i], 7 + i, 0);
        }
        for (int i = 0; i < kAlive; ++i) {
            nothing_left(alive[i], "one of many communicators");
            MPI_Comm_free(&alive[i]);
        }
    }
    nothing_left(half, "my half");
    nothing_left(wdup, "the world's duplicate");
    MPI_Comm_free(&wdup);
    MPI_Comm_free(&half);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("comm_concurrent: all checks passed on %d ranks (%d rounds)\n", size, rounds);
    }
    MPI_Finalize();
    return 0;
}
