/*
 * trace base: which hooks the active modules have, as bits. Plain C, free of the rest of the framework:
 * the generated bindings (mpi_bindings.c) test it before each call, so that a call none of whose
 * events anybody listens to goes straight to the dispatch table (with `monitor` alone, MPI_Recv and
 * MPI_Comm_rank cost what they cost untraced).
 */
#ifndef TESSERA_FRAMEWORKS_TRACE_BASE_HOOK_MASK_H
#define TESSERA_FRAMEWORKS_TRACE_BASE_HOOK_MASK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Set and cleared with the active modules (base.h); 0 while none is. */
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
#define MCA_TRACE_HOOK_SEND_DONE (1u << 10)
/* Every hook a request's records serve (nonblocking and persistent operations, their completion). */
#define MCA_TRACE_HOOK_REQUESTS                                                                          \
    (MCA_TRACE_HOOK_ISEND | MCA_TRACE_HOOK_ISEND_COMPLETE | MCA_TRACE_HOOK_IRECV_REQUEST | MCA_TRACE_HOOK_IRECV | \
     MCA_TRACE_HOOK_REQUEST_CANCELLED | MCA_TRACE_HOOK_COLLECTIVE)
#define MCA_TRACE_HOOK_ALL 0xffffffffu

#ifdef __cplusplus
}
#endif

#endif
