/*
 * The proc record: one per peer process, with its endpoint slots (docs/architecture.md, "Processes
 * and endpoints": the dynamic slot Open MPI's 2013 proc_endpoint proposal described). Plain C: components of every
 * framework, built in or loaded from a DSO, read it.
 *
 * proc_endpoint[] has one slot per compile-time tag (claimed in CMake with tessera_endpoint_tag(NAME),
 * generated into endpoint_tags.h), so a built-in component's lookup
 *
 *     proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL]
 *
 * is one load at a constant offset, the same instructions as reading a named struct field. When the
 * build keeps dynamic endpoints (TESSERA_DYNAMIC_ENDPOINTS=ON), one more slot,
 * proc_endpoint[TESSERA_ENDPOINT_DYNAMIC_SLOT], points to the slots of tags that DSO components
 * registered at run time (endpoint_registry.h). That array is allocated on the first non-NULL store
 * to a dynamic tag and grown when a tag registered later is stored, so a process without such
 * components pays one NULL pointer per proc. Its layout, private to the accessors below:
 *
 *     dyn[0]      number of dynamic slots that follow, as a uintptr_t
 *     dyn[1 + i]  endpoint of tag TESSERA_ENDPOINT_TAG_STATIC_COUNT + i
 *
 * Endpoint slots are not synchronised (as before the RFC): the component that owns a tag stores it
 * during add_procs, before other threads read it.
 */
#ifndef TESSERA_OMPI_PROC_PROC_H
#define TESSERA_OMPI_PROC_PROC_H

#include <stddef.h>
#include <stdint.h>

#include "mca/constants.h"
#include "ompi/proc/endpoint_tags.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A process name: the job it belongs to and its rank within that job. */
typedef struct tessera_proc_name {
    uint32_t jobid;
    uint32_t rank;
} tessera_proc_name_t;

/* Locality flags (tessera_proc_t.proc_flags): what the peer shares with this process. */
#define TESSERA_PROC_ON_NODE    0x0001u /* same host */
#define TESSERA_PROC_ON_PACKAGE 0x0002u /* same processor package (socket) */
#define TESSERA_PROC_ON_NUMA    0x0004u /* same NUMA node */
#define TESSERA_PROC_ON_L3CACHE 0x0008u
#define TESSERA_PROC_ON_L2CACHE 0x0010u
#define TESSERA_PROC_ON_CORE    0x0020u
#define TESSERA_PROC_IS_SELF    0x8000u /* this process */

typedef struct tessera_proc {
    tessera_proc_name_t proc_name;
    uint32_t proc_flags;
    uint32_t proc_reserved; /* explicit, so the layout is the same for every compiler */
    const char *proc_hostname; /* owned by the proc; NULL when unknown */
    void *proc_endpoint[TESSERA_ENDPOINT_SLOTS];
} tessera_proc_t;

/* Static lookup by tag name: a compile error when no component claimed NAME. */
#define TESSERA_PROC_ENDPOINT(proc, NAME) ((proc)->proc_endpoint[TESSERA_ENDPOINT_TAG_##NAME])

/*
 * A proc outside any table (the C++ side keeps its procs in tessera::ompi::ProcTable). `hostname` is
 * copied and may be NULL. Returns NULL when out of memory.
 */
tessera_proc_t *tessera_proc_create(tessera_proc_name_t name, const char *hostname, uint32_t flags);

/* Frees the proc, its hostname and its dynamic slots (not what the endpoints point to). NULL is ok. */
void tessera_proc_destroy(tessera_proc_t *proc);

/*
 * Stores an endpoint under a dynamic tag, allocating or growing the proc's dynamic slots.
 * TESSERA_ERR_BAD_PARAM: `proc` is NULL or `tag` is not a tag handed out by the registry;
 * TESSERA_ERR_NOT_SUPPORTED: built with TESSERA_DYNAMIC_ENDPOINTS=OFF;
 * TESSERA_ERR_OUT_OF_RESOURCE: out of memory (the proc is unchanged).
 * Storing NULL to a slot that was never allocated allocates nothing.
 */
int tessera_proc_endpoint_set_dynamic(tessera_proc_t *proc, int tag, void *endpoint);

static inline int tessera_proc_name_equal(tessera_proc_name_t a, tessera_proc_name_t b)
{
    return a.jobid == b.jobid && a.rank == b.rank;
}

/* The endpoint stored under any tag, static or dynamic; NULL when none was stored. */
static inline void *tessera_proc_endpoint_get(const tessera_proc_t *proc, int tag)
{
#if TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0
    if ((unsigned)tag < (unsigned)TESSERA_ENDPOINT_TAG_STATIC_COUNT) {
        return proc->proc_endpoint[tag];
    }
#endif
#if TESSERA_DYNAMIC_ENDPOINTS
    {
        void *const *dyn = (void *const *)proc->proc_endpoint[TESSERA_ENDPOINT_DYNAMIC_SLOT];
        /* A negative tag wraps to a huge index and fails the bound check like any unknown tag. */
        uintptr_t i = (uintptr_t)(unsigned)tag - (uintptr_t)TESSERA_ENDPOINT_TAG_STATIC_COUNT;
        if (dyn != NULL && i < (uintptr_t)dyn[0]) {
            return dyn[1 + i];
        }
    }
#endif
    return NULL;
}

/* Stores an endpoint under any tag; see tessera_proc_endpoint_set_dynamic() for the errors. */
static inline int tessera_proc_endpoint_set(tessera_proc_t *proc, int tag, void *endpoint)
{
#if TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0
    if (proc != NULL && (unsigned)tag < (unsigned)TESSERA_ENDPOINT_TAG_STATIC_COUNT) {
        proc->proc_endpoint[tag] = endpoint;
        return TESSERA_SUCCESS;
    }
#endif
    return tessera_proc_endpoint_set_dynamic(proc, tag, endpoint);
}

/* Number of dynamic slots this proc has allocated (0 until the first dynamic store). */
static inline size_t tessera_proc_endpoint_dynamic_slots(const tessera_proc_t *proc)
{
#if TESSERA_DYNAMIC_ENDPOINTS
    void *const *dyn = (void *const *)proc->proc_endpoint[TESSERA_ENDPOINT_DYNAMIC_SLOT];
    return dyn == NULL ? 0 : (size_t)(uintptr_t)dyn[0];
#else
    (void)proc;
    return 0;
#endif
}

#ifdef __cplusplus
}
#endif

#endif
