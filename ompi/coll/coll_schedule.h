/*
 * Schedules: how every collective algorithm of the coll components is written, once, for both the
 * blocking and the non-blocking form.
 *
 * A schedule is a sequence of rounds. A round is a list of steps in order: sends and receives
 * (started when reached, on the communicator's context with the schedule's own internal tag), local
 * copies and reductions (done when reached). The next round starts once every send and receive of the
 * round has completed, so a step that needs data received in a round goes into a later one:
 *
 *     s.recv(tmp, n, type, left);   s.round();
 *     s.reduce(tmp, acc, n, type, op);  s.send(acc, n, type, right);   s.round();
 *
 * Running: run() takes a schedule to its end (a blocking collective); start_request() turns it into
 * a non-blocking collective's request, progressed by every pass of the library's progress engine
 * (pml::progress, so MPI_Wait/Test/Waitall... on it work as on point-to-point requests, mixed with
 * them). Each schedule takes the communicator's next collective number as its tag: all ranks call
 * collectives on a communicator in the same order (MPI-4.1 6.12), so concurrent non-blocking
 * collectives never take each other's messages.
 *
 * The schedule owns what it needs until it is destroyed: its scratch buffers, a use of every datatype
 * and op its steps name (an application may free them while a non-blocking collective runs).
 *
 * A collective allocates nothing once warm: a schedule takes the memory of its steps, of its round's
 * requests and of its scratch buffers from a pool and gives it back when destroyed (scratch buffers are
 * kept up to coll_base_scratch_keep bytes in all), and schedule objects themselves come from a free
 * list. A blocking collective's schedule (Uses::None) holds no uses of datatypes and ops: the
 * application cannot free them during the call.
 */
#ifndef TESSERA_OMPI_COLL_COLL_SCHEDULE_H
#define TESSERA_OMPI_COLL_COLL_SCHEDULE_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"
#include "ompi/pml/pml_request.h"

namespace tessera::ompi::coll {

class Schedule : public pml::RequestWork {
public:
    /* Whether the steps hold a use of the datatypes and ops they name (a non-blocking collective's). */
    enum class Uses : std::uint8_t { Hold, None };

    /* A schedule of `comm`'s next collective (takes its tag). */
    explicit Schedule(Communicator *comm, Uses uses = Uses::Hold);
    /* A schedule of internal traffic between some ranks of `comm` only (communicator creation over a
     * group, the leaders of MPI_Intercomm_create): outside the collective numbering, with the caller's
     * internal tag (pml_internal.h). */
    Schedule(Communicator *comm, int tag);
    ~Schedule() override;
    Schedule(const Schedule &) = delete;
    Schedule &operator=(const Schedule &) = delete;

    Communicator *comm() const { return comm_; }
    int rank() const { return comm_->rank; }
    int size() const { return comm_->size; }
    int tag() const { return tag_; }
    /* An intercommunicator's remote group (0 on an intracommunicator). */
    int remote_size() const { return comm_->remote_size(); }

    /* Building. Peers may be MPI_PROC_NULL (the step does nothing). On an intercommunicator they are
     * ranks of the remote group, except while local_group(true) is in force: then of the local group,
     * over the intercommunicator's hidden local_comm with a tag of that communicator's own collective
     * numbering (taken when the schedule was made: every process of a group makes the same schedules
     * in the same order). */
    void send(const void *buf, std::size_t count, const Datatype *type, int peer);
    void recv(void *buf, std::size_t count, const Datatype *type, int peer);
    void local_group(bool on) { local_group_ = on && local_ != nullptr; }
    /* dst gets src's packed stream, as a message from src to dst would (a longer src is
     * MPI_ERR_TRUNCATE). */
    void copy(const void *src, std::size_t scount, const Datatype *stype, void *dst, std::size_t dcount,
              const Datatype *dtype);
    /* inout = in op inout (op.h: `in` holds the lower ranks' operand). */
    void reduce(const void *in, void *inout, std::size_t count, const Datatype *type, const Op *op);
    /* Ends the current round (nothing when it is empty). */
    void round();

    /* Scratch memory owned by the schedule: room for `count` elements of `type`, returned as the
     * buffer pointer an application would pass (its data begins at true_lb from it). */
    void *scratch(std::size_t count, const Datatype *type);

    /* Running (see run() and start_request()). progress() advances as far as it can without
     * waiting and says whether the schedule is complete. */
    void start();
    bool progress();
    bool complete() const { return complete_; }
    /* The error class of the first step that failed (MPI_SUCCESS). The schedule runs to its end
     * anyway, so that the other ranks are not left waiting. */
    int error() const { return error_; }

private:
    enum class Kind : std::uint8_t { Send, Recv, Copy, Reduce, Round };
    struct Step {
        Kind kind;
        bool local;              /* send, receive: within the local group (local_) */
        int peer;
        const void *src;
        void *dst;
        std::size_t count;
        const Datatype *type;
        std::size_t count2;      /* copy: the destination's count and type */
        const Datatype *type2;
        const Op *op;
    };

public:
    /* A scratch allocation, kept from one schedule to the next. */
    struct Chunk {
        std::unique_ptr<char[]> memory;
        std::size_t bytes;
    };
    /* What a schedule grows while it is built and run: pooled (coll_schedule.cpp). */
    struct Memory {
        std::vector<Step> steps;
        std::vector<pml::Request *> in_flight; /* of the running round */
        std::vector<Chunk> scratch;
        std::size_t scratch_bytes = 0; /* of all chunks */
    };
    /* Schedule objects come from a free list. */
    static void *operator new(std::size_t bytes);
    static void operator delete(void *p, std::size_t bytes);

private:
    void add(const Step &step);
    /* Runs the steps of the next round: local ones done, communication started. */
    void run_round();
    void fail(int code);

    Communicator *comm_;
    int tag_;
    Communicator *local_ = nullptr; /* an intercommunicator's local_comm, and the tag there */
    int local_tag_ = 0;
    bool local_group_ = false;
    bool holds_uses_;
    std::unique_ptr<Memory> mem_;
    std::vector<Step> &steps_;
    std::vector<pml::Request *> &in_flight_;
    std::size_t next_ = 0;                   /* the first step not run yet */
    std::size_t scratch_used_ = 0;           /* chunks of mem_->scratch handed out by this collective */
    bool started_ = false;
    bool complete_ = false;
    int error_ = MPI_SUCCESS;
};

/* Collective numbers taken at a call, in call order, for traffic whose schedules are made later, when
 * the progress engine reaches them: on the communicator, and on an intercommunicator's local_comm.
 * MPI_Comm_idup's agreement uses them with Schedule(comm, tag) (several in flight reach their exchanges
 * in a different order in different processes); a persistent collective (MPI-4.1 6.13) takes them at
 * its initialization. */
struct FixedTags {
    Communicator *comm = nullptr;
    int tag = 0;
    int local_tag = 0;
};
FixedTags reserve_tags(Communicator *comm);

/* The tag of `comm`'s next collective (or the persistent collective's, under a FixedTagScope), for
 * traffic outside a schedule: components in C (coll_services.h). */
int collective_tag(Communicator *comm);

/* While one lives, a schedule made on its communicator takes its tags instead of the next numbers:
 * every start of a persistent collective runs under the numbers of its initialization, whatever
 * other collectives ran in between. Successive starts reuse them safely: a start begins after the
 * previous one completed here, and each pair of processes exchanges the same messages, in the same
 * order, in every start. */
class FixedTagScope {
public:
    explicit FixedTagScope(const FixedTags &tags);
    ~FixedTagScope();
    FixedTagScope(const FixedTagScope &) = delete;
    FixedTagScope &operator=(const FixedTagScope &) = delete;

private:
    const FixedTags *outer_;
};

/* Runs a schedule to its end (blocking collectives); returns its error class. */
int run(Schedule &schedule);

/* Frees the pooled memory (MPI_Finalize). */
void clear_cache();

/* coll_base_scratch_keep: registered with the MPI layer's parameters (ompi_frameworks.cpp). */
int register_params();

/* Starts a schedule as a non-blocking collective: *request completes when it does (its status's
 * MPI_ERROR carries the schedule's error). */
int start_request(std::unique_ptr<Schedule> schedule, pml::Request **request);

/* Makes `parent` complete with `child`, a request start_request gave, unless `child` has completed
 * already (false: nothing changed). Decided against the progress pass that completes running
 * schedules, so that under MPI_THREAD_MULTIPLE the child cannot complete, in another thread, between
 * the check and the adoption and leave the parent waiting forever. */
bool adopt_running(pml::Request *parent, pml::Request *child);

/* A collective written once as a schedule builder `build(Schedule &)`, run as the blocking form or
 * started as the non-blocking one: what a coll component's module entries call. */
template <typename Build>
int run_blocking(Communicator *comm, Build build)
{
    Schedule schedule(comm, Schedule::Uses::None);
    build(schedule);
    return run(schedule);
}

template <typename Build>
int run_nonblocking(Communicator *comm, pml::Request **request, Build build)
{
    auto schedule = std::make_unique<Schedule>(comm);
    build(*schedule);
    return start_request(std::move(schedule), request);
}

/* Non-blocking collectives in flight: the progress hook on the point-to-point engine, added at
 * MPI_Init and removed at MPI_Finalize (coll_comm.cpp). */
int progress_requests();

} // namespace tessera::ompi::coll

#endif
