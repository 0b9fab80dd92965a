/* Translator conformance: MPI_Status survives the conversion between the ABI's 32 bytes and the
 * runtime's own layout. Source, tag and error come back as ABI values (the error only where MPI writes it:
 * conformance_status_error); the runtime's hidden count and
 * cancelled flag travel in MPI_internal, so MPI_Get_count / MPI_Get_elements on a received derived type
 * (MPI_Type_vector), MPI_Test_cancelled, MPI_Status_set_elements/set_cancelled work on statuses given
 * back to the runtime. Arrays of statuses through MPI_Waitall / MPI_Waitsome / MPI_Testall, and
 * MPI_STATUSES_IGNORE. Two ranks (more are fine: ranks 0 and 1 talk). */
#include "conformance.h"

#include <string.h>

enum { N = 8 };

static void check_counts(int rank)
{
    MPI_Datatype vec = MPI_DATATYPE_NULL;
    double data[12];
    MPI_Status status;
    int count = -1, elements = -1;
    /* 2 blocks of 2 doubles, stride 3: 4 doubles of payload per element. */
    MPI_Type_vector(2, 2, 3, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    if (rank == 0) {
        for (int i = 0; i < 12; ++i) {
            data[i] = i;
        }
        MPI_Send(data, 2, vec, 1, 11, MPI_COMM_WORLD);
        MPI_Send(data, 6, MPI_DOUBLE, 1, 12, MPI_COMM_WORLD); /* 1.5 vectors' worth */
    } else if (rank == 1) {
        memset(data, 0, sizeof data);
        MPI_Recv(data, 2, vec, 0, 11, MPI_COMM_WORLD, &status);
        CHECK(status.MPI_SOURCE == 0 && status.MPI_TAG == 11, "vector receive: source %d tag %d", status.MPI_SOURCE,
              status.MPI_TAG);
        CHECK(MPI_Get_count(&status, vec, &count) == MPI_SUCCESS && count == 2, "MPI_Get_count(vector) = %d", count);
        CHECK(MPI_Get_elements(&status, vec, &elements) == MPI_SUCCESS && elements == 8,
              "MPI_Get_elements(vector) = %d", elements);
        CHECK(MPI_Get_count(&status, MPI_DOUBLE, &count) == MPI_SUCCESS && count == 8,
              "MPI_Get_count(MPI_DOUBLE) = %d", count);
        CHECK(data[0] == 0 && data[1] == 1 && data[3] == 3 && data[4] == 4 && data[6] == 6 && data[2] == 0,
              "vector payload at its stride");
        MPI_Recv(data, 3, vec, 0, 12, MPI_COMM_WORLD, &status);
        CHECK(MPI_Get_count(&status, vec, &count) == MPI_SUCCESS && count == MPI_UNDEFINED,
              "a partial vector: MPI_Get_count = %d, expected MPI_UNDEFINED", count);
        CHECK(MPI_Get_elements(&status, vec, &elements) == MPI_SUCCESS && elements == 6,
              "a partial vector: MPI_Get_elements = %d", elements);
        MPI_Count big = -1;
        CHECK(MPI_Get_elements_x(&status, MPI_DOUBLE, &big) == MPI_SUCCESS && big == 6, "MPI_Get_elements_x = %lld",
              (long long)big);
        int cancelled = -1;
        CHECK(MPI_Test_cancelled(&status, &cancelled) == MPI_SUCCESS && cancelled == 0, "not cancelled");
    }
    MPI_Type_free(&vec);
}

static void check_setters(void)
{
    MPI_Status status;
    int count = -1, cancelled = -1, value = -1;
    memset(&status, 0, sizeof status);
    CHECK(MPI_Status_set_elements(&status, MPI_INT, 5) == MPI_SUCCESS, "MPI_Status_set_elements");
    CHECK(MPI_Get_count(&status, MPI_INT, &count) == MPI_SUCCESS && count == 5, "count set to 5: %d", count);
    CHECK(MPI_Status_set_elements_x(&status, MPI_BYTE, 12) == MPI_SUCCESS, "MPI_Status_set_elements_x");
    CHECK(MPI_Get_count(&status, MPI_INT, &count) == MPI_SUCCESS && count == 3, "12 bytes are 3 ints: %d", count);
    CHECK(MPI_Status_set_cancelled(&status, 1) == MPI_SUCCESS, "MPI_Status_set_cancelled");
    CHECK(MPI_Test_cancelled(&status, &cancelled) == MPI_SUCCESS && cancelled == 1, "cancelled set: %d", cancelled);
    CHECK(MPI_Get_count(&status, MPI_INT, &count) == MPI_SUCCESS && count == 3, "count kept: %d", count);
    /* The MPI-4.1 accessors of the ABI's own fields. */
    CHECK(MPI_Status_set_source(&status, 5) == MPI_SUCCESS && MPI_Status_get_source(&status, &value) == MPI_SUCCESS &&
              value == 5 && status.MPI_SOURCE == 5, "MPI_Status_set/get_source");
    CHECK(MPI_Status_set_tag(&status, MPI_ANY_TAG) == MPI_SUCCESS && MPI_Status_get_tag(&status, &value) ==
              MPI_SUCCESS && value == MPI_ANY_TAG, "MPI_Status_set/get_tag");
    CHECK(MPI_Status_set_error(&status, MPI_ERR_OTHER) == MPI_SUCCESS &&
              MPI_Status_get_error(&status, &value) == MPI_SUCCESS && value == MPI_ERR_OTHER,
          "MPI_Status_set/get_error");
}

static void check_cancel(int rank)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status status;
    int buf = 0, cancelled = -1;
    (void)rank;
    /* A receive nobody matches, cancelled. */
    MPI_Irecv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_SELF, &req);
    CHECK(MPI_Cancel(&req) == MPI_SUCCESS, "MPI_Cancel");
    CHECK(MPI_Wait(&req, &status) == MPI_SUCCESS && req == MPI_REQUEST_NULL, "wait for the cancelled receive");
    CHECK(MPI_Test_cancelled(&status, &cancelled) == MPI_SUCCESS && cancelled == 1,
          "MPI_Test_cancelled after MPI_Cancel: %d", cancelled);
}

static void check_arrays(int rank, int size)
{
    if (rank > 1) {
        return;
    }
    const int peer = 1 - rank;
    MPI_Request reqs[2 * N];
    MPI_Status statuses[2 * N];
    int out[N], in[N];
    (void)size;
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < N; ++i) {
            out[i] = 1000 * rank + i;
            in[i] = -1;
            MPI_Irecv(&in[i], 1, MPI_INT, peer, 100 + i, MPI_COMM_WORLD, &reqs[i]);
        }
        for (int i = 0; i < N; ++i) {
            MPI_Isend(&out[i], 1, MPI_INT, peer, 100 + i, MPI_COMM_WORLD, &reqs[N + i]);
        }
        memset(statuses, 0xab, sizeof statuses);
        if (round == 0) {
            CHECK(MPI_Waitall(2 * N, reqs, statuses) == MPI_SUCCESS, "MPI_Waitall");
            for (int i = 0; i < N; ++i) {
                int count = -1;
                MPI_Get_count(&statuses[i], MPI_INT, &count);
                CHECK(statuses[i].MPI_SOURCE == peer && statuses[i].MPI_TAG == 100 + i && count == 1,
                      "status %d of the array: source %d tag %d count %d", i, statuses[i].MPI_SOURCE,
                      statuses[i].MPI_TAG, count);
            }
        } else if (round == 1) {
            CHECK(MPI_Waitall(2 * N, reqs, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "MPI_Waitall(MPI_STATUSES_IGNORE)");
        } else {
            /* Waitsome until everything is in: the indices and statuses of each batch agree. */
            int done = 0, outcount = 0, indices[2 * N];
            while (done < 2 * N) {
                CHECK(MPI_Waitsome(2 * N, reqs, &outcount, indices, statuses) == MPI_SUCCESS, "MPI_Waitsome");
                if (outcount == MPI_UNDEFINED) {
                    break;
                }
                for (int k = 0; k < outcount; ++k) {
                    const int i = indices[k];
                    CHECK(i >= 0 && i < 2 * N && reqs[i] == MPI_REQUEST_NULL, "index %d completed", i);
                    if (i < N) {
                        CHECK(statuses[k].MPI_SOURCE == peer && statuses[k].MPI_TAG == 100 + i,
                              "Waitsome status of %d: source %d tag %d", i, statuses[k].MPI_SOURCE,
                              statuses[k].MPI_TAG);
                    }
                }
                done += outcount;
            }
            CHECK(done == 2 * N, "Waitsome completed %d of %d", done, 2 * N);
            CHECK(MPI_Waitsome(2 * N, reqs, &outcount, indices, statuses) == MPI_SUCCESS &&
                      outcount == MPI_UNDEFINED, "no active request left: outcount %d, expected MPI_UNDEFINED",
                  outcount);
        }
        for (int i = 0; i < N; ++i) {
            CHECK(in[i] == 1000 * peer + i, "payload %d of round %d: %d", i, round, in[i]);
            CHECK(reqs[i] == MPI_REQUEST_NULL && reqs[N + i] == MPI_REQUEST_NULL, "requests set to MPI_REQUEST_NULL");
        }
    }
    int flag = 0;
    MPI_Request nulls[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    CHECK(MPI_Testall(3, nulls, &flag, statuses) == MPI_SUCCESS && flag == 1, "MPI_Testall over null requests");
    CHECK(statuses[0].MPI_SOURCE == MPI_ANY_SOURCE && statuses[2].MPI_TAG == MPI_ANY_TAG,
          "empty statuses: source %d tag %d", statuses[0].MPI_SOURCE, statuses[2].MPI_TAG);
    /* Long arrays go to the heap (more than the stack limit of converted elements). */
    enum { M = 600 };
    static MPI_Request many[M];
    static MPI_Status many_statuses[M];
    static int many_in[M], many_out[M];
    for (int i = 0; i < M; ++i) {
        many_out[i] = i;
        if (i % 2 == 0) {
            MPI_Irecv(&many_in[i], 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &many[i]);
        } else {
            MPI_Isend(&many_out[i - 1], 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &many[i]);
        }
    }
    CHECK(MPI_Waitall(M, many, many_statuses) == MPI_SUCCESS, "MPI_Waitall of %d requests", M);
    int good = 0;
    for (int i = 0; i < M; i += 2) {
        good += many_statuses[i].MPI_SOURCE == peer && many_statuses[i].MPI_TAG == 7 && many_in[i] == i;
    }
    CHECK(good == M / 2, "%d of %d long-array statuses right", good, M / 2);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs two ranks, has %d", size);
    check_counts(rank);
    check_setters();
    check_cancel(rank);
    check_arrays(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    return conformance_end("conformance_status");
}
