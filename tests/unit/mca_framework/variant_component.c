/*
 * One source for every refused (and a few accepted) test DSO: the CMakeLists compiles it once per
 * variant with FW_ID and COMP_ID (identifiers) and one T_* switch that breaks one field.
 */
#include "testfw.h"

#define STR2(x) #x
#define STR(x) STR2(x)
#define CAT5(a, b, c, d, e) a##b##c##d##e
#define SYMBOL(fw, comp) CAT5(mca_, fw, _, comp, _component)

#ifndef T_MAGIC
#define T_MAGIC MCA_BASE_MAGIC
#endif
#ifndef T_MCA_MAJOR
#define T_MCA_MAJOR MCA_BASE_VERSION_MAJOR
#endif
#ifndef T_MCA_MINOR
#define T_MCA_MINOR MCA_BASE_VERSION_MINOR
#endif
#ifndef T_FW_MAJOR
#define T_FW_MAJOR 1
#endif
#ifndef T_FW_MINOR
#define T_FW_MINOR 2
#endif

#ifdef T_OTHER_BUILD_ID
#define BUILD_ID "0.0.0-deadbeefdeadbeef" /* as if built against another installation */
#else
#define BUILD_ID TESSERA_BUILD_ID
#endif

#ifdef T_OTHER_FRAMEWORK
#define FRAMEWORK_NAME "otherfw"
#else
#define FRAMEWORK_NAME STR(FW_ID)
#endif

#ifdef T_OTHER_NAME
#define COMPONENT_NAME "other"
#else
#define COMPONENT_NAME STR(COMP_ID)
#endif

#ifdef T_SMALL
#define STRUCT_SIZE ((uint32_t)sizeof(mca_base_component_t))
#else
#define STRUCT_SIZE ((uint32_t)sizeof(testfw_component_t))
#endif

#ifdef T_UNRESOLVED
/* Defined nowhere: loading this DSO must fail, not the first call. */
extern int testfw_symbol_nowhere(void);
static int variant_open(void)
{
    return testfw_symbol_nowhere();
}
#define OPEN_FN variant_open
#else
#define OPEN_FN NULL
#endif

#ifdef T_NO_SYMBOL
#define EXPORTED testfw_not_the_component_symbol
#else
#define EXPORTED SYMBOL(FW_ID, COMP_ID)
#endif

const testfw_component_t EXPORTED = {
    .base = {.mca_magic = T_MAGIC,
             .mca_struct_size = STRUCT_SIZE,
             .mca_version = {T_MCA_MAJOR, T_MCA_MINOR, MCA_BASE_VERSION_RELEASE},
             .mca_build_id = BUILD_ID,
             .mca_framework_name = FRAMEWORK_NAME,
             .mca_framework_version = {T_FW_MAJOR, T_FW_MINOR, 0},
             .mca_component_name = COMPONENT_NAME,
             .mca_component_version = {1, 0, 0},
             .mca_open_component = OPEN_FN},
};
