/*
 * The proc record as it was before the 2013 RFC: the same fields, but the endpoint the benchmark reads
 * is a named member (proc_bml) at the offset of the compile-time slot it is compared with.
 */
#ifndef TESSERA_BENCH_ENDPOINT_LOOKUP_PLAIN_H
#define TESSERA_BENCH_ENDPOINT_LOOKUP_PLAIN_H

#include "ompi/proc/proc.h"

#ifdef TESSERA_ENDPOINT_TAG_BTL
#define BENCH_STATIC_TAG TESSERA_ENDPOINT_TAG_BTL
#else
#define BENCH_STATIC_TAG 0 /* the first claimed tag, whatever its name */
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct bench_plain_proc {
    tessera_proc_name_t proc_name;
    uint32_t proc_flags;
    uint32_t proc_reserved;
    const char *proc_hostname;
#if BENCH_STATIC_TAG > 0
    void *proc_before[BENCH_STATIC_TAG];
#endif
    void *proc_bml;
#if TESSERA_ENDPOINT_SLOTS - BENCH_STATIC_TAG - 1 > 0
    void *proc_after[TESSERA_ENDPOINT_SLOTS - BENCH_STATIC_TAG - 1];
#endif
};

/* Out of line, so that `objdump -d endpoint_lookup_bench` shows what each lookup compiles to. */
void *endpoint_lookup_read_plain(const struct bench_plain_proc *proc);
void *endpoint_lookup_read_static(const tessera_proc_t *proc);
void *endpoint_lookup_read_dynamic(const tessera_proc_t *proc, int tag);

#ifdef __cplusplus
}
#endif

#endif
