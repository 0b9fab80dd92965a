/*
 * The matching engine and its protocols (docs/p2p.md): what the MPI functions of p2p_*.cpp call.
 * Every function here may be called from several threads at once when opal::using_threads()
 * (MPI_THREAD_MULTIPLE, or an asynchronous progress thread): the locks and their order are in
 * docs/threads.md.
 */
#ifndef TESSERA_OMPI_PML_PML_ENGINE_H
#define TESSERA_OMPI_PML_PML_ENGINE_H

#include <atomic>
#include <string>

#include <mpi.h>

#include "opal/threads.h"

#include "ompi/pml/pml_request.h"

namespace tessera::ompi::pml {

/* mpi_yield_when_idle */
inline constexpr int kYieldOff = 0, kYieldOn = 1, kYieldAuto = 2;
/* pml_single_copy */
inline constexpr int kSingleCopyNever = 0, kSingleCopyExchange = 1, kSingleCopyAlways = 2, kSingleCopyAuto = 3;

/* Parameters (registered by register_params, from ompi_frameworks.cpp; checked by init()). */
struct Params {
    std::size_t eager_limit = 0;  /* pml_eager_limit: 0 = the first module's btl_eager_limit */
    int pipeline_depth = 16;      /* pml_pipeline_depth: fragments of one message the btl may still hold */
    int bsend_passes = 64;        /* pml_bsend_passes: passes a buffered send with no room makes before failing */
    int poll_spins = 200;         /* mpi_poll_spins: empty polls before a waiting process yields the CPU */
    int poll_spins_oversubscribed = 1; /* mpi_poll_spins_oversubscribed: the same when ranks outnumber cores */
    int yield_when_idle = kYieldAuto; /* mpi_yield_when_idle: kYield* */
    /* mpi_yield_run_delay: auto also yields while the process waited for its CPU at least this share of
     * the last pml_contention_window. A waiter that spins on a core it shares with another busy process
     * burns the time slices its peer's data needs; one that yields keeps the scheduler's credit for when
     * the data is there (docs/p2p.md). */
    double yield_run_delay = 0.2;
    /* pml_single_copy: kSingleCopy*. auto: on the AMD EPYC VMs these targets are measured on, the
     * kernel's cross-memory read (page pinning, then a copy page by page) is slower than both processes
     * copying through the shared rings while both run, even for a collective's exchanges; but when a
     * core is shared the rings stall while either process waits for its CPU, and a read by the
     * receiver alone is faster (docs/p2p.md). So the receiver reads when either side is contended. */
    int single_copy = kSingleCopyAuto;
    /* pml_single_copy_min: auto reads messages of at least this many bytes; smaller ones stream. Even
     * contended, up to 4 MiB streamed faster than the kernel's read here (docs/benchmarks-p2p.md). */
    std::size_t single_copy_min = std::size_t{8} << 20;
    /* pml_contention_threshold, pml_contention_window: contended when the thread waited for a CPU at
     * least this share of the last window of that many seconds (pml_contention.h). */
    double contention_threshold = 0.9;
    double contention_window = 0.01;
    /* pml_request_cache: requests a thread keeps for itself under MPI_THREAD_MULTIPLE before it gives
     * half of them back to the shared free list (pml_request.cpp). */
    int request_cache = 256;
};
extern Params params;
int register_params();
/* What is wrong with the values ("" when nothing), naming the parameter. */
std::string check_params(const Params &p);

/* A communicator's matching state (posted and unexpected queues, per-peer sequence numbers), from its
 * creation — replaying what peers already sent on its context id — to its destruction. */
void comm_attach(Communicator &comm);
void comm_detach(Communicator &comm);

/* Starts a send (peer is a real rank of r->comm) or posts a receive. Returns an MPI error code. */
int start_send(Request *r);
int start_recv(Request *r);

/* One pass over the transports and the engine's pending work; returns how much it did. Any thread may
 * call it: under MPI_THREAD_MULTIPLE one thread at a time makes the pass, and a thread that finds another
 * making it returns 0 at once, to look at its own requests again (docs/threads.md). */
int progress();

/* One whole pass, waiting for the gate when another thread makes one (never from inside a pass's
 * callback or hook, which holds it already); returns how much it did. For a caller that must know the
 * engine has looked at everything that arrived before it decides (a buffered send finding no room). */
int progress_whole_pass();

/* Progresses until r is complete (spinning, then yielding the CPU between empty passes). */
void wait_for(Request *r);

/* Empty passes before wait_until yields: mpi_poll_spins, or mpi_poll_spins_oversubscribed when this
 * host's ranks outnumber its cores (resolved by init()). */
extern int idle_spins;

/* This host's ranks outnumber its cores (resolved by init()): a waiter then holds a core its peer needs. */
extern bool oversubscribed;

/* Gives the CPU to another process (sched_yield) when mpi_yield_when_idle is on, or auto and either
 * this host's ranks outnumber its cores or this process waits for its CPU (mpi_yield_run_delay). */
void yield_cpu();
bool yield_wanted();

/* Under MPI_THREAD_MULTIPLE: the threads of this process in wait_until now, and the CPUs it may run on
 * (resolved by init()). More waiters than CPUs share a core, and one that spins holds it from the thread
 * whose message would end its wait: yield_wanted() then says yes whatever mpi_yield_when_idle says. */
extern std::atomic<int> waiting_threads;
extern int process_cpus;

/* The progress passes of one wait. Under MPI_THREAD_MULTIPLE a waiter that gets the progress gate keeps
 * it from pass to pass instead of taking and leaving it each time (two atomic operations per pass, on the
 * path from a message's arrival to the waiter's return). It lets go when a thread needs the gate for
 * something else (ProgressScope), before it yields the CPU, and when the wait ends; other waiters meanwhile
 * find their requests completed by its passes, as they would by anyone's. Below MULTIPLE a pass is a
 * plain progress(). */
class WaitGate {
public:
    WaitGate() = default;
    ~WaitGate() { release(); }
    WaitGate(const WaitGate &) = delete;
    WaitGate &operator=(const WaitGate &) = delete;

    int pass();
    void release()
    {
        if (held_) {
            let_go();
        }
    }

private:
    void let_go();
    bool held_ = false;
};

/* Progresses until done() holds; for MPI_Waitany/some/all. */
template <typename Done>
void wait_until(Done done)
{
    /* A waiter counts in waiting_threads only once its wait lasts (the first time it may yield): the
     * two atomic operations would otherwise be on every short wait of a MULTIPLE program. */
    bool counted = false;
    int idle = 0;
    WaitGate gate;
    while (!done()) {
        if (gate.pass() != 0) {
            idle = 0; /* only a wait that lasts (a peer without its CPU) yields, not a peer a step behind */
        } else if (++idle >= idle_spins) {
            idle = 0;
            gate.release();
            if (!counted && opal::using_threads()) {
                waiting_threads.fetch_add(1, std::memory_order_relaxed);
                counted = true;
            }
            yield_cpu();
        }
    }
    if (counted) {
        waiting_threads.fetch_sub(1, std::memory_order_relaxed);
    }
}

/* A message that matches (source, tag) in comm, without receiving it. */
bool probe(Communicator *comm, int source, int tag, MPI_Status *status);

/* Cancels a receive not matched yet; false when it is too late (it completes normally). */
bool cancel_recv(Request *r);

/* A message taken out of matching by MPI_Mprobe/MPI_Improbe (MPI_Message is its handle, see
 * runtime/user_handle.h), received later by MPI_Mrecv/MPI_Imrecv. */
struct Message;
Message *mprobe(Communicator *comm, int source, int tag, MPI_Status *status);
MPI_Message message_handle(const Message *message);
/* The message of a handle not received yet, or nullptr (a received one's handle, a copy of it). */
Message *message_lookup(MPI_Message handle);
/* Receives the message into r (a receive request made but not started); frees the message. */
void start_mrecv(Request *r, Message *message);

/* r completes when its children do (MPI_Isendrecv: a send and a receive); r's status is the
 * receive's. */
void adopt(Request *parent, Request *child);

/* Completes r with an error (and its compound parent, if any). */
void fail_request(Request *r, int code);

} // namespace tessera::ompi::pml

#endif
