/*
 * Endpoint tags handed out at run time (docs/architecture.md, "Processes and endpoints").
 *
 * Built-in components claim a compile-time tag with tessera_endpoint_tag(<NAME>) in their CMakeLists
 * and index proc_endpoint[TESSERA_ENDPOINT_TAG_<NAME>] directly. A component loaded from a DSO cannot
 * add a slot to a struct that is already compiled, so it asks here for a tag at open time and reaches
 * its endpoint data through tessera_proc_endpoint_get() / _set() (proc.h), which route tags at or
 * beyond TESSERA_ENDPOINT_TAG_STATIC_COUNT through the dynamic slot.
 *
 * Tags are local to the process: they never travel between processes, so no agreement is needed.
 * Names are C identifiers compared without regard to case (stored upper-case, as CMake does).
 */
#ifndef TESSERA_OMPI_PROC_ENDPOINT_REGISTRY_H
#define TESSERA_OMPI_PROC_ENDPOINT_REGISTRY_H

#include "mca/constants.h"
#include "ompi/proc/endpoint_tags.h"

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many tags can be registered at run time in one process. */
#define TESSERA_ENDPOINT_MAX_DYNAMIC_TAGS 1024

/*
 * The tag for `name`: the compile-time tag when a built-in component claimed that name (so a DSO
 * component shares the slot of its built-in siblings, e.g. "BTL"), the tag registered earlier under
 * that name, or a new tag TESSERA_ENDPOINT_TAG_STATIC_COUNT + n.
 * Errors (negative): TESSERA_ERR_BAD_PARAM when `name` is NULL or not an identifier;
 * TESSERA_ERR_NOT_SUPPORTED for a new name when the build has TESSERA_DYNAMIC_ENDPOINTS=OFF;
 * TESSERA_ERR_OUT_OF_RESOURCE past TESSERA_ENDPOINT_MAX_DYNAMIC_TAGS.
 * Thread-safe; meant for component open, not for the data path.
 */
int tessera_endpoint_tag_register(const char *name);

/* The (upper-case) name of a static or registered tag; NULL for any other value. Lock-free. */
const char *tessera_endpoint_tag_name(int tag);

/* Static tags plus the tags registered so far; every valid tag is below this. Lock-free. */
int tessera_endpoint_tag_count(void);

#ifdef __cplusplus
}
#endif

#endif
