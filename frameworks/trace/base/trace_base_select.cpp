/* trace base: the active modules for the whole process. */
#include <cstring>
#include <string>
#include <vector>

#include "frameworks/trace/base/base.h"
#include "mca/report.h"
#include "mca/var_store.h"

size_t mca_trace_base_module_count = 0;
mca_trace_base_module_t *const *mca_trace_base_modules = nullptr;
uint32_t mca_trace_base_hook_mask = 0;

namespace {

uint32_t hooks_of(const mca_trace_base_hooks_t &h)
{
    uint32_t mask = 0;
    auto add = [&mask](bool present, uint32_t bit) { mask |= present ? bit : 0u; };
    add(h.comm_create != nullptr, MCA_TRACE_HOOK_COMM_CREATE);
    add(h.send != nullptr, MCA_TRACE_HOOK_SEND);
    add(h.isend != nullptr, MCA_TRACE_HOOK_ISEND);
    add(h.isend_complete != nullptr, MCA_TRACE_HOOK_ISEND_COMPLETE);
    add(h.irecv_request != nullptr, MCA_TRACE_HOOK_IRECV_REQUEST);
    add(h.irecv != nullptr, MCA_TRACE_HOOK_IRECV);
    add(h.recv != nullptr, MCA_TRACE_HOOK_RECV);
    add(h.request_cancelled != nullptr, MCA_TRACE_HOOK_REQUEST_CANCELLED);
    add(h.collective_begin != nullptr || h.collective_end != nullptr, MCA_TRACE_HOOK_COLLECTIVE);
    add(h.region_enter != nullptr || h.region_leave != nullptr, MCA_TRACE_HOOK_REGION);
    return mask;
}

std::vector<mca_trace_base_module_t *> &active()
{
    static std::vector<mca_trace_base_module_t *> list;
    return list;
}
bool selected = false;

} // namespace

int mca_trace_base_select(const mca_trace_base_job_info_t *job)
{
    if (selected) {
        return TESSERA_ERR_EXISTS;
    }
    selected = true;
    std::vector<tessera::mca::SelectedComponent> chosen;
    int rc = tessera::mca::select_many(&mca_trace_base_framework, &chosen);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    for (const tessera::mca::SelectedComponent &c : chosen) {
        const auto *component = reinterpret_cast<const mca_trace_base_component_t *>(c.component);
        const char *raw = c.component->mca_component_name;
        std::string name(raw, strnlen(raw, sizeof c.component->mca_component_name));
        if (component->trace_init == nullptr) {
            tessera::mca::report(tessera::mca::Severity::Error,
                                 "trace " + name + ": component has no trace_init; it is not used");
            continue;
        }
        if (mca_trace_base_module_t *m = component->trace_init(job)) {
            active().push_back(m);
            mca_trace_base_hook_mask |= hooks_of(m->hooks);
        }
    }
    mca_trace_base_modules = active().data();
    mca_trace_base_module_count = active().size();
    return TESSERA_SUCCESS;
}

int mca_trace_base_finalize(void)
{
    /* Events stop before any module lets go of its state. */
    mca_trace_base_module_count = 0;
    mca_trace_base_modules = nullptr;
    mca_trace_base_hook_mask = 0;
    int result = TESSERA_SUCCESS;
    for (mca_trace_base_module_t *m : active()) {
        if (m->trace_finalize != nullptr) {
            int rc = m->trace_finalize(m);
            if (rc != TESSERA_SUCCESS && result == TESSERA_SUCCESS) {
                result = rc;
            }
        }
    }
    active().clear();
    selected = false;
    return result;
}
