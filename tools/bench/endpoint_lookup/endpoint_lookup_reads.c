/* The three lookups, out of line for the disassembly (the benchmark loops inline their own copies). */
#include <stddef.h>

#include "endpoint_lookup_plain.h"

_Static_assert(sizeof(struct bench_plain_proc) == sizeof(tessera_proc_t), "same size as the proc");
_Static_assert(offsetof(struct bench_plain_proc, proc_bml) ==
                   offsetof(tessera_proc_t, proc_endpoint) + BENCH_STATIC_TAG * sizeof(void *),
               "the named field sits where the slot does");

/* noipa: GCC would otherwise fold the first two, being identical, into one function. */
#if defined(__clang__)
#define BENCH_OUT_OF_LINE __attribute__((noinline))
#else
#define BENCH_OUT_OF_LINE __attribute__((noipa))
#endif

BENCH_OUT_OF_LINE void *endpoint_lookup_read_plain(const struct bench_plain_proc *proc)
{
    return proc->proc_bml;
}

BENCH_OUT_OF_LINE void *endpoint_lookup_read_static(const tessera_proc_t *proc)
{
    return proc->proc_endpoint[BENCH_STATIC_TAG];
}

BENCH_OUT_OF_LINE void *endpoint_lookup_read_dynamic(const tessera_proc_t *proc, int tag)
{
    return tessera_proc_endpoint_get(proc, tag);
}
