/* Point-to-point to oneself through the MPI API (np 1: the self btl, or any btl list), for the calls
 * the multi-rank programs touch least: the MPI_Count forms, persistent buffered sends, Sendrecv and
 * Sendrecv_replace, matched probes, cancel, MPI_PROC_NULL and argument errors returned through
 * MPI_ERRORS_RETURN. Plain MPI C. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, what)                                                                                  \
    do {                                                                                                   \
        if (!(cond)) {                                                                                     \
            fprintf(stderr, "FAILED %s:%d: %s\n", __FILE__, __LINE__, what);                               \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                  \
        }                                                                                                  \
    } while (0)

enum { kBig = 1 << 20 };

static void large_counts(void)
{
    double *out = malloc(kBig * sizeof *out), *in = malloc(kBig * sizeof *in);
    for (int i = 0; i < kBig; ++i) {
        out[i] = i * 0.25;
    }
    MPI_Request r;
    MPI_Status status;
    CHECK(MPI_Irecv_c(in, (MPI_Count)kBig, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &r) == MPI_SUCCESS, "Irecv_c");
    CHECK(MPI_Send_c(out, (MPI_Count)kBig, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD) == MPI_SUCCESS, "Send_c");
    CHECK(MPI_Wait(&r, &status) == MPI_SUCCESS, "Wait");
    MPI_Count count = 0;
    MPI_Get_count_c(&status, MPI_DOUBLE, &count);
    CHECK(count == kBig, "count of a large-count receive");
    CHECK(memcmp(in, out, kBig * sizeof *in) == 0, "large-count data");
    free(out);
    free(in);
}

static void persistent_buffered(void)
{
    int size = 4 * (int)(sizeof(int) + MPI_BSEND_OVERHEAD) + 64;
    char *pool = malloc((size_t)size);
    CHECK(MPI_Buffer_attach(pool, size) == MPI_SUCCESS, "Buffer_attach");
    int value = 0, got = 0;
    MPI_Request b;
    CHECK(MPI_Bsend_init(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &b) == MPI_SUCCESS, "Bsend_init");
    for (int round = 1; round <= 5; ++round) {
        value = round;
        CHECK(MPI_Start(&b) == MPI_SUCCESS, "Start");
        value = -1;
        CHECK(MPI_Wait(&b, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Wait (buffered)");
        CHECK(MPI_Recv(&got, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Recv");
        CHECK(got == round, "a persistent buffered send sends the value at its start");
    }
    MPI_Request_free(&b);
    void *back = NULL;
    CHECK(MPI_Buffer_detach(&back, &size) == MPI_SUCCESS && back == pool, "Buffer_detach");
    free(pool);
}

static void sendrecv_and_probes(void)
{
    int a[3] = {1, 2, 3}, b[3] = {0, 0, 0};
    MPI_Status status;
    CHECK(MPI_Sendrecv(a, 3, MPI_INT, 0, 3, b, 3, MPI_INT, 0, 3, MPI_COMM_WORLD, &status) == MPI_SUCCESS, "Sendrecv");
    CHECK(b[2] == 3 && status.MPI_TAG == 3, "Sendrecv data");
    CHECK(MPI_Sendrecv_replace(a, 3, MPI_INT, 0, 4, 0, 4, MPI_COMM_WORLD, &status) == MPI_SUCCESS, "Sendrecv_replace");
    CHECK(a[0] == 1 && a[2] == 3, "Sendrecv_replace data");

    MPI_Request s;
    CHECK(MPI_Isend(a, 3, MPI_INT, 0, 5, MPI_COMM_SELF, &s) == MPI_SUCCESS, "Isend on MPI_COMM_SELF");
    int flag = 0;
    MPI_Message m = MPI_MESSAGE_NULL;
    while (!flag) {
        CHECK(MPI_Improbe(MPI_ANY_SOURCE, 5, MPI_COMM_SELF, &flag, &m, &status) == MPI_SUCCESS, "Improbe");
    }
    CHECK(MPI_Iprobe(0, 5, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag,
          "a matched message is out of matching");
    CHECK(MPI_Mrecv_c(b, 3, MPI_INT, &m, &status) == MPI_SUCCESS && m == MPI_MESSAGE_NULL, "Mrecv_c");
    CHECK(MPI_Wait(&s, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Wait (send)");

    MPI_Request r;
    CHECK(MPI_Irecv(b, 3, MPI_INT, 0, 99, MPI_COMM_WORLD, &r) == MPI_SUCCESS, "Irecv");
    CHECK(MPI_Cancel(&r) == MPI_SUCCESS, "Cancel");
    CHECK(MPI_Wait(&r, &status) == MPI_SUCCESS, "Wait (cancelled)");
    CHECK(MPI_Test_cancelled(&status, &flag) == MPI_SUCCESS && flag, "Test_cancelled");

    CHECK(MPI_Recv(b, 3, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &status) == MPI_SUCCESS &&
              status.MPI_SOURCE == MPI_PROC_NULL,
          "MPI_PROC_NULL");
}

static void errors_return(void)
{
    int x = 0, size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    int cls = 0;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "a rank beyond the communicator is MPI_ERR_RANK");
    rc = MPI_Send(&x, 1, MPI_INT, 0, -2, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TAG, "a negative tag is MPI_ERR_TAG");
    int big[4] = {1, 2, 3, 4}, small[2];
    MPI_Request s;
    MPI_Isend(big, 4, MPI_INT, 0, 6, MPI_COMM_WORLD, &s);
    MPI_Status status;
    rc = MPI_Recv(small, 2, MPI_INT, 0, 6, MPI_COMM_WORLD, &status);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "a longer message is MPI_ERR_TRUNCATE");
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    large_counts();
    persistent_buffered();
    sendrecv_and_probes();
    errors_return();
    MPI_Finalize();
    printf("p2p_self: all checks passed\n");
    return 0;
}
