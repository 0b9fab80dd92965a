/* A well-built testfw component: registers a parameter, counts its opens and closes. */
#include "mca/var.h"
#include "testfw.h"

static int good_priority = 30;

/* Read by the test through dlsym, to see the calls this copy of the DSO received. */
int testfw_good_register_count = 0;
int testfw_good_open_count = 0;
int testfw_good_close_count = 0;

static int good_register(const mca_base_component_t *self)
{
    (void)self;
    ++testfw_good_register_count;
    int rc = mca_var_register("testfw", "good", "priority", "Selection priority of the good test component",
                              MCA_VAR_TYPE_INT, NULL, MCA_INFO_LVL_9, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                              &good_priority);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

static int good_open(void)
{
    ++testfw_good_open_count;
    return TESSERA_SUCCESS;
}

static int good_close(void)
{
    ++testfw_good_close_count;
    return TESSERA_SUCCESS;
}

static int good_query(void **module, int *priority)
{
    static const char module_name[] = "good module";
    *module = (void *)module_name;
    *priority = good_priority;
    return TESSERA_SUCCESS;
}

const testfw_component_t mca_testfw_good_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(testfw_component_t, "testfw", TESTFW_VERSION, "good", 1, 0, 0),
             .mca_register_params = good_register,
             .mca_open_component = good_open,
             .mca_close_component = good_close,
             .mca_query_component = good_query},
};
