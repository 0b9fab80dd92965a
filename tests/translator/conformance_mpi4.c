/* Translator conformance: MPI 4.0/4.1 functions that a runtime provides under another name or not at
 * all, which the translator serves anyway — Open MPI 4.1's persistent collectives (its MPIX_*_init
 * extension) and MPI_Aint_add/diff (macros there); MPI_Info_get_string; MPI_Request_get_status_{any,
 * all,some}, MPI_Type_get_value_index, MPI_Buffer_flush, MPI_Status_set_elements_c (composed on the
 * application's side where the runtime lacks them). Two or more ranks. */
#include "conformance.h"

#include <stdlib.h>
#include <string.h>

static void persistent_collectives(int rank, int size)
{
    MPI_Request req[2];
    int value = rank == 0 ? 42 : -1, sum = 0, one = 1;
    CHECK(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]) == MPI_SUCCESS, "MPI_Barrier_init");
    CHECK(MPI_Bcast_init(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]) == MPI_SUCCESS,
          "MPI_Bcast_init");
    for (int round = 0; round < 3; ++round) {
        CHECK(MPI_Startall(2, req) == MPI_SUCCESS, "MPI_Startall round %d", round);
        CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "MPI_Waitall round %d", round);
        CHECK(value == 42, "MPI_Bcast_init delivered 42 (got %d) in round %d", value, round);
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    CHECK(MPI_Allreduce_init(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]) ==
              MPI_SUCCESS,
          "MPI_Allreduce_init");
    MPI_Start(&req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    CHECK(sum == size, "MPI_Allreduce_init summed %d, expected %d", sum, size);
    MPI_Request_free(&req[0]);
}

static void request_status(int rank, int size)
{
    const int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    int in[2] = {-1, -1}, out[2] = {rank, rank + 100};
    MPI_Request req[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st[3];
    int flag = -1, index = -2, outcount = -2, indices[3];
    CHECK(MPI_Request_get_status_any(3, req, &index, &flag, &st[0]) == MPI_SUCCESS && flag == 1 &&
              index == MPI_UNDEFINED,
          "MPI_Request_get_status_any of null requests: flag 1, MPI_UNDEFINED (flag %d index %d)", flag, index);
    CHECK(MPI_Request_get_status_some(3, req, &outcount, indices, st) == MPI_SUCCESS && outcount == MPI_UNDEFINED,
          "MPI_Request_get_status_some of null requests gives MPI_UNDEFINED (%d)", outcount);

    MPI_Irecv(in, 2, MPI_INT, from, 7, MPI_COMM_WORLD, &req[1]);
    MPI_Barrier(MPI_COMM_WORLD); /* the receive is posted everywhere before anything is sent */
    MPI_Isend(out, 2, MPI_INT, peer, 7, MPI_COMM_WORLD, &req[2]);
    flag = 0;
    while (!flag) {
        CHECK(MPI_Request_get_status_all(3, req, &flag, st) == MPI_SUCCESS, "MPI_Request_get_status_all");
    }
    CHECK(st[1].MPI_SOURCE == from && st[1].MPI_TAG == 7, "status of the receive: source %d tag %d",
          st[1].MPI_SOURCE, st[1].MPI_TAG);
    CHECK(req[1] != MPI_REQUEST_NULL && req[2] != MPI_REQUEST_NULL, "get_status_all frees nothing");
    CHECK(MPI_Request_get_status_any(3, req, &index, &flag, &st[0]) == MPI_SUCCESS && flag == 1 &&
              (index == 1 || index == 2),
          "MPI_Request_get_status_any finds a complete request (index %d)", index);
    CHECK(MPI_Request_get_status_some(3, req, &outcount, indices, st) == MPI_SUCCESS && outcount == 2 &&
              indices[0] == 1 && indices[1] == 2,
          "MPI_Request_get_status_some: both complete (%d)", outcount);
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
    CHECK(in[0] == from && in[1] == from + 100, "received %d %d from %d", in[0], in[1], from);
}

static void small_functions(void)
{
    MPI_Info info;
    char value[16];
    int buflen = 0, flag = 0;
    MPI_Info_create(&info);
    MPI_Info_set(info, "tessera_key", "a value");
    CHECK(MPI_Info_get_string(info, "tessera_key", &buflen, value, &flag) == MPI_SUCCESS && flag && buflen == 8,
          "MPI_Info_get_string asks for 8 bytes (flag %d, buflen %d)", flag, buflen);
    buflen = sizeof value;
    CHECK(MPI_Info_get_string(info, "tessera_key", &buflen, value, &flag) == MPI_SUCCESS && flag &&
              strcmp(value, "a value") == 0 && buflen == 8,
          "MPI_Info_get_string gives the value");
    buflen = 4;
    CHECK(MPI_Info_get_string(info, "tessera_key", &buflen, value, &flag) == MPI_SUCCESS && strcmp(value, "a v") == 0,
          "MPI_Info_get_string truncates to buflen - 1 characters ('%s')", value);
    CHECK(MPI_Info_get_string(info, "absent", &buflen, value, &flag) == MPI_SUCCESS && !flag,
          "MPI_Info_get_string of a missing key");
    MPI_Info_free(&info);

    MPI_Datatype pair = MPI_DATATYPE_NULL;
    CHECK(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair) == MPI_SUCCESS && pair == MPI_DOUBLE_INT,
          "MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT) is MPI_DOUBLE_INT");
    CHECK(MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &pair) == MPI_SUCCESS && pair == MPI_DATATYPE_NULL,
          "MPI_Type_get_value_index(MPI_CHAR, MPI_INT) is MPI_DATATYPE_NULL");

    char buffer[256];
    MPI_Aint base = 0;
    MPI_Get_address(buffer, &base);
    CHECK(MPI_Aint_add(base, 16) - base == 16 && MPI_Aint_diff(MPI_Aint_add(base, 40), base) == 40,
          "MPI_Aint_add and MPI_Aint_diff");

    static char bsend_buffer[4096];
    MPI_Buffer_attach(bsend_buffer, sizeof bsend_buffer);
    int x = 5, y = 0;
    MPI_Request recv;
    /* Posted first: a runtime may deliver a buffered message to itself only into a matching receive,
     * and the flush waits for the delivery. */
    MPI_Irecv(&y, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &recv);
    MPI_Bsend(&x, 1, MPI_INT, 0, 3, MPI_COMM_SELF);
    CHECK(MPI_Buffer_flush() == MPI_SUCCESS, "MPI_Buffer_flush");
    MPI_Wait(&recv, MPI_STATUS_IGNORE);
    CHECK(y == 5, "the buffered message arrived");
    void *addr = NULL;
    int size = 0;
    CHECK(MPI_Buffer_detach(&addr, &size) == MPI_SUCCESS && addr == bsend_buffer && size == (int)sizeof bsend_buffer,
          "the buffer is still attached after MPI_Buffer_flush");

    MPI_Status st;
    MPI_Count count = 0;
    CHECK(MPI_Status_set_elements_c(&st, MPI_INT, 3) == MPI_SUCCESS, "MPI_Status_set_elements_c");
    CHECK(MPI_Get_elements_x(&st, MPI_INT, &count) == MPI_SUCCESS && count == 3,
          "MPI_Get_elements_x after MPI_Status_set_elements_c (%lld)", (long long)count);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    persistent_collectives(rank, size);
    request_status(rank, size);
    small_functions();
    return conformance_end("conformance_mpi4");
}
