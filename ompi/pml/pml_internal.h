/*
 * The point-to-point engine for the library's own traffic: collectives (ompi/coll) and whatever else
 * must talk between the ranks of a communicator without the application noticing (communicator
 * creation, later). No MPI argument checks: the caller's arguments are its own.
 *
 * Isolation: internal messages carry negative tags, below MPI_ANY_TAG, on the communicator's own
 * context. A user tag is never negative (the MPI functions refuse one) and MPI_ANY_TAG matches only
 * tags >= 0 (pml_engine_private.h), so no user receive, probe or matched probe can take internal traffic,
 * and no internal receive (always a specific tag) can take a user message.
 */
#ifndef TESSERA_OMPI_PML_PML_INTERNAL_H
#define TESSERA_OMPI_PML_PML_INTERNAL_H

#include <cstddef>

#include "ompi/pml/pml_request.h"

namespace tessera::ompi::pml {

/* Tags -3 .. -15 are for fixed uses, one per subsystem (communicator creation...); collectives take
 * kTagCollFirst and below (ompi/coll/coll_schedule.h: one tag per collective call). */
inline constexpr int kTagInternalFirst = -3;
/* -3 .. -5: osc am's requests, payloads and replies, on a window's private communicator only. */
inline constexpr int kTagOscFirst = kTagInternalFirst;
inline constexpr int kTagCollFirst = -16;

/* Communicator creation between some ranks of a communicator only, outside its collective numbering,
 * named by the application's tag (>= 0): MPI_Comm_create_group's members talk on the parent with
 * kTagCreateGroupFirst - (tag mod kTagUserSpan), MPI_Intercomm_create's leaders on the bridge with
 * kTagBridgeFirst - (tag mod kTagUserSpan). Both ranges lie below every collective tag (the
 * collective numbers wrap at 2^24) and apart from each other. */
inline constexpr int kTagUserSpan = 1 << 28;
inline constexpr int kTagCreateGroupFirst = -(1 << 25);
inline constexpr int kTagBridgeFirst = -(1 << 29);
inline constexpr int internal_tag(int first, int user_tag)
{
    return first - user_tag % kTagUserSpan;
}

/*
 * A send of `count` elements of `type` at `buf` to rank `peer` of `comm` (MPI_PROC_NULL allowed),
 * or a receive from `peer` (a specific rank or MPI_PROC_NULL), with an internal tag (<= -3). Always a
 * started request: a failure to start shows as its status's MPI_ERROR on a complete request. The
 * caller progresses it (wait_for, wait_until, progress) and gives it back with request_release. The
 * request holds the datatype until released. `exchange`: the caller also receives while this send
 * runs (a step of a collective), which makes a single-copy read by the receiver worth it
 * (pml_single_copy).
 */
Request *isend(const void *buf, std::size_t count, const Datatype *type, int peer, int tag, Communicator *comm,
               bool exchange = false);
Request *irecv(void *buf, std::size_t count, const Datatype *type, int peer, int tag, Communicator *comm);

/* Completes a request the engine does not complete itself (Kind::Coll): marks it complete, and
 * releases it if the application freed it meanwhile (MPI_Request_free). */
void complete_request(Request *r);

/* Work polled by every progress() pass after the transports (non-blocking collectives' schedules):
 * returns how much it did. Added at MPI_Init, removed at MPI_Finalize. */
using ProgressHook = int (*)();
void progress_hook_add(ProgressHook hook);
void progress_hook_remove(ProgressHook hook);

} // namespace tessera::ompi::pml

#endif
