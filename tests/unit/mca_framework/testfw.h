/* The framework the MCA core tests load components for; shared by the test and its test DSOs. */
#ifndef TESSERA_TESTS_MCA_FRAMEWORK_TESTFW_H
#define TESSERA_TESTS_MCA_FRAMEWORK_TESTFW_H

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESTFW_VERSION {1, 2, 0}

/* Larger than the base struct, so that a component built against the base alone is refused. */
typedef struct testfw_component {
    mca_base_component_t base;
    int (*testfw_extra)(void);
    void *testfw_reserved[2];
} testfw_component_t;

#ifdef __cplusplus
}
#endif

#endif
