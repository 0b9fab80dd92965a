/* Every framework header compiled as C (the contract third-party components are written against),
 * reporting its struct layouts so that the C++ side can compare. */
#include <stddef.h>

#include "frameworks/btl/base/base.h"
#include "frameworks/coll/base/base.h"
#include "frameworks/dte/base/base.h"
#include "frameworks/ess/base/base.h"
#include "frameworks/plm/base/base.h"
#include "frameworks/trace/base/base.h"
#include "frameworks/translator/base/base.h"

size_t fw_c_sizeof(int which);
size_t fw_c_sizeof(int which)
{
    switch (which) {
    case 0: return sizeof(mca_plm_base_component_t);
    case 1: return sizeof(mca_plm_base_module_t);
    case 2: return sizeof(mca_plm_base_proc_spec_t);
    case 3: return sizeof(mca_btl_base_component_t);
    case 4: return sizeof(mca_btl_base_module_t);
    case 5: return sizeof(mca_btl_base_peer_t);
    case 6: return sizeof(mca_dte_base_component_t);
    case 7: return sizeof(mca_dte_plan_t);
    case 8: return sizeof(mca_coll_base_component_t);
    case 9: return sizeof(mca_coll_base_module_t);
    case 10: return sizeof(mca_translator_base_component_t);
    case 11: return sizeof(mca_translator_base_module_t);
    case 12: return sizeof(mca_trace_base_component_t);
    case 13: return sizeof(mca_trace_base_module_t);
    case 14: return offsetof(mca_btl_base_module_t, btl_send);
    case 15: return offsetof(mca_trace_base_module_t, trace_finalize);
    case 16: return sizeof(mca_ess_base_component_t);
    case 17: return sizeof(mca_ess_base_module_t);
    case 18: return sizeof(mca_ess_base_identity_t);
    case 19: return offsetof(mca_ess_base_identity_t, job_key);
    default: return 0;
    }
}

/* The trace calls compile in C and do nothing while no module is active. */
int fw_c_trace_idle(void);
int fw_c_trace_idle(void)
{
    mca_trace_send(0, 1, 2, 3);
    mca_trace_collective_begin();
    mca_trace_collective_end(MCA_TRACE_COLL_BARRIER, 0, -1, 0, 0);
    return (int)mca_trace_base_module_count;
}
