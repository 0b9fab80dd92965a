/*
 * Groups (MPI-4.1 7.3): an ordered set of processes. A member is the process's proc (the same
 * tessera_proc_t* the communicators hold by rank), so that a communicator made from a group copies the group's members as its procs, and two groups of different
 * communicators compare by process, not by rank.
 *
 * Handles: MPI_GROUP_EMPTY is a predefined object found by value (0x109), MPI_GROUP_NULL (0x108) names
 * no group; a created group's handle is its address and generation (runtime/user_handle.h). A group
 * counts its references (its handle and whoever keeps it); MPI_Group_free drops the handle's.
 */
#ifndef TESSERA_OMPI_GROUP_GROUP_H
#define TESSERA_OMPI_GROUP_GROUP_H

#include <atomic>
#include <cstdint>
#include <vector>

#include <mpi.h>

#include "ompi/proc/proc.h"
#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

struct Group {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x47525550; /* "GRUP" */
    static void *operator new(std::size_t size) { return handle_slot_new<Group>(size); }
    static void operator delete(void *object) { handle_slot_delete<Group>(object); }

    std::atomic<int> refs{1};
    std::vector<tessera_proc_t *> procs; /* by rank */
    int my_rank = MPI_UNDEFINED;         /* of this process (its proc has TESSERA_PROC_IS_SELF) */

    int size() const { return static_cast<int>(procs.size()); }
};

/* A new group of these members (one reference: the handle's). No members gives MPI_GROUP_EMPTY's. */
Group *group_create(std::vector<tessera_proc_t *> procs);

/* The group of a handle, or nullptr for MPI_GROUP_NULL and handles that name no group. */
Group *group_lookup(MPI_Group handle);

MPI_Group group_handle(const Group *group);

/* The empty group (MPI_GROUP_EMPTY): never freed. */
Group *group_empty();

/* A reference beyond the handle; the last release frees the group. No-ops on MPI_GROUP_EMPTY. */
void group_retain(Group *group);
void group_release(Group *group);

} // namespace tessera::ompi

#endif
