/*
 * translator base: the per-thread "inside the runtime" depth (docs/translator.md). Plain C,
 * because the generated bindings (mpi_bindings.c, through tessera_mpi_dispatch.h) read it on every call.
 *
 * A thunk raises the depth around its call into the runtime's library; while it is raised, an MPI call
 * that comes back into our bindings comes from the runtime itself (ROMIO calling MPI_Allreduce), with
 * runtime-side arguments, and the binding passes it untouched to the runtime's own function (the direct
 * table, base.h). A trampoline that runs an application callback on the runtime's behalf suspends the
 * depth (the callback's MPI calls carry application handles) and resumes it afterwards.
 *
 * The depth lives in libmpi with the initial-exec TLS model: a read is one load from the thread pointer,
 * no __tls_get_addr call, from libmpi and from a translator DSO alike.
 */
#ifndef TESSERA_FRAMEWORKS_TRANSLATOR_BASE_REENTRY_H
#define TESSERA_FRAMEWORKS_TRANSLATOR_BASE_REENTRY_H

#ifdef __cplusplus
extern "C" {
#endif

/* Defined in libmpi (translator_base_reentry.cpp). Use the accessors below, not the variable. */
extern __thread int tessera_translator_depth __attribute__((tls_model("initial-exec")));

/* Before calling into the runtime's library. Nestable. */
static inline void tessera_translator_enter(void)
{
    ++tessera_translator_depth;
}

/* After the runtime's function returned. */
static inline void tessera_translator_leave(void)
{
    --tessera_translator_depth;
}

/* Non-zero while this thread runs inside the runtime's library (and not in an application callback). */
static inline int tessera_translator_inside(void)
{
    return tessera_translator_depth != 0;
}

/* For a callback trampoline: the depth to give back to tessera_translator_resume, and depth 0 while the
 * application's callback runs. */
static inline int tessera_translator_suspend(void)
{
    int saved = tessera_translator_depth;
    tessera_translator_depth = 0;
    return saved;
}

static inline void tessera_translator_resume(int saved)
{
    tessera_translator_depth = saved;
}

#ifdef __cplusplus
}
#endif

#endif
