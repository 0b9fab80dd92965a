/*
 * trace base: the framework declaration, the active modules, and the calls the bindings make for each
 * event. With no module selected each call is one load and one not-taken branch; with one, a direct
 * call of its hook (mca_trace_base_routes).
 */
#ifndef TESSERA_FRAMEWORKS_TRACE_BASE_BASE_H
#define TESSERA_FRAMEWORKS_TRACE_BASE_BASE_H

#include "frameworks/trace/base/hook_mask.h"
#include "frameworks/trace/trace.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_trace_base_framework;

/* The active modules; set by mca_trace_base_select, cleared by mca_trace_base_finalize. */
extern size_t mca_trace_base_module_count;
extern mca_trace_base_module_t *const *mca_trace_base_modules;

/* Which hooks at least one active module has (hook_mask.h): the bindings skip the work behind an
 * event nobody listens to (a status to read, a request to remember), or the traced variant itself. */

/*
 * Starts tracing for this process: when the `trace` parameter is set, selects the open framework's
 * components (select_many) and creates their modules (trace_init). Tracing is opt-in: with the
 * parameter unset no module is created and TESSERA_SUCCESS is returned. TESSERA_ERR_EXISTS when
 * already selected.
 */
int mca_trace_base_select(const mca_trace_base_job_info_t *job);

/*
 * Stops tracing: no event reaches a module after this begins; each module writes its output. The
 * framework's close does it too. Returns the first module error (all modules are finalized anyway).
 */
int mca_trace_base_finalize(void);

#if defined(__GNUC__)
#define MCA_TRACE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define MCA_TRACE_UNLIKELY(x) (x)
#endif

/*
 * Where each event goes: per hook, the function to call and the module to give it. With one active
 * module having the hook (the common case) that is the module's own hook, called directly; with
 * several, a fan-out over them; with none, a function that does nothing. Set with the modules, before
 * mca_trace_base_module_count says they are active, and valid until the count is 0 again.
 */
#ifdef __cplusplus
#define MCA_TRACE_ROUTE(name)                                                                          \
    struct {                                                                                           \
        decltype(mca_trace_base_hooks_t::name) fn;                                                     \
        mca_trace_base_module_t *module;                                                               \
    } name
#else
#define MCA_TRACE_ROUTE(name)                                                                          \
    struct {                                                                                           \
        __typeof__(((mca_trace_base_hooks_t *)0)->name) fn;                                            \
        mca_trace_base_module_t *module;                                                               \
    } name
#endif
typedef struct mca_trace_base_routes {
    MCA_TRACE_ROUTE(comm_create);
    MCA_TRACE_ROUTE(send);
    MCA_TRACE_ROUTE(isend);
    MCA_TRACE_ROUTE(isend_complete);
    MCA_TRACE_ROUTE(irecv_request);
    MCA_TRACE_ROUTE(irecv);
    MCA_TRACE_ROUTE(recv);
    MCA_TRACE_ROUTE(request_cancelled);
    MCA_TRACE_ROUTE(collective_begin);
    MCA_TRACE_ROUTE(collective_end);
    MCA_TRACE_ROUTE(region_enter);
    MCA_TRACE_ROUTE(region_leave);
    MCA_TRACE_ROUTE(send_done);
} mca_trace_base_routes_t;
extern mca_trace_base_routes_t mca_trace_base_routes;

/* Calls hook `name` of every active module that has it, with the arguments after the module. */
#define MCA_TRACE_EVENT(name, ...)                                                                     \
    do {                                                                                               \
        if (MCA_TRACE_UNLIKELY(mca_trace_base_module_count != 0)) {                                    \
            mca_trace_base_routes.name.fn(mca_trace_base_routes.name.module, __VA_ARGS__);             \
        }                                                                                              \
    } while (0)

static inline void mca_trace_comm_create(uint64_t comm_id, const char *name, int size, int rank,
                                         const int *world_ranks)
{
    MCA_TRACE_EVENT(comm_create, comm_id, name, size, rank, world_ranks);
}
static inline void mca_trace_send(uint64_t comm_id, int peer, int tag, uint64_t bytes)
{
    MCA_TRACE_EVENT(send, comm_id, peer, tag, bytes);
}
static inline void mca_trace_send_done(uint64_t comm_id, int peer, int tag, uint64_t bytes)
{
    MCA_TRACE_EVENT(send_done, comm_id, peer, tag, bytes);
}
static inline void mca_trace_isend(uint64_t comm_id, int peer, int tag, uint64_t bytes, uint64_t request_id)
{
    MCA_TRACE_EVENT(isend, comm_id, peer, tag, bytes, request_id);
}
static inline void mca_trace_isend_complete(uint64_t request_id)
{
    MCA_TRACE_EVENT(isend_complete, request_id);
}
static inline void mca_trace_irecv_request(uint64_t request_id)
{
    MCA_TRACE_EVENT(irecv_request, request_id);
}
static inline void mca_trace_irecv(uint64_t comm_id, int peer, int tag, uint64_t bytes, uint64_t request_id)
{
    MCA_TRACE_EVENT(irecv, comm_id, peer, tag, bytes, request_id);
}
static inline void mca_trace_recv(uint64_t comm_id, int peer, int tag, uint64_t bytes)
{
    MCA_TRACE_EVENT(recv, comm_id, peer, tag, bytes);
}
static inline void mca_trace_request_cancelled(uint64_t request_id)
{
    MCA_TRACE_EVENT(request_cancelled, request_id);
}
static inline void mca_trace_collective_begin(void)
{
    if (MCA_TRACE_UNLIKELY(mca_trace_base_module_count != 0)) {
        mca_trace_base_routes.collective_begin.fn(mca_trace_base_routes.collective_begin.module);
    }
}
static inline void mca_trace_collective_end(mca_trace_base_collective_t op, uint64_t comm_id, int root,
                                            uint64_t bytes_sent, uint64_t bytes_received)
{
    MCA_TRACE_EVENT(collective_end, op, comm_id, root, bytes_sent, bytes_received);
}
static inline void mca_trace_region_enter(uint32_t function, const char *name)
{
    MCA_TRACE_EVENT(region_enter, function, name);
}
static inline void mca_trace_region_leave(uint32_t function, const char *name)
{
    MCA_TRACE_EVENT(region_leave, function, name);
}

#ifdef __cplusplus
}
#endif

#endif
