/*
 * Collective traffic never reaches the application's receives: a receive from MPI_ANY_SOURCE with
 * MPI_ANY_TAG posted before a series of collectives is still pending after them, and takes the user
 * message sent afterwards; MPI_Iprobe and MPI_Improbe with wildcards do not see a collective message that
 * has arrived and waits for its collective. Several non-blocking collectives on one communicator at
 * once, completed out of order, with MPI_Waitany/MPI_Testsome over a mix of collective and
 * point-to-point requests. 2 or more ranks.
 */
#include "coll_check.h"

static int rank, size;

#define OK(call) CHECK((call) == MPI_SUCCESS, "%s failed", #call)

static void wildcard_receive_survives_collectives(void)
{
    int got = -1;
    MPI_Request wild;
    MPI_Status st;
    OK(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &wild));
    int data[64];
    for (int i = 0; i < 64; ++i) {
        data[i] = rank * 64 + i;
    }
    int all[64 * 64];
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Bcast(data, 64, MPI_INT, size - 1, MPI_COMM_WORLD));
    OK(MPI_Allreduce(MPI_IN_PLACE, data, 64, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    OK(MPI_Alltoall(data, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
    OK(MPI_Allgather(data, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
    /* Before the last barrier no rank has sent a user message yet. */
    int flag = 1;
    OK(MPI_Test(&wild, &flag, &st));
    CHECK(!flag, "a receive with MPI_ANY_SOURCE and MPI_ANY_TAG took collective traffic (tag %d from %d)", st.MPI_TAG,
          st.MPI_SOURCE);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    /* The user message it is for (the check below says it was not some barrier message). */
    const int to = (rank + 1) % size, value = 4242 + rank;
    OK(MPI_Send(&value, 1, MPI_INT, to, 77, MPI_COMM_WORLD));
    OK(MPI_Wait(&wild, &st));
    const int from = (rank + size - 1) % size;
    CHECK(got == 4242 + from && st.MPI_TAG == 77 && st.MPI_SOURCE == from,
          "the wildcard receive got %d (tag %d from %d), want %d (tag 77 from %d)", got, st.MPI_TAG, st.MPI_SOURCE,
          4242 + from, from);
}

/* Rank 0 starts a broadcast and then sends rank 1 a user message: once rank 1 has that message, the
 * broadcast's (sent before it, on the same path) is there too, waiting — and no wildcard probe sees it. */
static void probes_do_not_see_collective_messages(void)
{
    int buf[16] = {0};
    MPI_Request rq;
    if (rank == 0) {
        for (int i = 0; i < 16; ++i) {
            buf[i] = 100 + i;
        }
        OK(MPI_Ibcast(buf, 16, MPI_INT, 0, MPI_COMM_WORLD, &rq));
        int token = 1;
        OK(MPI_Send(&token, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
        /* No user message may reach rank 1 while it probes: wait until it is done. */
        OK(MPI_Recv(&token, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (rank == 1) {
        int token = 0;
        OK(MPI_Recv(&token, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int flag = 1;
        MPI_Status st;
        for (int i = 0; i < 100; ++i) {
            OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
            CHECK(!flag, "MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG) saw a message (tag %d from %d)", st.MPI_TAG,
                  st.MPI_SOURCE);
            MPI_Message msg;
            OK(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
            CHECK(!flag, "MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG) took a message (tag %d from %d)", st.MPI_TAG,
                  st.MPI_SOURCE);
        }
        OK(MPI_Send(&token, 1, MPI_INT, 0, 6, MPI_COMM_WORLD));
        OK(MPI_Ibcast(buf, 16, MPI_INT, 0, MPI_COMM_WORLD, &rq));
    } else {
        OK(MPI_Ibcast(buf, 16, MPI_INT, 0, MPI_COMM_WORLD, &rq));
    }
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < 16; ++i) {
        CHECK(buf[i] == 100 + i, "the broadcast after the probes: element %d is %d", i, buf[i]);
    }
}

/* Four non-blocking collectives at once, a ring exchange among them, completed by Waitany and Testsome. */
static void many_at_once(void)
{
    enum { N = 5000 };
    int *b = ints(N), *s = ints(N), *r = ints(N), *a_out = ints((size_t)size * 3), *a_in = ints((size_t)size * 3);
    for (int i = 0; i < N; ++i) {
        b[i] = rank == 1 % size ? value(1 % size, (size_t)i) : 0;
        s[i] = value(rank, (size_t)i);
    }
    for (int i = 0; i < size * 3; ++i) {
        a_out[i] = value2(rank, i / 3, (size_t)i % 3);
    }
    int ring_in = -1, ring_out = rank;
    MPI_Request rq[6];
    OK(MPI_Ibcast(b, N, MPI_INT, 1 % size, MPI_COMM_WORLD, &rq[0]));
    OK(MPI_Irecv(&ring_in, 1, MPI_INT, (rank + size - 1) % size, 9, MPI_COMM_WORLD, &rq[1]));
    OK(MPI_Iallreduce(s, r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[2]));
    OK(MPI_Ibarrier(MPI_COMM_WORLD, &rq[3]));
    OK(MPI_Ialltoall(a_out, 3, MPI_INT, a_in, 3, MPI_INT, MPI_COMM_WORLD, &rq[4]));
    OK(MPI_Isend(&ring_out, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &rq[5]));
    int done = 0;
    while (done < 6) {
        if (done % 2 == 0) {
            int index = -1;
            OK(MPI_Waitany(6, rq, &index, MPI_STATUS_IGNORE));
            CHECK(index >= 0 && index < 6 && rq[index] == MPI_REQUEST_NULL, "MPI_Waitany gave index %d", index);
            ++done;
        } else {
            int outcount = 0, indices[6];
            OK(MPI_Testsome(6, rq, &outcount, indices, MPI_STATUSES_IGNORE));
            done += outcount == MPI_UNDEFINED ? 0 : outcount;
        }
    }
    for (int i = 0; i < N; ++i) {
        int sum = 0;
        for (int q = 0; q < size; ++q) {
            sum += value(q, (size_t)i);
        }
        CHECK(b[i] == value(1 % size, (size_t)i), "Ibcast among others: element %d", i);
        CHECK(r[i] == sum, "Iallreduce among others: element %d", i);
    }
    for (int i = 0; i < size * 3; ++i) {
        CHECK(a_in[i] == value2(i / 3, rank, (size_t)i % 3), "Ialltoall among others: element %d", i);
    }
    CHECK(ring_in == (rank + size - 1) % size, "the ring message among the collectives: %d", ring_in);
    free(b);
    free(s);
    free(r);
    free(a_out);
    free(a_in);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2 && size <= 64, "2 to 64 ranks");
    for (int round = 0; round < 3; ++round) {
        wildcard_receive_survives_collectives();
        probes_do_not_see_collective_messages();
        many_at_once();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("coll_isolation: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
