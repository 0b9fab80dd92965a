/*
 * trace base: the framework declaration, the active modules, and the calls the bindings make for each
 * event. With no module selected each call is one load and one not-taken branch.
 */
#ifndef TESSERA_FRAMEWORKS_TRACE_BASE_BASE_H
#define TESSERA_FRAMEWORKS_TRACE_BASE_BASE_H

#include "frameworks/trace/trace.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_trace_base_framework;

/* The active modules; set by mca_trace_base_select, cleared by mca_trace_base_finalize. */
extern size_t mca_trace_base_module_count;
extern mca_trace_base_module_t *const *mca_trace_base_modules;

/* Which hooks at least one active module has: the bindings skip the work behind an event nobody
 * listens to (a status to read, a request to remember). Set and cleared with the modules. */
extern uint32_t mca_trace_base_hook_mask;
#define MCA_TRACE_HOOK_COMM_CREATE (1u << 0)
#define MCA_TRACE_HOOK_SEND (1u << 1)
#define MCA_TRACE_HOOK_ISEND (1u << 2)
#define MCA_TRACE_HOOK_ISEND_COMPLETE (1u << 3)
#define MCA_TRACE_HOOK_IRECV_REQUEST (1u << 4)
#define MCA_TRACE_HOOK_IRECV (1u << 5)
#define MCA_TRACE_HOOK_RECV (1u << 6)
#define MCA_TRACE_HOOK_REQUEST_CANCELLED (1u << 7)
#define MCA_TRACE_HOOK_COLLECTIVE (1u << 8) /* collective_begin or collective_end */
#define MCA_TRACE_HOOK_REGION (1u << 9)     /* region_enter or region_leave */

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

/* Calls hook `name` of every active module that has it, with the arguments after the module. */
#define MCA_TRACE_EVENT(name, ...)                                                                     \
    do {                                                                                               \
        if (MCA_TRACE_UNLIKELY(mca_trace_base_module_count != 0)) {                                    \
            for (size_t trace_i_ = 0; trace_i_ < mca_trace_base_module_count; ++trace_i_) {            \
                mca_trace_base_module_t *trace_m_ = mca_trace_base_modules[trace_i_];                  \
                if (trace_m_->hooks.name != NULL) {                                                    \
                    trace_m_->hooks.name(trace_m_, __VA_ARGS__);                                       \
                }                                                                                      \
            }                                                                                          \
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
        for (size_t i = 0; i < mca_trace_base_module_count; ++i) {
            mca_trace_base_module_t *m = mca_trace_base_modules[i];
            if (m->hooks.collective_begin != NULL) {
                m->hooks.collective_begin(m);
            }
        }
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
