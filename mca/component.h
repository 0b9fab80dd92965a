/*
 * The base component struct: the first member of every framework's component struct, and the only
 * thing the MCA core reads from a component before it decides to trust it. Plain C with a fixed layout,
 * because it crosses DSO boundaries; reserved space lets it grow without breaking old plugins.
 *
 * The loader checks, in order: the magic, the MCA version (major must match, minor of the component
 * must not exceed ours), the build identifier, the framework name, the framework API version (same
 * rule as the MCA version) and that the component name matches the file name. Any mismatch is refused
 * with a message naming the file and both values.
 */
#ifndef TESSERA_MCA_COMPONENT_H
#define TESSERA_MCA_COMPONENT_H

#include <stddef.h>
#include <stdint.h>

#include "mca/constants.h"
#include "tessera_build_id.h" /* generated: TESSERA_BUILD_ID */

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this struct and of the selection protocol. */
#define MCA_BASE_VERSION_MAJOR 1
#define MCA_BASE_VERSION_MINOR 0
#define MCA_BASE_VERSION_RELEASE 0

/* 'TSRA': tells a Tessera component from an unrelated symbol of the right name. */
#define MCA_BASE_MAGIC 0x54535241u

#define MCA_BASE_MAX_NAME_LEN 31
#define MCA_BASE_BUILD_ID_LEN 47

typedef struct mca_base_version {
    int32_t major;
    int32_t minor;
    int32_t release;
} mca_base_version_t;

struct mca_base_component;

/* Called once after the component is found; registers its parameters (mca/var.h). */
typedef int (*mca_base_register_fn_t)(const struct mca_base_component *self);
/* Called when the framework opens the component; may refuse with TESSERA_ERR_NOT_AVAILABLE. */
typedef int (*mca_base_open_fn_t)(void);
typedef int (*mca_base_close_fn_t)(void);
/*
 * Generic query for one-of-many and many-of-many selection: TESSERA_SUCCESS and a priority (higher
 * wins) if the component wants to run; *module may be set to the framework's module.
 */
typedef int (*mca_base_query_fn_t)(void **module, int *priority);

/* Component flags. */
#define MCA_BASE_COMPONENT_FLAG_REQUIRE_THREADS 0x1u

typedef struct mca_base_component {
    uint32_t mca_magic;  /* MCA_BASE_MAGIC */
    uint32_t mca_struct_size; /* sizeof the framework's full component struct, as the component saw it */
    mca_base_version_t mca_version;
    char mca_build_id[MCA_BASE_BUILD_ID_LEN + 1];

    char mca_framework_name[MCA_BASE_MAX_NAME_LEN + 1];
    mca_base_version_t mca_framework_version;
    char mca_component_name[MCA_BASE_MAX_NAME_LEN + 1];
    mca_base_version_t mca_component_version;

    mca_base_register_fn_t mca_register_params;
    mca_base_open_fn_t mca_open_component;
    mca_base_close_fn_t mca_close_component;
    mca_base_query_fn_t mca_query_component;

    uint32_t mca_flags;
    uint32_t mca_reserved_u32[7];
    void *mca_reserved_ptr[8];
} mca_base_component_t;

/*
 * Fills the identification part of a component initializer. Use as the first member of a framework's
 * component struct:
 *   .base = { MCA_BASE_COMPONENT_HEADER(mca_btl_base_component_t, "btl", MCA_BTL_BASE_VERSION,
 *             "tcp", 1, 0, 0), .mca_open_component = ..., ... }
 */
#define MCA_BASE_COMPONENT_HEADER(struct_type, fw_name, fw_version, comp_name, c_major, c_minor,      \
                                  c_release)                                                          \
    .mca_magic = MCA_BASE_MAGIC, .mca_struct_size = (uint32_t)sizeof(struct_type),                    \
    .mca_version = {MCA_BASE_VERSION_MAJOR, MCA_BASE_VERSION_MINOR, MCA_BASE_VERSION_RELEASE},        \
    .mca_build_id = TESSERA_BUILD_ID, .mca_framework_name = fw_name,                                  \
    .mca_framework_version = fw_version, .mca_component_name = comp_name,                             \
    .mca_component_version = {c_major, c_minor, c_release}

#ifdef __cplusplus
}
#endif

#endif
