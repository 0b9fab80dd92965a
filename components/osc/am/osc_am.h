/*
 * osc am: a window's one-sided operations as messages over the window's private communicator, applied
 * by the target from its progress hook (docs/osc.md). Every operation sends its target a request header
 * (Ctl) and, when it carries any, a payload: the target datatype's normalized description, then the
 * origin data packed. The target keeps a receive posted for the next header of each peer, applies what
 * arrives in arrival order (one origin's operations in the order it made them) from the progress hook,
 * and answers the operations that return something (Get, Get_accumulate, Fetch_and_op,
 * Compare_and_swap, and the acknowledgements of lock, flush and unlock) on a reply tag, in the same
 * order, so that the origin's receives, posted in the order it sent its requests, match them.
 *
 * Fence epochs count the requests each process sent to each target (a reduce-scatter at the fence);
 * the target's fence waits until its hook has applied that many of the epoch. Passive target: a lock
 * queue per window at the target (shared and exclusive), granted by acknowledgement; flush and unlock
 * are acknowledged once everything the origin sent before them was applied.
 */
#ifndef TESSERA_COMPONENTS_OSC_AM_OSC_AM_H
#define TESSERA_COMPONENTS_OSC_AM_OSC_AM_H

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <mpi.h>

#include "frameworks/dte/dte.h"
#include "frameworks/osc/osc.h"
#include "ompi/pml/pml_internal.h"
#include "ompi/pml/pml_request.h"
#include "ompi/win/win_osc.h"
#include "opal/threads.h"

extern "C" mca_osc_base_component_t mca_osc_am_component;

namespace tessera::ompi::osc_am {

extern int priority;

/* Post: a target's MPI_Win_post telling an origin of its group that its exposure epoch began (sent by
 * the target to the origin, on the same channel). Complete: an origin's MPI_Win_complete, after its
 * operations to that target. */
enum class Kind : std::uint32_t {
    Put = 1,
    Get,
    Accumulate,
    GetAccumulate,
    CompareAndSwap,
    Lock,
    Unlock,
    Flush,
    Post,
    Complete
};

/* A request's header: the target finds its bytes from it and the payload's description alone. */
struct Ctl {
    Kind kind;
    std::uint32_t elems;      /* description elements at the payload's start; 0: contiguous at disp_bytes */
    std::int64_t disp_bytes;  /* target_disp * the target's displacement unit (+ true lb when contiguous) */
    std::uint64_t count;      /* target elements; Lock: MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE */
    std::int64_t extent;      /* of the target datatype */
    std::uint64_t bytes;      /* packed bytes of the target side */
    std::uint64_t basic;      /* accumulates: handle of the predefined datatype of the elements */
    std::uint64_t op;         /* accumulates: handle of the predefined op */
    std::uint32_t payload;    /* bytes of the payload message that follows (0: none) */
    std::uint32_t fence;      /* 1 + the fence epoch's parity when sent in a fence epoch, else 0 */
};

/* A send or receive of this process still running, with the bytes a send reads. A reply receive says
 * how the target refused an operation outside every region of a dynamic window: an acknowledgement's
 * byte counts the refusals since the last one, a data reply arrives empty. */
struct Pending {
    pml::Request *r = nullptr;
    std::vector<char> bytes;
    enum class Role : std::uint8_t { Send, Ack, Data } role = Role::Send;
    std::size_t expect = 0; /* Data: the bytes the reply carries when the target applied the operation */
};

/* A region attached to a dynamic window. */
struct Region {
    std::uintptr_t start = 0;
    std::size_t bytes = 0;
};

/* The target's side of one peer: the posted receive of its next header, then of that header's payload. */
struct Listener {
    pml::Request *ctl_recv = nullptr;
    Ctl ctl{};
    pml::Request *payload_recv = nullptr;
    std::vector<char> payload;
    bool held = false; /* `ctl` (and its payload) arrived and waits to be applied */
};

/* A request-based operation whose data has not arrived: its MPI request completes when `reply` does
 * (osc_am_request.cpp). */
struct Tracked {
    pml::Request *user = nullptr;
    pml::Request *reply = nullptr; /* in the module's `out` list of `target`, released by complete_target */
    int target = 0;
    std::size_t expect = 0; /* the reply's bytes (fewer: a dynamic window's target refused the operation) */
};

/* One window's module and its state. */
struct Module {
    mca_osc_base_module_t base{}; /* first: the framework's pointer is this struct's */
    Window *w = nullptr;
    Communicator *comm = nullptr; /* w->comm's object */

    /* Origin side (the application's threads, one at a time: origin_lock). */
    opal::Mutex origin_lock;
    bool epoch_open = false;          /* fence epoch: between a fence without NOSUCCEED and the next */
    std::uint32_t epoch = 0;          /* fences so far */
    std::vector<int> requests_to;     /* requests sent to each target in this fence epoch */
    std::vector<int> lock_type;       /* per target: 0, MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE held */
    std::vector<bool> nocheck;        /* per target: the lock was taken with MPI_MODE_NOCHECK (not asked) */
    bool lock_all = false;
    std::vector<std::vector<Pending>> out; /* per target: sends and reply receives not completed */
    std::vector<bool> unanswered; /* per target: a Put or Accumulate (no reply) sent since the last completion */

    /* Rget and Rget_accumulate in flight: finished by the hook when their reply arrived, or by
     * complete_target before it releases the reply's receive. */
    opal::Mutex tracked_lock;
    std::vector<Tracked> tracked;
    std::atomic<std::size_t> tracked_count{0};

    /* PSCW (osc_am_pscw.cpp). Access epoch (origin side): */
    bool access_open = false;         /* between MPI_Win_start and MPI_Win_complete */
    std::vector<int> access_group;    /* the window ranks of its group */
    std::vector<char> in_access;      /* per target: in that group */
    std::vector<char> post_seen;      /* per target: its post was taken for this epoch (or NOCHECK) */
    /* Exposure epoch (target side): */
    bool exposure_open = false;       /* between MPI_Win_post and MPI_Win_wait/test */
    int exposure_origins = 0;         /* the size of the post's group: Complete requests to wait for */
    std::vector<Pending> notices;     /* Post notices being sent */

    /* Target side (the progress hook, under the osc registry's lock). */
    std::vector<Listener> from;      /* per peer */
    std::vector<Pending> replies;    /* replies being sent */
    int exclusive = -1;              /* the rank holding the exclusive lock, or -1 */
    int shared = 0;                  /* shared locks held */
    std::deque<std::pair<int, int>> waiting; /* lock requests (rank, type) not granted yet, in order */
    bool dynamic = false;            /* MPI_Win_create_dynamic: target displacements are addresses */
    std::vector<Region> regions;     /* dynamic: attached, by start (changed under the hook's lock) */
    std::vector<std::uint32_t> refused; /* per peer: operations outside every region, not yet told */
    std::atomic<std::uint64_t> applied[2] = {0, 0}; /* fence requests applied, by epoch parity */
    std::atomic<std::uint32_t> exposure{0}; /* `epoch` as the hook reads it: fences this process completed */
    std::unique_ptr<std::atomic<int>[]> posts_from; /* per peer: Post notices received and not yet taken */
    std::atomic<int> completes{0};                /* Complete requests received and not yet taken */
};

inline Module &of(mca_osc_base_module_t *m)
{
    return *reinterpret_cast<Module *>(m);
}

/* Tags on the window's private communicator, internal (no application receive can match them; the
 * window's collectives use the collective range). */
inline constexpr int kTagCtl = pml::kTagOscFirst;
inline constexpr int kTagPayload = pml::kTagOscFirst - 1;
inline constexpr int kTagReply = pml::kTagOscFirst - 2;

/* osc_am_module.cpp */
mca_osc_base_module_t *module_create(Window *w);

/* osc_am_target.cpp: the bytes of the target's window that a request names, packed and back. */
void target_gather(const Ctl &c, const mca_dte_elem_t *desc, const char *at, char *out);
void target_scatter(const Ctl &c, const mca_dte_elem_t *desc, char *at, const char *in);

/* osc_am_dynamic.cpp: MPI_Win_attach and MPI_Win_detach; whether a request's bytes lie in a region. */
int attach(void *base, size_t size, tessera_win *win, mca_osc_base_module_t *module);
int detach(const void *base, tessera_win *win, mca_osc_base_module_t *module);
bool in_region(const Module &m, const Ctl &c, const mca_dte_elem_t *desc);

/* osc_am_target.cpp: the lowest and one past the highest byte offset (from disp_bytes) a request names. */
void target_span(const Ctl &c, const mca_dte_elem_t *desc, std::ptrdiff_t *lo, std::ptrdiff_t *hi);

/* osc_am_listen.cpp: the target's side. */
/* Runs `change` under the lock the hook applies requests under (attach and detach of a region). */
void with_hook_lock(void (*change)(Module &, void *), Module &m, void *arg);
/* Posts the first header receive from every peer and puts the module in the hook's list. */
int listen_start(Module &m);
/* Takes the module out of the hook's list and cancels its receives (after the window's last barrier). */
void listen_stop(Module &m);
/* Progresses until the hook has applied `expected` fence requests of the epoch of parity `parity`. */
void wait_applied(Module &m, unsigned parity, std::uint64_t expected);

/* osc_am_origin.cpp: the module's entries. */
int put(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *win, mca_osc_base_module_t *module);
int get(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *win, mca_osc_base_module_t *module);
int accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
               size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_win *win,
               mca_osc_base_module_t *module);
int get_accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, void *result, size_t result_count,
                   mca_osc_dt_t result_dt, int target, ptrdiff_t target_disp, size_t target_count,
                   mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_win *win, mca_osc_base_module_t *module);
int fetch_and_op(const void *origin, void *result, mca_osc_dt_t dt, int target, ptrdiff_t target_disp,
                 mca_osc_op_t op, tessera_win *win, mca_osc_base_module_t *module);
int compare_and_swap(const void *origin, const void *compare, void *result, mca_osc_dt_t dt, int target,
                     ptrdiff_t target_disp, tessera_win *win, mca_osc_base_module_t *module);

/* osc_am_request.cpp: MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate (12.3.5). */
int rput(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
         size_t target_count, mca_osc_dt_t target_dt, tessera_request **request, tessera_win *win,
         mca_osc_base_module_t *module);
int rget(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
         size_t target_count, mca_osc_dt_t target_dt, tessera_request **request, tessera_win *win,
         mca_osc_base_module_t *module);
int raccumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
                size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_request **request,
                tessera_win *win, mca_osc_base_module_t *module);
int rget_accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, void *result,
                    size_t result_count, mca_osc_dt_t result_dt, int target, ptrdiff_t target_disp,
                    size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_request **request,
                    tessera_win *win, mca_osc_base_module_t *module);
/* Finishes the tracked requests whose reply completed (`target` < 0), or every one of `target`. */
void finish_tracked(Module &m, int target);

/* osc_am_pscw.cpp: post-start-complete-wait (MPI-4.1 12.5.2). */
int start(tessera_group *group, int assert, tessera_win *win, mca_osc_base_module_t *module);
int complete(tessera_win *win, mca_osc_base_module_t *module);
int post(tessera_group *group, int assert, tessera_win *win, mca_osc_base_module_t *module);
int wait(tessera_win *win, mca_osc_base_module_t *module);
int test(int *flag, tessera_win *win, mca_osc_base_module_t *module);
/* An operation to `target` in the access epoch: waits for its post the first time (MPI_Win_start does
 * not block: MPI-4.1 12.5.2 lets it, but a process that is origin and target at once must post first). */
void await_post(Module &m, int target);

/* osc_am_sync.cpp */
int fence(int assert, tessera_win *win, mca_osc_base_module_t *module);
int lock(int lock_type, int target, int assert, tessera_win *win, mca_osc_base_module_t *module);
int unlock(int target, tessera_win *win, mca_osc_base_module_t *module);
int lock_all(int assert, tessera_win *win, mca_osc_base_module_t *module);
int unlock_all(tessera_win *win, mca_osc_base_module_t *module);
int flush(int target, tessera_win *win, mca_osc_base_module_t *module);
int flush_all(tessera_win *win, mca_osc_base_module_t *module);
int flush_local(int target, tessera_win *win, mca_osc_base_module_t *module);
int flush_local_all(tessera_win *win, mca_osc_base_module_t *module);
int win_sync(tessera_win *win, mca_osc_base_module_t *module);
int free_window(tessera_win *win, mca_osc_base_module_t *module);
/* A request without data whose acknowledgement the origin waits for (lock grant, flush, unlock). */
int send_control(Module &m, int target, Kind kind, std::uint64_t count);
/* Completes what this process sent to `target` and the replies it waits for from it. */
int complete_target(Module &m, int target);
/* Sends a request header (and payload) to `target`; `reply`/`reply_count`/`reply_type`: where the answer
 * goes, if the request has one (its receive is posted first). */
int send_ctl(Module &m, int target, const Ctl &c, std::vector<char> payload, void *reply, std::size_t reply_count,
             const Datatype *reply_type);

} // namespace tessera::ompi::osc_am

#endif
