/* The generated bindings as a program sees them: with an empty dispatch table every function answers
 * MPI_ERR_UNSUPPORTED_OPERATION and names itself; a filled slot is called with the arguments given;
 * MPI_x is a weak alias of PMPI_x, so a tool's own MPI_x wins and still reaches the library through
 * PMPI_x; the slot list counts what an engine provides. */
#include "tessera_mpi_dispatch.h"

#include <stdio.h>
#include <string.h>

static const char *last_unsupported = "";

/* In the library this raises the error through the call's error handler. */
int tessera_mpi_unsupported(const char *name)
{
    last_unsupported = name;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

static int fake_comm_rank(MPI_Comm comm, int *rank)
{
    *rank = comm == MPI_COMM_WORLD ? 3 : -1;
    return MPI_SUCCESS;
}

static int tool_barriers;

/* A profiling tool's wrapper, linked into the program. */
int MPI_Barrier(MPI_Comm comm)
{
    ++tool_barriers;
    return PMPI_Barrier(comm);
}

static int checks, failures;

static void expect(int ok, const char *what)
{
    ++checks;
    if (!ok) {
        printf("FAILED: %s\n", what);
        ++failures;
    }
}

int main(void)
{
    int rank = -1;
    size_t i, filled = 0;
    const char *filled_name = "";

    expect(MPI_Send(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD) == MPI_ERR_UNSUPPORTED_OPERATION,
           "an empty slot returns MPI_ERR_UNSUPPORTED_OPERATION");
    expect(strcmp(last_unsupported, "MPI_Send") == 0, "an empty slot names its function");
    expect(MPI_Comm_fromint(0) == MPI_COMM_NULL, "MPI_Comm_fromint without engine gives MPI_COMM_NULL");

    tessera_mpi_dispatch.Comm_rank = fake_comm_rank;
    expect(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 3,
           "MPI_Comm_rank reaches the engine through the table");
    rank = -1;
    expect(PMPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 3,
           "PMPI_Comm_rank reaches the engine through the table");

    expect(MPI_Barrier(MPI_COMM_WORLD) == MPI_ERR_UNSUPPORTED_OPERATION && tool_barriers == 1,
           "a tool's MPI_Barrier replaces the weak one and reaches PMPI_Barrier");
    expect(strcmp(last_unsupported, "MPI_Barrier") == 0, "PMPI_Barrier names MPI_Barrier");

    for (i = 0; i < TESSERA_MPI_FUNCTION_COUNT; ++i) {
        if (tessera_mpi_slot_filled(&tessera_mpi_dispatch, i)) {
            ++filled;
            filled_name = tessera_mpi_slots[i].name;
        }
    }
    expect(filled == 1 && strcmp(filled_name, "MPI_Comm_rank") == 0,
           "the slot list sees exactly the one filled slot");
    expect(TESSERA_MPI_FUNCTION_COUNT == 664, "the table has a slot for each of the 664 functions");

    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
