/* The proc header as C components see it: compiled by the C compiler, called from proc_test.cpp. */
#include <stddef.h>

#include "ompi/proc/proc.h"

size_t proc_c_sizeof_proc(void) { return sizeof(tessera_proc_t); }

size_t proc_c_offsetof_endpoints(void) { return offsetof(tessera_proc_t, proc_endpoint); }

void *proc_c_endpoint_get(const tessera_proc_t *proc, int tag) { return tessera_proc_endpoint_get(proc, tag); }

int proc_c_endpoint_set(tessera_proc_t *proc, int tag, void *endpoint)
{
    return tessera_proc_endpoint_set(proc, tag, endpoint);
}
