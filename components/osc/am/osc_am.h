/*
 * osc am: a window's one-sided operations as messages over the window's private communicator, applied
 * by the target (docs/osc.md). A fence epoch: an operation sends its target a request at once (a
 * RequestHeader and the target datatype's normalized description), a Put's or Accumulate's data after
 * it, and a Get posts the receive of its reply; the fence that closes the epoch learns how many requests
 * each process was sent, serves them in arrival order, and completes this process's own sends and
 * receives.
 */
#ifndef TESSERA_COMPONENTS_OSC_AM_OSC_AM_H
#define TESSERA_COMPONENTS_OSC_AM_OSC_AM_H

#include <cstdint>
#include <vector>

#include <mpi.h>

#include "frameworks/dte/dte.h"
#include "frameworks/osc/osc.h"
#include "ompi/win/win_osc.h"

extern "C" mca_osc_base_component_t mca_osc_am_component;

namespace tessera::ompi::osc_am {

extern int priority;

enum class Kind : std::uint32_t { Put = 1, Get, Accumulate };

/* What travels ahead of an operation's data: the target finds its bytes from it alone. */
struct RequestHeader {
    Kind kind;
    std::uint32_t elems;      /* description elements that follow; 0: contiguous, `bytes` at disp_bytes */
    std::int64_t disp_bytes;  /* target_disp * the target's displacement unit */
    std::uint64_t count;      /* target elements */
    std::int64_t extent;      /* of the target datatype */
    std::uint64_t bytes;      /* packed bytes the operation moves */
    std::uint64_t basic;      /* Accumulate: handle of the predefined datatype of the elements */
    std::uint64_t op;         /* Accumulate: handle of the predefined op */
};

/* One window's module and its state. */
struct Module {
    mca_osc_base_module_t base{}; /* first: the framework's pointer is this struct's */
    Window *w = nullptr;

    /* Fence epochs: open between a fence without MPI_MODE_NOSUCCEED and the next fence. */
    bool epoch_open = false;
    std::uint32_t epoch = 0;          /* fences so far: tags tell one epoch's requests from the next's */
    std::vector<int> requests_to;     /* requests sent to each target in this epoch */
    std::vector<MPI_Request> pending; /* this process's sends and Get receives of this epoch */
    std::vector<std::vector<char>> buffers; /* what those sends send, until the fence (moving keeps the bytes) */
};

inline Module &of(mca_osc_base_module_t *m)
{
    return *reinterpret_cast<Module *>(m);
}

mca_osc_base_module_t *module_create(Window *w);

/* osc_am_fence.cpp: the module's entries for fence epochs. */
int put(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *win, mca_osc_base_module_t *module);
int get(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *win, mca_osc_base_module_t *module);
int accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
               size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_win *win,
               mca_osc_base_module_t *module);
int fence(int assert, tessera_win *win, mca_osc_base_module_t *module);
int free_window(tessera_win *win, mca_osc_base_module_t *module);

/* osc_am_target.cpp: applies one request from `source` (its header and description in `msg`); a Get's
 * reply is sent with `replies` keeping the request and its buffer until the fence completes them. */
int serve(Module &m, const std::vector<char> &msg, int source, std::vector<MPI_Request> &replies,
          std::vector<std::vector<char>> &reply_data);

/* Tags on the window's private communicator. Request and data tags alternate with the epoch. */
inline int request_tag(std::uint32_t epoch) { return 1 + static_cast<int>(epoch & 1u); }
inline int data_tag(std::uint32_t epoch) { return 3 + static_cast<int>(epoch & 1u); }
constexpr int kReplyTag = 5;

} // namespace tessera::ompi::osc_am

#endif
