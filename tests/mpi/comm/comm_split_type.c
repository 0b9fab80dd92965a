/* MPI_Comm_split_type (MPI-4.1 7.4.2): MPI_COMM_TYPE_SHARED gives the ranks of this process's host —
 * every rank here, since the tests run on one host — in key order; MPI_UNDEFINED gives MPI_COMM_NULL;
 * MPI_COMM_TYPE_HW_GUIDED with "mpi_shared_memory" is the host again, with an unknown resource type
 * MPI_COMM_NULL; MPI_COMM_TYPE_HW_UNGUIDED gives MPI_COMM_NULL or a strict subset that names its
 * resource in its hints. Plain MPI C; also run over the translators (the HW types, of MPI 4.0, natively
 * only). */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../p2p/p2p_check.h"

static int rank, size;

/* All of the world's ranks, and the same hosts: name by name, through an allgather. */
static int hosts_of_world(void)
{
    char name[MPI_MAX_PROCESSOR_NAME] = {0}, *all;
    int len = 0, distinct = 0;
    MPI_Get_processor_name(name, &len);
    all = calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
    for (int i = 0; i < size; ++i) {
        int seen = 0;
        for (int j = 0; j < i; ++j) {
            seen = seen || strcmp(all + (size_t)i * MPI_MAX_PROCESSOR_NAME, all + (size_t)j * MPI_MAX_PROCESSOR_NAME) == 0;
        }
        distinct += !seen;
    }
    free(all);
    return distinct;
}

int main(int argc, char **argv)
{
    MPI_Comm shared, none;
    int r = -1, n = -1, cmp = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(hosts_of_world() == 1, "the test expects one host");

    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared) == MPI_SUCCESS,
          "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
    MPI_Comm_rank(shared, &r);
    MPI_Comm_size(shared, &n);
    CHECK(n == size && r == rank, "the host's communicator holds every rank in order (rank %d of %d)", r, n);
    MPI_Comm_compare(shared, MPI_COMM_WORLD, &cmp);
    CHECK(cmp == MPI_CONGRUENT, "it is congruent to the world (%d)", cmp);
    {
        int sum = -1;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, shared);
        CHECK(sum == size * (size - 1) / 2, "allreduce on the host's communicator");
    }
    MPI_Comm_free(&shared);

    /* Keys reverse the order. */
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &shared);
    MPI_Comm_rank(shared, &r);
    CHECK(r == size - 1 - rank, "key -rank reverses the host's communicator (rank %d)", r);
    MPI_Comm_free(&shared);

    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none) == MPI_SUCCESS &&
              none == MPI_COMM_NULL,
          "MPI_UNDEFINED gives MPI_COMM_NULL");

    if (!runtime_is("Open MPI") && !runtime_is("MPICH")) {
        MPI_Info info, used;
        char value[MPI_MAX_INFO_VAL];
        int flag = 0;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
        CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &shared) == MPI_SUCCESS &&
                  shared != MPI_COMM_NULL,
              "MPI_COMM_TYPE_HW_GUIDED with mpi_shared_memory");
        MPI_Comm_size(shared, &n);
        CHECK(n == size, "mpi_shared_memory is the host (%d ranks)", n);
        MPI_Comm_get_info(shared, &used);
        MPI_Info_get(used, "mpi_hw_resource_type", MPI_MAX_INFO_VAL - 1, value, &flag);
        CHECK(flag && strcmp(value, "mpi_shared_memory") == 0, "the new communicator names its resource");
        MPI_Info_free(&used);
        MPI_Comm_free(&shared);

        MPI_Info_set(info, "mpi_hw_resource_type", "no_such_resource");
        CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &none) == MPI_SUCCESS &&
                  none == MPI_COMM_NULL,
              "an unknown resource type gives MPI_COMM_NULL");
        MPI_Info_free(&info);

        CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, rank, MPI_INFO_NULL, &shared) ==
                  MPI_SUCCESS,
              "MPI_COMM_TYPE_HW_UNGUIDED");
        if (shared != MPI_COMM_NULL) {
            MPI_Comm_size(shared, &n);
            CHECK(n < size, "MPI_COMM_TYPE_HW_UNGUIDED gives a strict subset (%d of %d)", n, size);
            MPI_Comm_get_info(shared, &used);
            MPI_Info_get(used, "mpi_hw_resource_type", MPI_MAX_INFO_VAL - 1, value, &flag);
            CHECK(flag, "the unguided split names its resource");
            MPI_Info_free(&used);
            MPI_Comm_free(&shared);
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("comm_split_type: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
