/*
 * What the MPI layer offers a coll component written in C, in or out of the tree (installed with the
 * SDK): the communicator's shape, point-to-point traffic the application cannot see, datatypes and
 * reductions. In-tree C++ components use ompi/coll/ directly (schedules); these calls are the same
 * machinery behind a C ABI, so a component built against the installed SDK alone can implement any
 * collective.
 *
 * Traffic: a collective call takes one tag with tessera_coll_next_tag() on every rank (all ranks call
 * a communicator's collectives in the same order, so the tags agree), and sends and receives with that
 * tag on the communicator's collective-private context: no user receive, probe or wildcard can match
 * it, and two collectives in flight on one communicator never take each other's messages. Ranks are
 * the communicator's (the remote group's on an intercommunicator).
 *
 * Return values are MPI error classes (MPI_SUCCESS is 0), as coll.h's entries return them.
 */
#ifndef TESSERA_FRAMEWORKS_COLL_COLL_SERVICES_H
#define TESSERA_FRAMEWORKS_COLL_COLL_SERVICES_H

#include <stddef.h>

#include "frameworks/coll/coll.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of these services: a component checks it at open (tessera_coll_services_version() must have
 * the major it was written for and at least its minor). */
#define TESSERA_COLL_SERVICES_VERSION_MAJOR 1
#define TESSERA_COLL_SERVICES_VERSION_MINOR 0
/* major * 1000 + minor of the library the component runs with. */
int tessera_coll_services_version(void);

/* This process's rank in `comm` (its local group), the local group's size, and whether `comm` is an
 * intercommunicator (then tessera_coll_comm_remote_size() is the remote group's size, else 0). */
int tessera_coll_comm_rank(struct tessera_comm *comm);
int tessera_coll_comm_size(struct tessera_comm *comm);
int tessera_coll_comm_is_inter(struct tessera_comm *comm);
int tessera_coll_comm_remote_size(struct tessera_comm *comm);

/* The tag of the collective being called: once per collective call, on every rank of `comm`. */
int tessera_coll_next_tag(struct tessera_comm *comm);

/* A point-to-point operation in flight. */
typedef struct tessera_coll_p2p tessera_coll_p2p_t;

/*
 * Starts a send (receive) of `count` elements of `dt` at `buf` to (from) rank `peer` of `comm` with a
 * tag from tessera_coll_next_tag() (a negative value; any other is MPI_ERR_TAG). `peer` may be
 * MPI_PROC_NULL. The request must be completed with tessera_coll_wait/_waitall or tessera_coll_test.
 */
int tessera_coll_isend(const void *buf, size_t count, mca_coll_dt_t dt, int peer, int tag,
                       struct tessera_comm *comm, tessera_coll_p2p_t **request);
int tessera_coll_irecv(void *buf, size_t count, mca_coll_dt_t dt, int peer, int tag, struct tessera_comm *comm,
                       tessera_coll_p2p_t **request);
/* Blocking forms: return when the buffer may be reused (send) or holds the message (receive). */
int tessera_coll_send(const void *buf, size_t count, mca_coll_dt_t dt, int peer, int tag,
                      struct tessera_comm *comm);
int tessera_coll_recv(void *buf, size_t count, mca_coll_dt_t dt, int peer, int tag, struct tessera_comm *comm);

/* Waits for the request, releases it and sets *request to NULL (NULL requests are skipped). Returns
 * the operation's error class (MPI_ERR_TRUNCATE when a received message was longer than the buffer). */
int tessera_coll_wait(tessera_coll_p2p_t **request);
/* Waits for all, releases all; returns the first error class met. */
int tessera_coll_waitall(size_t n, tessera_coll_p2p_t **requests);
/* *done = 1 and the request released (error class returned) when complete; else *done = 0. Drives
 * progress once. */
int tessera_coll_test(tessera_coll_p2p_t **request, int *done);
/* Drives the progress engine once (transports, pending sends); returns how much it did. */
int tessera_coll_progress(void);

/* MPI_BYTE, for messages that carry no typed data (a barrier's, a component's own headers). */
mca_coll_dt_t tessera_coll_type_bytes(void);
/* Datatypes: bytes of data in one element, its lower bound and extent (MPI_Type_get_extent). */
size_t tessera_coll_type_size(mca_coll_dt_t dt);
ptrdiff_t tessera_coll_type_lb(mca_coll_dt_t dt);
ptrdiff_t tessera_coll_type_extent(mca_coll_dt_t dt);
/* Bytes [offset, offset + len) of the packed form of `count` elements at `buf` into `out`; and back. */
int tessera_coll_pack(const void *buf, size_t count, mca_coll_dt_t dt, size_t offset, void *out, size_t len);
int tessera_coll_unpack(void *buf, size_t count, mca_coll_dt_t dt, size_t offset, const void *in, size_t len);
/* Copies `scount` elements of `sdt` into `rcount` of `rdt`, as a message would (MPI_ERR_TRUNCATE when
 * the source holds more bytes than the destination). */
int tessera_coll_copy(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount,
                      mca_coll_dt_t rdt);
/* inout[i] = in[i] op inout[i] for `count` elements (MPI_Reduce_local). */
int tessera_coll_reduce_local(const void *in, void *inout, size_t count, mca_coll_dt_t dt, mca_coll_op_t op);
/* Whether the op is commutative (a non-commutative op must combine in rank order). */
int tessera_coll_op_commutative(mca_coll_op_t op);
/* Whether `buf` is MPI_IN_PLACE (the MPI layer's sentinel, which a component built in C cannot name). */
int tessera_coll_in_place(const void *buf);

/*
 * Schedules: a collective written as rounds of steps, which the library runs blocking or as a
 * non-blocking collective's request progressed by its engine (how the in-tree components write theirs,
 * docs/coll.md "Schedules"). Sends and receives of a round start when the round is reached; the next
 * round starts once all of them completed, so a step that uses received data goes into a later round.
 * Copies and reductions are done when reached. The schedule holds a use of every datatype and op it
 * names. Peers may be MPI_PROC_NULL.
 */
typedef struct tessera_coll_schedule tessera_coll_schedule_t;

/* A schedule of `comm`'s next collective: takes its tag, as tessera_coll_next_tag() does. NULL when out
 * of memory. */
tessera_coll_schedule_t *tessera_coll_schedule_create(struct tessera_comm *comm);
int tessera_coll_schedule_send(tessera_coll_schedule_t *s, const void *buf, size_t count, mca_coll_dt_t dt,
                               int peer);
int tessera_coll_schedule_recv(tessera_coll_schedule_t *s, void *buf, size_t count, mca_coll_dt_t dt, int peer);
/* rbuf gets sbuf's packed stream, as a message would (a longer source: MPI_ERR_TRUNCATE when run). */
int tessera_coll_schedule_copy(tessera_coll_schedule_t *s, const void *sbuf, size_t scount, mca_coll_dt_t sdt,
                               void *rbuf, size_t rcount, mca_coll_dt_t rdt);
/* inout = in op inout, `in` holding the lower ranks' operand. */
int tessera_coll_schedule_reduce(tessera_coll_schedule_t *s, const void *in, void *inout, size_t count,
                                 mca_coll_dt_t dt, mca_coll_op_t op);
/* Ends the current round. */
int tessera_coll_schedule_round(tessera_coll_schedule_t *s);
/* Memory owned by the schedule for `count` elements of `dt`, as the buffer pointer an application would
 * pass; NULL when out of memory. */
void *tessera_coll_schedule_scratch(tessera_coll_schedule_t *s, size_t count, mca_coll_dt_t dt);
/* Runs the schedule to its end and frees it: a blocking collective's result. */
int tessera_coll_schedule_run(tessera_coll_schedule_t *s);
/* Starts it as a non-blocking collective: *request (the coll entry's request argument) owns it and
 * completes when it does, with its error in the status. */
int tessera_coll_schedule_start(tessera_coll_schedule_t *s, struct tessera_request **request);
/* Frees a schedule that was neither run nor started. */
void tessera_coll_schedule_free(tessera_coll_schedule_t *s);

#ifdef __cplusplus
}
#endif

#endif
