/*
 * coll sm: MPI_Barrier, and MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Allgather and MPI_Alltoall of
 * small messages, on communicators whose processes all share this host (MPI-4.1 6.3-6.9), through a
 * shared-memory segment of the communicator: no request, no matching, no schedule. Each collective a
 * process makes through it is numbered k = 1, 2, ...; a process
 *   - writes what it gives (its operand, its blocks, the root's message) into its slot of the set
 *     k % coll_sm_depth, then k in the slot's head (release): "my data of collective k is in";
 *   - stores k in its flag: "I have finished collective k - 1";
 *   - and reads the slots of the others once their heads say k (acquire).
 * A slot of set k % depth is written again at collective k + depth, once every flag says k + 1: every
 * reader of collective k has finished it by then. So a root may run up to depth - 1 broadcasts ahead of
 * the slowest reader, as eager messages would let it: when ranks outnumber cores, a broadcast loop on
 * 4 ranks took 2.15 us per call with 2 sets. Each slot starts with the byte count its writer gave, so that
 * ranks whose counts disagree get MPI_ERR_TRUNCATE or MPI_ERR_COUNT, as from the other components.
 *
 * Which collectives take this path depends only on what every rank gives alike (the size of the
 * communicator, the bytes of the message by the type signature, the datatype and op of a reduction), so
 * all ranks take it or none does. Larger messages, and reductions of non-contiguous datatypes, go to the
 * component below it in the communicator's table (tuned, by priority), as do the non-blocking forms.
 *
 * The segment is made at the first collective that takes this path, not when the communicator is: a
 * program with many communicators pays only for those it uses so. Rank 0 creates it, sends where it is
 * with the component below's broadcast, every rank maps it, they agree with an allreduce that all could,
 * and rank 0 then closes the way in. The segment has no name: a memfd of rank 0's that the others open
 * through /proc/<pid>/fd/<n>. A named one (/dev/shm/tessera-<job>-coll-...) stayed in /dev/shm when
 * every process of the job, mpirun and its sentinel included, was killed at once between its creation
 * and its unlink (a job killed with its whole process tree while it made communicators); with no name
 * there is nothing to leave. Only when some rank cannot open rank 0's descriptor (a /proc that hides
 * it) do they try again with a named segment, unlinked as soon as all have mapped it, which mpirun's
 * sweep of tessera-<job>-* covers as long as mpirun or its sentinel lives. When any rank cannot map
 * it, the communicator keeps using the component below.
 *
 * Waiting spins on the flags and progresses the point-to-point engine between polls (another process
 * may wait on this one's progress: a rendezvous send started before the collective), yielding the CPU
 * like any other wait when ranks outnumber cores.
 */
#ifndef TESSERA_COMPONENTS_COLL_SM_COLL_SM_H
#define TESSERA_COMPONENTS_COLL_SM_COLL_SM_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "frameworks/coll/coll.h"
#include "opal/shared_file.h"

extern "C" mca_coll_base_component_t mca_coll_sm_component;

namespace tessera::ompi::coll_sm {

/* Defaults and ranges are in the rows of register_params (coll_sm_component.cpp). */
struct Params {
    int priority;          /* coll_sm_priority: above tuned's 30 */
    std::size_t max_bytes; /* coll_sm_max_bytes: a rank's slot; larger messages go below */
    int max_procs;         /* coll_sm_max_procs: larger communicators get no module */
    int polls;             /* coll_sm_polls: flag polls between passes of the progress engine */
    int depth;             /* coll_sm_depth: sets of slots, used in turn */
    int pauses;            /* coll_sm_pauses: pause instructions between polls; -1: 1, or 0 oversubscribed */
    int fetch_lines;       /* coll_sm_fetch_lines: lines of a slot's data fetched while polling its head */
    bool unnamed;          /* coll_sm_unnamed: a memfd rather than a /dev/shm name */
};
extern Params params;

/* Flags and slots sit on lines of their own (two, against the adjacent-line prefetcher). */
constexpr std::size_t kLine = 128;

/* A process's flag: the number of the last collective it entered. */
struct alignas(kLine) Flag {
    std::atomic<std::uint64_t> seq{0};
};

/* The head of a slot: the collective whose data it holds (stored last, release), and the bytes its
 * writer put after it. The data follows on the same line: a reader of a small message waits on and
 * reads one line of the writer's, not a flag, a head and the data. */
struct alignas(16) SlotHead {
    std::atomic<std::uint64_t> seq{0};
    std::uint64_t bytes = 0;
};

/* The shared segment of one communicator: a header, a flag per rank, `depth` sets of a slot per rank. */
class Segment {
public:
    /* Unnamed: rank 0's memfd, opened by the others through /proc; Named: /dev/shm`name`. */
    enum class Kind : std::uint8_t { Unnamed, Named };
    /* How attaching went: the least of every rank's decides what the communicator does. */
    enum Outcome : int {
        kRefused = 0,     /* made or reached, but unusable (parameters that disagree): go below */
        kUnreachable = 1, /* rank 0's unnamed segment could not be made or opened: try a named one */
        kMapped = 2,
    };

    /* Rank 0: creates and maps the segment (`name` only for Named); false with *error said otherwise. */
    bool create(Kind kind, const std::string &name, int procs, int depth, std::size_t slot_bytes, std::string *error);
    /* What the others attach to: the /proc path of the descriptor, or the name. */
    std::string where() const;
    /* The others: map what rank 0's where() said. */
    Outcome attach(Kind kind, const std::string &where, int procs, int depth, std::size_t slot_bytes,
                   std::string *error);
    /* Rank 0, once every rank has mapped it or given up: nobody can open it any more. */
    void forget();
    /* Unmaps it. */
    void unmap()
    {
        forget();
        file_.unmap();
    }

    Flag &flag(int rank) const { return flags_[rank]; }
    /* The slot of `rank` in collective k's set. */
    SlotHead *slot(std::uint64_t k, int rank) const
    {
        const std::size_t index = (k % depth_) * procs_ + static_cast<std::size_t>(rank);
        return reinterpret_cast<SlotHead *>(slots_ + index * stride_);
    }
    static char *data(SlotHead *s) { return reinterpret_cast<char *>(s + 1); }

private:
    void layout(int procs, int depth, std::size_t slot_bytes);

    opal::SharedFile file_;
    std::string name_; /* a Named segment's until forget() */
    Flag *flags_ = nullptr;
    char *slots_ = nullptr;
    std::size_t procs_ = 0;
    std::size_t depth_ = 2;
    std::size_t stride_ = 0;
};

/* The module of a communicator of `procs` processes, all on this host. */
mca_coll_base_module_t *module_create();

} // namespace tessera::ompi::coll_sm

#endif
