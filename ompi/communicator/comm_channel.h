/*
 * The exchange every communicator creation is built on: the processes taking part each contribute a
 * few integers (a split's color and key, a process's world rank...) and a bit mask (the context ids
 * free here, comm_context.h); each gets back everyone's integers and the AND of all masks (and the MAX
 * of trailing words, for a value all must agree on).
 *
 * Who takes part is a Channel: some ranks of one communicator (all of the parent for MPI_Comm_dup;
 * the group's members for MPI_Comm_create_group), and for an intercommunicator also the other group,
 * reached through the two leaders (the intercommunicator itself, or MPI_Intercomm_create's bridge).
 *
 * Inside a group the contributions go up a binomial tree to the leader, which combines them, trades
 * with the other group's leader if there is one, and sends the result down the same tree: 2 log n
 * message steps, and no process handles more than its subtree's data plus the result.
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_CHANNEL_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_CHANNEL_H

#include <cstdint>
#include <vector>

#include "ompi/communicator/comm_task.h"
#include "ompi/communicator/communicator.h"

namespace tessera::ompi::comm {

/* Channel::tag: the communicator's next collective number gives the tag (every rank of it takes part). */
inline constexpr int kCollectiveTag = 0;

struct Channel {
    Communicator *comm = nullptr; /* the group's messages go here */
    std::vector<int> members;     /* who takes part, as ranks of comm; results are in this order */
    int me = 0;                   /* this process's index in members */
    int root = 0;                 /* the leader's index in members */
    int tag = kCollectiveTag;     /* or an internal tag (pml_internal.h) when only some ranks of comm take part */

    /* The other group of an intercommunicator, if any: its leader is rank remote_leader of `link`. */
    Communicator *link = nullptr;
    int remote_leader = 0;
    int link_tag = kCollectiveTag;
    int remote_size = 0;          /* how many take part there */
};

/* Every rank of an intracommunicator; an intercommunicator's two groups (its local_comm, and the
 * intercommunicator itself between the leaders, rank 0 of each group). */
Channel channel_of(Communicator *comm);

/* The same, for a creation that runs as a request (MPI_Comm_idup): the exchanges use tags taken now,
 * in call order, instead of taking the next collective number when each one starts — with several in
 * flight, processes reach those starts in different orders. */
Channel channel_of_request(Communicator *comm);

struct Exchanged {
    std::vector<int> local;           /* `ints` per member, in members order */
    std::vector<int> remote;          /* `ints` per member of the other group, in its order */
    std::vector<std::uint64_t> mask;  /* the AND of every contribution (MAX for trailing max_words) */
};

/*
 * Each member contributes mine (the same number of ints everywhere) and mask (the same length
 * everywhere); *out gets the result, in which the last max_words words of the masks are combined by
 * MAX instead of AND (a value all must agree on, such as comm_context.h's generation). A task: co_await
 * it. Returns MPI_SUCCESS or the error class of a message that failed.
 */
Task exchange(const Channel &ch, std::vector<int> mine, std::vector<std::uint64_t> mask, Exchanged *out,
              std::size_t max_words = 0);

/* The leader's part of MPI_Intercomm_create before anything else: each leader sends its group's size
 * and gets the other's over the bridge; *remote_size gets it (and must then reach the group: bcast_int). */
Task trade_int(Communicator *bridge, int remote_leader, int tag, int mine, int *theirs);
/* The leader (index `root` of every rank of comm) gives *value to every rank of comm. */
Task bcast_int(Communicator *comm, int root, int *value);

} // namespace tessera::ompi::comm

#endif
