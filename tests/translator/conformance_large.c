/* Translator conformance: the large-count (_c) functions of MPI 4.0. MPICH 4.0 provides them; Open MPI
 * 4.1 has only the int forms, which the translator uses when every value fits and otherwise answers
 * MPI_ERR_COUNT through the error handler (never a truncated count). Point-to-point, status counts,
 * datatype constructors and queries, and collectives with arrays of counts and displacements. Two or
 * more ranks. */
#include "conformance.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Point-to-point and the count of a status. */
    double out[6] = {1, 2, 3, 4, 5, 6}, in[6] = {0};
    MPI_Status st;
    MPI_Count count = -1;
    const int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    CHECK(MPI_Sendrecv_c(out, 5, MPI_DOUBLE, peer, 11, in, 6, MPI_DOUBLE, from, 11, MPI_COMM_WORLD, &st) ==
              MPI_SUCCESS,
          "MPI_Sendrecv_c");
    CHECK(MPI_Get_count_c(&st, MPI_DOUBLE, &count) == MPI_SUCCESS && count == 5, "MPI_Get_count_c is 5 (%lld)",
          (long long)count);
    CHECK(MPI_Get_elements_c(&st, MPI_DOUBLE, &count) == MPI_SUCCESS && count == 5, "MPI_Get_elements_c is 5");
    CHECK(in[4] == 5.0 && in[5] == 0.0, "five doubles received");

    /* Datatypes. */
    MPI_Datatype vec = MPI_DATATYPE_NULL;
    MPI_Count tsize = 0, lb = -1, extent = 0;
    CHECK(MPI_Type_vector_c(3, 2, 4, MPI_INT, &vec) == MPI_SUCCESS, "MPI_Type_vector_c");
    MPI_Type_commit(&vec);
    CHECK(MPI_Type_size_c(vec, &tsize) == MPI_SUCCESS && tsize == 6 * (MPI_Count)sizeof(int),
          "MPI_Type_size_c (%lld)", (long long)tsize);
    CHECK(MPI_Type_get_extent_c(vec, &lb, &extent) == MPI_SUCCESS && lb == 0 &&
              extent == 10 * (MPI_Count)sizeof(int),
          "MPI_Type_get_extent_c (%lld, %lld)", (long long)lb, (long long)extent);
    MPI_Type_free(&vec);

    /* A count an int cannot hold. */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Datatype huge = MPI_DATATYPE_NULL;
    const int rc = MPI_Type_contiguous_c((MPI_Count)INT_MAX + 2, MPI_BYTE, &huge);
    if (runtime_is("Open MPI")) {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_COUNT, "a count beyond INT_MAX over Open MPI is MPI_ERR_COUNT (got %d)", rc);
    } else {
        CHECK(rc == MPI_SUCCESS, "MPICH has the large-count constructor itself");
        MPI_Count hsize = 0;
        MPI_Type_size_c(huge, &hsize);
        CHECK(hsize == (MPI_Count)INT_MAX + 2, "and its size is beyond INT_MAX (%lld)", (long long)hsize);
        MPI_Type_free(&huge);
    }

    /* Collectives with arrays of counts. */
    MPI_Count *counts = malloc(sizeof(MPI_Count) * (size_t)size);
    MPI_Aint *displs = malloc(sizeof(MPI_Aint) * (size_t)size);
    int *send = malloc(sizeof(int) * 2 * (size_t)size), *recv = malloc(sizeof(int) * 2 * (size_t)size);
    for (int i = 0; i < size; ++i) {
        counts[i] = 2;
        displs[i] = 2 * i;
        send[2 * i] = rank * 100 + i;
        send[2 * i + 1] = -(rank * 100 + i);
    }
    CHECK(MPI_Alltoallv_c(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD) ==
              MPI_SUCCESS,
          "MPI_Alltoallv_c");
    for (int i = 0; i < size; ++i) {
        CHECK(recv[2 * i] == i * 100 + rank && recv[2 * i + 1] == -(i * 100 + rank),
              "MPI_Alltoallv_c block from %d: %d %d", i, recv[2 * i], recv[2 * i + 1]);
    }
    long long mine = rank + 1, total = 0;
    CHECK(MPI_Allreduce_c(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS &&
              total == (long long)size * (size + 1) / 2,
          "MPI_Allreduce_c sums %lld", total);
    free(counts);
    free(displs);
    free(send);
    free(recv);
    return conformance_end("conformance_large");
}
