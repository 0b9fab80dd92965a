/*
 * The set algebra of groups (MPI-4.1 7.3.1-7.3.2) on member lists, apart from the group objects so
 * that it can be tested against a reference on its own. Members are compared by identity (the proc).
 * The functions that take ranks validate them as the standard requires and, when they are wrong,
 * return the error class and set *error to a message naming the offending argument.
 */
#ifndef TESSERA_OMPI_GROUP_GROUP_OPS_H
#define TESSERA_OMPI_GROUP_GROUP_OPS_H

#include <span>
#include <string>
#include <vector>

#include "ompi/proc/proc.h"

namespace tessera::ompi::group_ops {

using Members = std::vector<tessera_proc_t *>;
using Range = int[3]; /* first, last, stride */

/* a's members in a's order, then b's members that are not in a in b's order. */
Members set_union(const Members &a, const Members &b);
/* a's members that are also in b, in a's order. */
Members intersection(const Members &a, const Members &b);
/* a's members that are not in b, in a's order. */
Members difference(const Members &a, const Members &b);

/* MPI_IDENT (same members in the same order), MPI_SIMILAR (same members), MPI_UNEQUAL. */
int compare(const Members &a, const Members &b);

/* The members of g at `ranks`, in that order; the ranks must be valid and distinct (MPI_ERR_RANK). */
int incl(const Members &g, std::span<const int> ranks, Members *out, std::string *error);
/* g without the members at `ranks`, in g's order; the ranks must be valid and distinct. */
int excl(const Members &g, std::span<const int> ranks, Members *out, std::string *error);

/* The ranks a list of (first, last, stride) triplets names, in order. A stride of 0, or one that leads
 * away from `last`, is MPI_ERR_ARG; a first or last rank outside the group, or a rank named twice, is
 * MPI_ERR_RANK. */
int expand_ranges(int group_size, std::span<const Range> ranges, std::vector<int> *ranks, std::string *error);

/* For each rank of a in ranks_a, its member's rank in b or MPI_UNDEFINED; MPI_PROC_NULL stays
 * MPI_PROC_NULL. A rank outside a is MPI_ERR_RANK. */
int translate(const Members &a, std::span<const int> ranks_a, const Members &b, int *ranks_b, std::string *error);

} // namespace tessera::ompi::group_ops

#endif
