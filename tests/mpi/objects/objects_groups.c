/* Groups of MPI_COMM_WORLD as an application uses them (MPI-4.1 7.3): sizes and ranks, the reversed
 * world, even and odd ranks by range, set operations between them, rank translation, MPI_Comm_compare,
 * and bad arguments returned under MPI_ERRORS_RETURN. Plain MPI C; also run over the translators. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#include "../p2p/p2p_check.h"

static int rank, size;

static int group_size(MPI_Group g)
{
    int n = -1;
    CHECK(MPI_Group_size(g, &n) == MPI_SUCCESS, "MPI_Group_size");
    return n;
}

static int group_rank(MPI_Group g)
{
    int r = -5;
    CHECK(MPI_Group_rank(g, &r) == MPI_SUCCESS, "MPI_Group_rank");
    return r;
}

static int compare(MPI_Group a, MPI_Group b)
{
    int result = -1;
    CHECK(MPI_Group_compare(a, b, &result) == MPI_SUCCESS, "MPI_Group_compare");
    return result;
}

static int error_class(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Group world, self, reversed, evens, odds, joined, common, rest, without0;
    int *ranks, *out, i, result, native;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    native = !runtime_is("Open MPI") && !runtime_is("MPICH");
    ranks = malloc(sizeof(int) * (size_t)(size + 1));
    out = malloc(sizeof(int) * (size_t)(size + 1));

    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS, "MPI_Comm_group(MPI_COMM_WORLD)");
    CHECK(group_size(world) == size && group_rank(world) == rank, "the world group has my rank and the size");
    CHECK(MPI_Comm_group(MPI_COMM_SELF, &self) == MPI_SUCCESS, "MPI_Comm_group(MPI_COMM_SELF)");
    CHECK(group_size(self) == 1 && group_rank(self) == 0, "the self group is me alone");
    ranks[0] = 0;
    CHECK(MPI_Group_translate_ranks(self, 1, ranks, world, out) == MPI_SUCCESS && out[0] == rank,
          "rank 0 of the self group is my world rank (got %d)", out[0]);

    /* The world backwards. */
    for (i = 0; i < size; ++i) {
        ranks[i] = size - 1 - i;
    }
    CHECK(MPI_Group_incl(world, size, ranks, &reversed) == MPI_SUCCESS, "MPI_Group_incl");
    CHECK(group_rank(reversed) == size - 1 - rank, "my rank in the reversed world is %d", group_rank(reversed));
    CHECK(compare(world, reversed) == (size == 1 ? MPI_IDENT : MPI_SIMILAR), "world vs reversed");
    for (i = 0; i < size; ++i) {
        ranks[i] = i;
    }
    ranks[size] = MPI_PROC_NULL;
    CHECK(MPI_Group_translate_ranks(world, size + 1, ranks, reversed, out) == MPI_SUCCESS, "translate to reversed");
    for (i = 0; i < size; ++i) {
        CHECK(out[i] == size - 1 - i, "world rank %d is reversed rank %d, not %d", i, size - 1 - i, out[i]);
    }
    CHECK(out[size] == MPI_PROC_NULL, "MPI_PROC_NULL translates to itself");

    /* Even and odd ranks by triplets; odd ones by excluding the even ones. */
    {
        int r[1][3];
        r[0][0] = 0;
        r[0][1] = size - 1 - (size - 1) % 2;
        r[0][2] = 2;
        CHECK(MPI_Group_range_incl(world, 1, r, &evens) == MPI_SUCCESS, "MPI_Group_range_incl");
        CHECK(MPI_Group_range_excl(world, 1, r, &odds) == MPI_SUCCESS, "MPI_Group_range_excl");
    }
    CHECK(group_size(evens) == (size + 1) / 2 && group_size(odds) == size / 2, "even and odd sizes");
    CHECK(group_rank(evens) == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED), "my rank among the even ones");
    CHECK(group_rank(odds) == (rank % 2 == 1 ? rank / 2 : MPI_UNDEFINED), "my rank among the odd ones");
    CHECK(MPI_Group_union(evens, odds, &joined) == MPI_SUCCESS, "MPI_Group_union");
    CHECK(compare(joined, world) == (size <= 2 ? MPI_IDENT : MPI_SIMILAR), "evens then odds are the world, reordered");
    if (size > 2) {
        CHECK(group_rank(joined) == (rank % 2 == 0 ? rank / 2 : (size + 1) / 2 + rank / 2), "my rank in the union");
    }
    CHECK(MPI_Group_intersection(evens, odds, &common) == MPI_SUCCESS, "MPI_Group_intersection");
    CHECK(group_size(common) == 0 && group_rank(common) == MPI_UNDEFINED, "no rank is even and odd");
    CHECK(compare(common, MPI_GROUP_EMPTY) == MPI_IDENT, "the empty intersection is MPI_GROUP_EMPTY's like");
    CHECK(MPI_Group_difference(world, evens, &rest) == MPI_SUCCESS, "MPI_Group_difference");
    CHECK(compare(rest, odds) == MPI_IDENT, "the world without the even ranks is the odd ones");
    ranks[0] = 0;
    CHECK(MPI_Group_excl(world, 1, ranks, &without0) == MPI_SUCCESS, "MPI_Group_excl");
    CHECK(group_size(without0) == size - 1 && group_rank(without0) == (rank == 0 ? MPI_UNDEFINED : rank - 1),
          "the world without rank 0");

    /* Communicators compare by object, then by group. */
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &result) == MPI_SUCCESS && result == MPI_IDENT,
          "MPI_COMM_WORLD is itself");
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &result) == MPI_SUCCESS &&
              result == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL),
          "MPI_COMM_WORLD vs MPI_COMM_SELF: %d", result);

    /* Bad arguments, returned: a rank named twice, a rank outside, a zero stride. Errors of group
     * calls go to MPI_COMM_SELF's handler (MPI_COMM_WORLD's before MPI-4.0). */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    {
        MPI_Group bad = MPI_GROUP_NULL;
        int twice[2] = {0, 0}, outside[1], zero[1][3] = {{0, 0, 0}};
        outside[0] = size;
        if (native) { /* Open MPI 4.1 and MPICH 4.0 do not look for repeated ranks */
            CHECK(error_class(MPI_Group_incl(world, 2, twice, &bad)) == MPI_ERR_RANK, "a rank named twice");
        }
        CHECK(error_class(MPI_Group_excl(world, 1, outside, &bad)) == MPI_ERR_RANK, "a rank outside the group");
        int rc = MPI_Group_range_incl(world, 1, zero, &bad);
        CHECK(rc != MPI_SUCCESS && (!native || error_class(rc) == MPI_ERR_ARG), "a zero stride");
        CHECK(error_class(MPI_Group_size(MPI_GROUP_NULL, &i)) == MPI_ERR_GROUP, "MPI_GROUP_NULL");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);

    MPI_Group groups[] = {world, self, reversed, evens, odds, joined, common, rest, without0};
    for (i = 0; i < (int)(sizeof groups / sizeof groups[0]); ++i) {
        CHECK(MPI_Group_free(&groups[i]) == MPI_SUCCESS && groups[i] == MPI_GROUP_NULL, "MPI_Group_free %d", i);
    }
    free(ranks);
    free(out);
    p2p_barrier();
    MPI_Finalize();
    if (rank == 0) {
        printf("objects_groups: all checks passed on %d ranks\n", size);
    }
    return 0;
}
