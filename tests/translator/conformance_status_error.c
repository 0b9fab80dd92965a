/* Translator conformance: the calls that complete one operation and hand back one status (MPI_Recv,
 * MPI_Sendrecv(_replace), MPI_Wait, MPI_Test, MPI_Waitany, MPI_Testany, MPI_Request_get_status, MPI_Probe,
 * MPI_Iprobe, MPI_Mprobe, MPI_Improbe, MPI_Mrecv, and their MPI_PROC_NULL / null-request paths) leave
 * the status's MPI_ERROR as the application set it: MPI writes that field only in the arrays of the
 * calls that complete several, when they fail with MPI_ERR_IN_STATUS (MPI-4.1 3.2.5). A runtime may
 * write it anyway (MPICH 4.0's MPI_Probe does); the translator must keep the application's value. The
 * other fields must still be right. Each rank talks to itself; any number of ranks. */
#include "conformance.h"

#include <string.h>

enum { KEPT = -77 }; /* no error code: a value only the application could have put there */

static int rank;

static void arm(MPI_Status *s)
{
    memset(s, 0x5a, sizeof *s);
    s->MPI_ERROR = KEPT;
}

/* What a status of a message of `count` ints with `tag` from this rank must say. */
static void expect_message(const char *what, const MPI_Status *s, int tag, int count)
{
    int got = -1;
    MPI_Get_count(s, MPI_INT, &got);
    CHECK(s->MPI_ERROR == KEPT, "%s: MPI_ERROR %d, the application's %d expected", what, s->MPI_ERROR, KEPT);
    CHECK(s->MPI_SOURCE == rank && s->MPI_TAG == tag && got == count, "%s: source %d tag %d count %d", what,
          s->MPI_SOURCE, s->MPI_TAG, got);
}

/* The status of a communication with MPI_PROC_NULL, or the empty status of a null request (source
 * MPI_ANY_SOURCE): the standard's empty status says MPI_SUCCESS, which its rule for single completions
 * contradicts, so that field is not judged there. */
static void expect_empty(const char *what, const MPI_Status *s, int source)
{
    int got = -1;
    MPI_Get_count(s, MPI_INT, &got);
    CHECK(source == MPI_ANY_SOURCE || s->MPI_ERROR == KEPT, "%s: MPI_ERROR %d, the application's %d expected", what,
          s->MPI_ERROR, KEPT);
    CHECK(s->MPI_SOURCE == source && s->MPI_TAG == MPI_ANY_TAG && got == 0, "%s: source %d tag %d count %d", what,
          s->MPI_SOURCE, s->MPI_TAG, got);
}

static void send_self(int tag, int n)
{
    int out[4] = {1, 2, 3, 4};
    MPI_Request r;
    MPI_Isend(out, n, MPI_INT, rank, tag, MPI_COMM_WORLD, &r);
    MPI_Request_free(&r);
}

static void receives(void)
{
    int in[4];
    MPI_Status s;
    send_self(1, 3);
    arm(&s);
    CHECK(MPI_Recv(in, 4, MPI_INT, rank, 1, MPI_COMM_WORLD, &s) == MPI_SUCCESS, "MPI_Recv");
    expect_message("MPI_Recv", &s, 1, 3);
    arm(&s);
    CHECK(MPI_Recv(in, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &s) == MPI_SUCCESS, "MPI_Recv(MPI_PROC_NULL)");
    expect_empty("MPI_Recv(MPI_PROC_NULL)", &s, MPI_PROC_NULL);

    int out[2] = {5, 6};
    arm(&s);
    CHECK(MPI_Sendrecv(out, 2, MPI_INT, rank, 2, in, 4, MPI_INT, rank, 2, MPI_COMM_WORLD, &s) == MPI_SUCCESS,
          "MPI_Sendrecv");
    expect_message("MPI_Sendrecv", &s, 2, 2);
    arm(&s);
    CHECK(MPI_Sendrecv(out, 2, MPI_INT, MPI_PROC_NULL, 2, in, 4, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &s) ==
              MPI_SUCCESS,
          "MPI_Sendrecv(MPI_PROC_NULL)");
    expect_empty("MPI_Sendrecv(MPI_PROC_NULL)", &s, MPI_PROC_NULL);
    arm(&s);
    CHECK(MPI_Sendrecv_replace(in, 2, MPI_INT, rank, 3, rank, 3, MPI_COMM_WORLD, &s) == MPI_SUCCESS,
          "MPI_Sendrecv_replace");
    expect_message("MPI_Sendrecv_replace", &s, 3, 2);
}

static void completions(void)
{
    int in[4];
    MPI_Status s;
    MPI_Request r;
    MPI_Irecv(in, 4, MPI_INT, rank, 10, MPI_COMM_WORLD, &r);
    send_self(10, 1);
    arm(&s);
    CHECK(MPI_Wait(&r, &s) == MPI_SUCCESS && r == MPI_REQUEST_NULL, "MPI_Wait");
    expect_message("MPI_Wait", &s, 10, 1);
    arm(&s);
    CHECK(MPI_Wait(&r, &s) == MPI_SUCCESS, "MPI_Wait(MPI_REQUEST_NULL)");
    expect_empty("MPI_Wait(MPI_REQUEST_NULL)", &s, MPI_ANY_SOURCE);

    int flag = 0;
    MPI_Irecv(in, 4, MPI_INT, rank, 11, MPI_COMM_WORLD, &r);
    send_self(11, 2);
    for (arm(&s); !flag;) {
        CHECK(MPI_Test(&r, &flag, &s) == MPI_SUCCESS, "MPI_Test");
    }
    expect_message("MPI_Test", &s, 11, 2);
    arm(&s);
    CHECK(MPI_Test(&r, &flag, &s) == MPI_SUCCESS && flag == 1, "MPI_Test(MPI_REQUEST_NULL)");
    expect_empty("MPI_Test(MPI_REQUEST_NULL)", &s, MPI_ANY_SOURCE);

    MPI_Request two[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int indx = -1;
    MPI_Irecv(in, 4, MPI_INT, rank, 12, MPI_COMM_WORLD, &two[1]);
    send_self(12, 4);
    arm(&s);
    CHECK(MPI_Waitany(2, two, &indx, &s) == MPI_SUCCESS && indx == 1, "MPI_Waitany: index %d", indx);
    expect_message("MPI_Waitany", &s, 12, 4);
    MPI_Irecv(in, 4, MPI_INT, rank, 13, MPI_COMM_WORLD, &two[0]);
    send_self(13, 1);
    flag = 0;
    for (arm(&s); !flag;) {
        CHECK(MPI_Testany(2, two, &indx, &flag, &s) == MPI_SUCCESS, "MPI_Testany");
    }
    expect_message("MPI_Testany", &s, 13, 1);

    MPI_Irecv(in, 4, MPI_INT, rank, 14, MPI_COMM_WORLD, &r);
    send_self(14, 3);
    flag = 0;
    for (arm(&s); !flag;) {
        CHECK(MPI_Request_get_status(r, &flag, &s) == MPI_SUCCESS, "MPI_Request_get_status");
    }
    expect_message("MPI_Request_get_status", &s, 14, 3);
    MPI_Wait(&r, MPI_STATUS_IGNORE);

    /* A cancelled receive: MPI_Test_cancelled still reads the status MPI_Wait gave. */
    MPI_Irecv(in, 4, MPI_INT, rank, 15, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    arm(&s);
    CHECK(MPI_Wait(&r, &s) == MPI_SUCCESS, "MPI_Wait of a cancelled receive");
    CHECK(s.MPI_ERROR == KEPT, "cancelled receive: MPI_ERROR %d", s.MPI_ERROR);
    CHECK(MPI_Test_cancelled(&s, &flag) == MPI_SUCCESS && flag == 1, "MPI_Test_cancelled: %d", flag);
}

static void probes(void)
{
    int in[4], flag = 0;
    MPI_Status s;
    send_self(20, 2);
    arm(&s);
    CHECK(MPI_Probe(rank, 20, MPI_COMM_WORLD, &s) == MPI_SUCCESS, "MPI_Probe");
    expect_message("MPI_Probe", &s, 20, 2);
    for (arm(&s); !flag;) {
        CHECK(MPI_Iprobe(rank, 20, MPI_COMM_WORLD, &flag, &s) == MPI_SUCCESS, "MPI_Iprobe");
    }
    expect_message("MPI_Iprobe", &s, 20, 2);
    MPI_Recv(in, 4, MPI_INT, rank, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    arm(&s);
    CHECK(MPI_Probe(MPI_PROC_NULL, 20, MPI_COMM_WORLD, &s) == MPI_SUCCESS, "MPI_Probe(MPI_PROC_NULL)");
    expect_empty("MPI_Probe(MPI_PROC_NULL)", &s, MPI_PROC_NULL);
    arm(&s);
    CHECK(MPI_Iprobe(MPI_PROC_NULL, 20, MPI_COMM_WORLD, &flag, &s) == MPI_SUCCESS && flag == 1,
          "MPI_Iprobe(MPI_PROC_NULL)");
    expect_empty("MPI_Iprobe(MPI_PROC_NULL)", &s, MPI_PROC_NULL);

    MPI_Message m = MPI_MESSAGE_NULL;
    send_self(21, 3);
    arm(&s);
    CHECK(MPI_Mprobe(rank, 21, MPI_COMM_WORLD, &m, &s) == MPI_SUCCESS, "MPI_Mprobe");
    expect_message("MPI_Mprobe", &s, 21, 3);
    arm(&s);
    CHECK(MPI_Mrecv(in, 4, MPI_INT, &m, &s) == MPI_SUCCESS && m == MPI_MESSAGE_NULL, "MPI_Mrecv");
    expect_message("MPI_Mrecv", &s, 21, 3);

    send_self(22, 1);
    flag = 0;
    for (arm(&s); !flag;) {
        CHECK(MPI_Improbe(rank, 22, MPI_COMM_WORLD, &flag, &m, &s) == MPI_SUCCESS, "MPI_Improbe");
    }
    expect_message("MPI_Improbe", &s, 22, 1);
    MPI_Request r;
    CHECK(MPI_Imrecv(in, 4, MPI_INT, &m, &r) == MPI_SUCCESS, "MPI_Imrecv");
    arm(&s);
    CHECK(MPI_Wait(&r, &s) == MPI_SUCCESS, "MPI_Wait of MPI_Imrecv");
    expect_message("MPI_Wait of MPI_Imrecv", &s, 22, 1);

    arm(&s);
    CHECK(MPI_Mprobe(MPI_PROC_NULL, 23, MPI_COMM_WORLD, &m, &s) == MPI_SUCCESS && m == MPI_MESSAGE_NO_PROC,
          "MPI_Mprobe(MPI_PROC_NULL)");
    expect_empty("MPI_Mprobe(MPI_PROC_NULL)", &s, MPI_PROC_NULL);
    arm(&s);
    CHECK(MPI_Mrecv(in, 4, MPI_INT, &m, &s) == MPI_SUCCESS, "MPI_Mrecv(MPI_MESSAGE_NO_PROC)");
    expect_empty("MPI_Mrecv(MPI_MESSAGE_NO_PROC)", &s, MPI_PROC_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    receives();
    completions();
    probes();
    MPI_Barrier(MPI_COMM_WORLD);
    return conformance_end("conformance_status_error");
}
