/*
 * osc sm: the windows whose processes all share this host (docs/osc.md, "Component sm"). The window's
 * memory is one shared segment (an unnamed memfd of the window's rank 0, opened by the others through
 * /proc/<pid>/fd/<n> as btl shm's and coll sm's segments are: nothing is ever left in /dev/shm): a
 * header, a line of control words per process (its passive-target lock, its accumulate lock, its PSCW
 * counters), then every process's part of the window. An origin reaches a target's part directly:
 * put and get are copies (through the dte for derived datatypes), fetch-and-op and compare-and-swap on
 * integer elements are processor atomics, other accumulates run under the target's accumulate lock.
 * Synchronisation needs nothing from the target: a lock is a counter in its control line, fence a
 * barrier with memory fences, flush and sync memory fences. The memory model is MPI_WIN_UNIFIED.
 */
#ifndef TESSERA_COMPONENTS_OSC_SM_OSC_SM_H
#define TESSERA_COMPONENTS_OSC_SM_OSC_SM_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "frameworks/osc/osc.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/win/win_osc.h"
#include "opal/threads.h"
#include "opal/shared_file.h"

extern "C" mca_osc_base_component_t mca_osc_sm_component;

namespace tessera::ompi::osc_sm {

/* Defaults and ranges are in the rows of register_params (osc_sm_component.cpp). */
struct Params {
    int priority;                   /* osc_sm_priority: above am's */
    std::size_t noncontig_alignment; /* osc_sm_noncontig_alignment: where each part starts when not contiguous */
    int polls;                      /* osc_sm_polls: polls of a word between passes of the progress engine */
};
extern Params params;

/* Control words sit on lines of their own (two, against the adjacent-line prefetcher). */
constexpr std::size_t kLine = 128;

/* A process's passive-target lock: kExclusive while held exclusively, else the number of shared holders. */
constexpr std::uint64_t kExclusive = std::uint64_t{1} << 62;

/* The control lines of one process of the window (its part's target-side state). */
struct Control {
    alignas(kLine) std::atomic<std::uint64_t> lock{0};
    alignas(kLine) std::atomic<std::uint32_t> acc{0};   /* the accumulate lock of its part */
    alignas(kLine) std::atomic<std::uint64_t> completes{0}; /* MPI_Win_complete calls of origins targeting it */
};

/* The window's segment, as every process maps it. */
class Segment {
public:
    /* The window's rank 0: makes the segment for parts of `sizes` bytes (each part's start decided
     * here, written into the header for the others). */
    bool create(const std::vector<std::size_t> &sizes, bool contiguous, std::string *error);
    /* The others: map what rank 0's path() names and check it was made for `procs` processes. */
    bool attach(const std::string &path, int procs, std::string *error);
    std::string path() const { return file_.path(); }
    /* Once every process mapped it: nobody else can open it. */
    void forget() { file_.close_descriptor(); }

    Control &control(int rank) const { return controls_[rank]; }
    /* posted(o)[t]: how many times t exposed its part to o (MPI_Win_post with o in its group). */
    std::atomic<std::uint64_t> *posted(int origin) const { return posted_ + static_cast<std::size_t>(origin) * procs_; }
    char *part(int rank) const { return base_ + offsets_[rank]; }

private:
    void layout(int procs);

    opal::SharedFile file_;
    std::size_t procs_ = 0;
    Control *controls_ = nullptr;
    std::atomic<std::uint64_t> *posted_ = nullptr;
    const std::uint64_t *offsets_ = nullptr; /* of each part, from the segment's start */
    char *base_ = nullptr;
};

/* One window's module. */
struct Module {
    mca_osc_base_module_t base{}; /* first: the framework's pointer is this struct's */
    Window *w = nullptr;
    int rank = 0;
    int size = 0;
    Segment segment;
    std::vector<std::size_t> sizes; /* every process's part, bytes */
    std::vector<int> disp_units;

    /* This process's epochs (origin side). */
    bool fence_open = false;        /* between a fence without MPI_MODE_NOSUCCEED and the next */
    /* An operation was made since that fence (MPI_Win_start then errs); atomic, as the counts below:
     * several threads may make one-sided calls on one window at once (locks of different targets). */
    mutable std::atomic<bool> fence_used{false};
    std::vector<int> lock_type;     /* per target: 0, MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE */
    std::vector<bool> nocheck;      /* per target: taken with MPI_MODE_NOCHECK (no counter touched) */
    std::atomic<int> locks_held{0};
    bool lock_all = false;
    bool lock_all_nocheck = false;
    std::vector<int> access_group;  /* MPI_Win_start's targets (window ranks); empty: no access epoch */
    bool access_open = false;
    std::vector<std::uint64_t> posts_seen; /* per target: its posts this process consumed in MPI_Win_start */
    /* Exposure (target side). */
    bool exposure_open = false;
    std::uint64_t completes_expected = 0; /* MPI_Win_complete calls owed to this process's posts so far */
};

inline Module &of(mca_osc_base_module_t *m)
{
    return *reinterpret_cast<Module *>(m);
}

/* osc_sm_module.cpp */
mca_osc_base_module_t *module_create(Window *w);

/* Waits (spinning a few polls, then progressing and yielding like every wait) until done() holds. */
template <typename Done>
void spin_until(Done done)
{
    if (done()) {
        return;
    }
    pml::wait_until([&done] {
        for (int i = 0; i < params.polls; ++i) {
            if (done()) {
                return true;
            }
            opal::cpu_relax();
        }
        return false;
    });
}

/* osc_sm_ops.cpp: the operations. */
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

/* osc_sm_request.cpp: the request-based forms, complete when returned. */
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

/* osc_sm_sync.cpp: the synchronisations, free and shared_query. */
/* MPI_SUCCESS when an epoch of this process gives access to `target` (MPI_PROC_NULL: any epoch). */
int access(const Module &m, int target);
void wait_word(const std::atomic<std::uint64_t> &word, std::uint64_t at_least);
int fence(int assert, tessera_win *win, mca_osc_base_module_t *module);
int start(tessera_group *group, int assert, tessera_win *win, mca_osc_base_module_t *module);
int complete(tessera_win *win, mca_osc_base_module_t *module);
int post(tessera_group *group, int assert, tessera_win *win, mca_osc_base_module_t *module);
int wait(tessera_win *win, mca_osc_base_module_t *module);
int test(int *flag, tessera_win *win, mca_osc_base_module_t *module);
int lock(int lock_type, int target, int assert, tessera_win *win, mca_osc_base_module_t *module);
int unlock(int target, tessera_win *win, mca_osc_base_module_t *module);
int lock_all(int assert, tessera_win *win, mca_osc_base_module_t *module);
int unlock_all(tessera_win *win, mca_osc_base_module_t *module);
int flush(int target, tessera_win *win, mca_osc_base_module_t *module);
int flush_all(tessera_win *win, mca_osc_base_module_t *module);
int win_sync(tessera_win *win, mca_osc_base_module_t *module);
int free_window(tessera_win *win, mca_osc_base_module_t *module);
int shared_query(int rank, size_t *size, int *disp_unit, void **baseptr, tessera_win *win,
                 mca_osc_base_module_t *module);

} // namespace tessera::ompi::osc_sm

#endif
