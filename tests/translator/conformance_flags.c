/* Translator conformance: a call that reports through a flag (or an outcount) that nothing was found or
 * completed leaves the application's status alone — MPI_Iprobe, MPI_Improbe, MPI_Test, MPI_Testany,
 * MPI_Testall, MPI_Testsome, MPI_Request_get_status and its _any/_all/_some forms. Programs keep values
 * in a status across such calls (a polling loop reads the status of the last message it found). When
 * the flag is set, the status is the message's. Two ranks (more are fine: ranks 0 and 1 talk). */
#include "conformance.h"

#include <string.h>

static void poison(MPI_Status *st, int n)
{
    memset(st, 0x5a, sizeof *st * (size_t)n);
    for (int i = 0; i < n; ++i) {
        st[i].MPI_SOURCE = -77 - i;
        st[i].MPI_TAG = -88 - i;
        st[i].MPI_ERROR = -99 - i;
    }
}

static int poisoned(const MPI_Status *st, int n)
{
    MPI_Status ref[4];
    poison(ref, n);
    return memcmp(st, ref, sizeof *st * (size_t)n) == 0;
}

#define UNTOUCHED(st, n, what)                                                                             \
    CHECK(poisoned(st, n), "%s: the status was written (source %d tag %d error %d)", what, (st)[0].MPI_SOURCE, \
          (st)[0].MPI_TAG, (st)[0].MPI_ERROR)

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank > 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        return conformance_end("conformance_flags");
    }
    const int peer = 1 - rank;
    MPI_Status st[4];
    int flag = -1, index = -1, outcount = -1, indices[2] = {-1, -1};

    /* Nothing was sent with tag 5 yet. */
    poison(st, 1);
    CHECK(MPI_Iprobe(peer, 5, MPI_COMM_WORLD, &flag, &st[0]) == MPI_SUCCESS && flag == 0, "MPI_Iprobe: flag %d", flag);
    UNTOUCHED(st, 1, "MPI_Iprobe with flag 0");
    poison(st, 1);
    MPI_Message msg = MPI_MESSAGE_NULL;
    flag = -1;
    CHECK(MPI_Improbe(peer, 5, MPI_COMM_WORLD, &flag, &msg, &st[0]) == MPI_SUCCESS && flag == 0,
          "MPI_Improbe: flag %d", flag);
    UNTOUCHED(st, 1, "MPI_Improbe with flag 0");

    /* One receive that cannot complete before the barrier, one that has completed (to itself). */
    int pending_in = -1, done_in = -1, done_out = 42;
    MPI_Request reqs[2];
    MPI_Irecv(&pending_in, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(&done_in, 1, MPI_INT, 0, 6, MPI_COMM_SELF, &reqs[0]);
    MPI_Send(&done_out, 1, MPI_INT, 0, 6, MPI_COMM_SELF);
    for (flag = 0; !flag;) {
        MPI_Request_get_status(reqs[0], &flag, MPI_STATUS_IGNORE);
    }

    poison(st, 1);
    flag = -1;
    CHECK(MPI_Test(&reqs[1], &flag, &st[0]) == MPI_SUCCESS && flag == 0, "MPI_Test: flag %d", flag);
    UNTOUCHED(st, 1, "MPI_Test with flag 0");
    poison(st, 1);
    flag = -1;
    CHECK(MPI_Testany(1, &reqs[1], &index, &flag, &st[0]) == MPI_SUCCESS && flag == 0, "MPI_Testany: flag %d", flag);
    UNTOUCHED(st, 1, "MPI_Testany with flag 0");
    poison(st, 2);
    flag = -1;
    CHECK(MPI_Testall(2, reqs, &flag, st) == MPI_SUCCESS && flag == 0, "MPI_Testall: flag %d", flag);
    UNTOUCHED(st, 2, "MPI_Testall with flag 0");
    poison(st, 1);
    outcount = -1;
    CHECK(MPI_Testsome(1, &reqs[1], &outcount, indices, st) == MPI_SUCCESS && outcount == 0,
          "MPI_Testsome: outcount %d", outcount);
    UNTOUCHED(st, 1, "MPI_Testsome with outcount 0");
    poison(st, 1);
    flag = -1;
    CHECK(MPI_Request_get_status(reqs[1], &flag, &st[0]) == MPI_SUCCESS && flag == 0,
          "MPI_Request_get_status: flag %d", flag);
    UNTOUCHED(st, 1, "MPI_Request_get_status with flag 0");
    poison(st, 1);
    flag = -1;
    CHECK(MPI_Request_get_status_any(1, &reqs[1], &index, &flag, &st[0]) == MPI_SUCCESS && flag == 0,
          "MPI_Request_get_status_any: flag %d", flag);
    UNTOUCHED(st, 1, "MPI_Request_get_status_any with flag 0");
    poison(st, 2);
    flag = -1;
    CHECK(MPI_Request_get_status_all(2, reqs, &flag, st) == MPI_SUCCESS && flag == 0,
          "MPI_Request_get_status_all: flag %d", flag);
    UNTOUCHED(st, 2, "MPI_Request_get_status_all with flag 0");
    poison(st, 1);
    outcount = -1;
    CHECK(MPI_Request_get_status_some(1, &reqs[1], &outcount, indices, st) == MPI_SUCCESS && outcount == 0,
          "MPI_Request_get_status_some: outcount %d", outcount);
    UNTOUCHED(st, 1, "MPI_Request_get_status_some with outcount 0");

    /* Now the message comes: the statuses are the message's. */
    MPI_Barrier(MPI_COMM_WORLD);
    const int value = 100 + rank;
    MPI_Send(&value, 1, MPI_INT, peer, 5, MPI_COMM_WORLD);
    MPI_Send(&value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD);
    for (flag = 0; !flag;) {
        poison(st, 1);
        MPI_Iprobe(peer, 7, MPI_COMM_WORLD, &flag, &st[0]);
        if (!flag) {
            UNTOUCHED(st, 1, "MPI_Iprobe in a polling loop");
        }
    }
    CHECK(st[0].MPI_SOURCE == peer && st[0].MPI_TAG == 7, "MPI_Iprobe with flag 1: source %d tag %d",
          st[0].MPI_SOURCE, st[0].MPI_TAG);
    for (flag = 0; !flag;) {
        poison(st, 1);
        MPI_Improbe(peer, 7, MPI_COMM_WORLD, &flag, &msg, &st[0]);
    }
    CHECK(st[0].MPI_SOURCE == peer && st[0].MPI_TAG == 7, "MPI_Improbe with flag 1: source %d tag %d",
          st[0].MPI_SOURCE, st[0].MPI_TAG);
    int got = -1;
    MPI_Mrecv(&got, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    for (flag = 0; !flag;) {
        poison(st, 2);
        MPI_Request_get_status_all(2, reqs, &flag, st);
        if (!flag) {
            UNTOUCHED(st, 2, "MPI_Request_get_status_all in a polling loop");
        }
    }
    CHECK(st[0].MPI_SOURCE == 0 && st[0].MPI_TAG == 6 && st[1].MPI_SOURCE == peer && st[1].MPI_TAG == 5,
          "MPI_Request_get_status_all with flag 1: sources %d %d tags %d %d", st[0].MPI_SOURCE, st[1].MPI_SOURCE,
          st[0].MPI_TAG, st[1].MPI_TAG);
    for (flag = 0; !flag;) {
        poison(st, 2);
        MPI_Testall(2, reqs, &flag, st);
    }
    CHECK(st[0].MPI_TAG == 6 && st[1].MPI_SOURCE == peer && st[1].MPI_TAG == 5 && pending_in == 100 + peer &&
              done_in == 42 && got == 100 + peer,
          "MPI_Testall with flag 1: tags %d %d, values %d %d %d", st[0].MPI_TAG, st[1].MPI_TAG, pending_in, done_in,
          got);
    MPI_Barrier(MPI_COMM_WORLD);
    return conformance_end("conformance_flags");
}
