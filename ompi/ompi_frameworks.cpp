#include "ompi/ompi_frameworks.h"

#include <mutex>

#include "frameworks/btl/base/base.h"
#include "frameworks/coll/base/base.h"
#include "frameworks/dte/base/base.h"
#include "frameworks/io/base/base.h"
#include "frameworks/osc/base/base.h"
#include "frameworks/trace/base/base.h"
#include "frameworks/translator/base/base.h"
#include "ompi/coll/coll_schedule.h"
#include "ompi/communicator/comm_context.h"
#include "ompi/op/op.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/runtime/async_progress.h"
#include "orte/orte_frameworks.h"

namespace tessera::ompi {

std::vector<mca_base_framework_t *> frameworks()
{
    std::vector<mca_base_framework_t *> list = tessera::orte::frameworks();
    list.insert(list.end(), {&mca_btl_base_framework, &mca_dte_base_framework, &mca_coll_base_framework, &mca_osc_base_framework, &mca_io_base_framework,
                             &mca_translator_base_framework, &mca_trace_base_framework});
    return list;
}

int register_frameworks()
{
    /* MPI_T_init_thread may register from another thread while MPI_Init does (ompi/tool/mpit_state.cpp):
     * the engine's own parameters are registered by one at a time. */
    static std::mutex registering;
    std::lock_guard lock(registering);
    /* The point-to-point engine is not a framework, but its parameters are listed with the others. */
    int result = pml::register_params();
    if (int rc = cid::register_params(); rc != TESSERA_SUCCESS && result == TESSERA_SUCCESS) {
        result = rc;
    }
    if (int rc = coll::register_params(); rc != TESSERA_SUCCESS && result == TESSERA_SUCCESS) {
        result = rc;
    }
    if (int rc = async_progress::register_params(); rc != TESSERA_SUCCESS && result == TESSERA_SUCCESS) {
        result = rc;
    }
    if (int rc = register_op_params(); rc != TESSERA_SUCCESS && result == TESSERA_SUCCESS) {
        result = rc;
    }
    for (mca_base_framework_t *fw : frameworks()) {
        int rc = tessera::mca::framework_register(fw);
        if (rc != TESSERA_SUCCESS && result == TESSERA_SUCCESS) {
            result = rc;
        }
    }
    return result;
}

} // namespace tessera::ompi
