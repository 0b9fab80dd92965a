/*
 * Two lookups the RFC says must be the same instructions: reading a named field of a plain struct and
 * reading a compile-time endpoint slot at the same offset. Kept out of line so that their code can be
 * compared byte for byte (proc_test.cpp) and seen with objdump -d.
 */
#include <stddef.h>

#include "ompi/proc/proc.h"

#ifdef TESSERA_ENDPOINT_TAG_BTL
#define FIELD_READ_TAG TESSERA_ENDPOINT_TAG_BTL
#else
#define FIELD_READ_TAG 0 /* a slot exists even when no tag is claimed */
#endif

/* The proc record as it was before the RFC, with the endpoint as a named field. */
struct field_read_plain_proc {
    tessera_proc_name_t proc_name;
    uint32_t proc_flags;
    uint32_t proc_reserved;
    const char *proc_hostname;
#if FIELD_READ_TAG > 0
    void *proc_before[FIELD_READ_TAG];
#endif
    void *proc_bml;
};

_Static_assert(offsetof(struct field_read_plain_proc, proc_bml) ==
                   offsetof(tessera_proc_t, proc_endpoint) + FIELD_READ_TAG * sizeof(void *),
               "the plain field and the slot must sit at the same offset");

/* noipa also keeps GCC from folding the two identical functions into one (-fipa-icf). */
#if defined(__clang__)
#define FIELD_READ_OUT_OF_LINE __attribute__((noinline))
#else
#define FIELD_READ_OUT_OF_LINE __attribute__((noipa))
#endif

FIELD_READ_OUT_OF_LINE void *field_read_plain(const void *proc)
{
    return ((const struct field_read_plain_proc *)proc)->proc_bml;
}

FIELD_READ_OUT_OF_LINE void *field_read_slot(const void *proc)
{
    return ((const tessera_proc_t *)proc)->proc_endpoint[FIELD_READ_TAG];
}

int field_read_tag(void) { return FIELD_READ_TAG; }
