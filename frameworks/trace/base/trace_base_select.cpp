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
mca_trace_base_routes_t mca_trace_base_routes{};

namespace {

std::vector<mca_trace_base_module_t *> &active();

/* Hook `Member` of every active module that has it: the route of a hook several modules have (and,
 * with an empty list, of a hook none has). */
template <auto Member, class... Args> void fan_out(mca_trace_base_module_t *, Args... args)
{
    for (mca_trace_base_module_t *m : active()) {
        if (auto hook = m->hooks.*Member) {
            hook(m, args...);
        }
    }
}

/* The route of one hook: the only module's own hook, or the fan-out. */
template <auto Member, class Route, class... Args> void route(Route &r, void (*)(mca_trace_base_module_t *, Args...))
{
    r.fn = fan_out<Member, Args...>;
    r.module = nullptr;
    int having = 0;
    for (mca_trace_base_module_t *m : active()) {
        if (m->hooks.*Member != nullptr && ++having == 1) {
            r.fn = m->hooks.*Member;
            r.module = m;
        }
    }
    if (having > 1) {
        r.fn = fan_out<Member, Args...>;
        r.module = nullptr;
    }
}

#define MCA_TRACE_SET_ROUTE(name)                                                                       \
    route<&mca_trace_base_hooks_t::name>(mca_trace_base_routes.name, mca_trace_base_routes.name.fn)

void set_routes()
{
    MCA_TRACE_SET_ROUTE(comm_create);
    MCA_TRACE_SET_ROUTE(send);
    MCA_TRACE_SET_ROUTE(isend);
    MCA_TRACE_SET_ROUTE(isend_complete);
    MCA_TRACE_SET_ROUTE(irecv_request);
    MCA_TRACE_SET_ROUTE(irecv);
    MCA_TRACE_SET_ROUTE(recv);
    MCA_TRACE_SET_ROUTE(request_cancelled);
    MCA_TRACE_SET_ROUTE(collective_begin);
    MCA_TRACE_SET_ROUTE(collective_end);
    MCA_TRACE_SET_ROUTE(region_enter);
    MCA_TRACE_SET_ROUTE(region_leave);
    MCA_TRACE_SET_ROUTE(send_done);
}

uint32_t hooks_of(const mca_trace_base_hooks_t &h)
{
    uint32_t mask = 0;
    auto add = [&mask](bool present, uint32_t bit) { mask |= present ? bit : 0u; };
    add(h.comm_create != nullptr, MCA_TRACE_HOOK_COMM_CREATE);
    add(h.send != nullptr, MCA_TRACE_HOOK_SEND);
    add(h.send_done != nullptr, MCA_TRACE_HOOK_SEND_DONE);
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
        }
    }
    /* The bindings test the mask first: it goes up last, when every route leads to a module. */
    uint32_t mask = 0;
    for (mca_trace_base_module_t *m : active()) {
        mask |= hooks_of(m->hooks);
    }
    set_routes();
    mca_trace_base_modules = active().data();
    mca_trace_base_module_count = active().size();
    __atomic_store_n(&mca_trace_base_hook_mask, mask, __ATOMIC_RELEASE);
    return TESSERA_SUCCESS;
}

int mca_trace_base_finalize(void)
{
    /* Events stop before any module lets go of its state. */
    __atomic_store_n(&mca_trace_base_hook_mask, 0u, __ATOMIC_RELEASE);
    mca_trace_base_module_count = 0;
    mca_trace_base_modules = nullptr;
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
    set_routes(); /* every route does nothing now */
    selected = false;
    return result;
}
