/* translator base: the one selection of the process (at the first MPI call) and its end. */
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "frameworks/translator/base/base.h"
#include "mca/report.h"

namespace {

std::atomic<mca_translator_base_module_t *> selected_module{nullptr};
std::atomic<bool> select_called{false};

std::string component_name(const mca_base_component_t *c)
{
    return std::string(c->mca_component_name, strnlen(c->mca_component_name, sizeof c->mca_component_name));
}

/* "ompi: cannot load libmpi.so.40 (...); mpich: ..." for the components that declined with a reason. */
std::string decline_reasons(const std::vector<std::string> &names)
{
    std::string text;
    for (const std::string &n : names) {
        if (const char *why = mca_translator_base_decline_reason(n.c_str()); why != nullptr && *why != '\0') {
            text += (text.empty() ? "" : "; ") + n + ": " + why;
        }
    }
    return text;
}

} // namespace

extern "C" {

int mca_translator_base_select(mca_translator_base_module_t **module)
{
    if (select_called.exchange(true)) {
        return TESSERA_ERR_EXISTS;
    }
    mca_base_framework_t *fw = &mca_translator_base_framework;
    /* Opening registers the framework and its components (their library path parameters) first; a bad
     * `translator` value is reported by the MCA core. */
    int rc = tessera::mca::framework_open(fw);
    if (rc != TESSERA_SUCCESS) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "translator: the framework cannot be opened, so no MPI runtime can serve this process");
        return rc;
    }
    std::vector<std::string> candidates;
    for (const tessera::mca::ComponentEntry &e : tessera::mca::framework_components(fw)) {
        candidates.push_back(component_name(e.component));
    }
    tessera::mca::SelectedComponent chosen;
    rc = tessera::mca::select_one(fw, &chosen);
    if (rc != TESSERA_SUCCESS) {
        const std::string reasons = decline_reasons(candidates);
        tessera::mca::report(tessera::mca::Severity::Error,
                             "translator: no MPI runtime can serve this process" +
                                 (reasons.empty() ? std::string() : " (" + reasons + ")"));
        tessera::mca::framework_close(fw);
        return rc;
    }
    auto *m = static_cast<mca_translator_base_module_t *>(chosen.module);
    if (m == nullptr || m->translator_fill == nullptr) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "translator " + component_name(chosen.component) +
                                 ": its query accepted but gave no module with a fill function");
        tessera::mca::framework_close(fw);
        return TESSERA_ERR_NOT_AVAILABLE;
    }
    selected_module.store(m, std::memory_order_release);
    if (module != nullptr) {
        *module = m;
    }
    return TESSERA_SUCCESS;
}

mca_translator_base_module_t *mca_translator_base_selected(void)
{
    return selected_module.load(std::memory_order_acquire);
}

const char *mca_translator_base_runtime_name(void)
{
    mca_translator_base_module_t *m = mca_translator_base_selected();
    return m != nullptr && m->translator_runtime != nullptr ? m->translator_runtime : "Tessera's native engine";
}

int mca_translator_base_finalize(void)
{
    /* A later select may choose again (tools and tests; a process selects once). */
    mca_translator_base_module_t *m = selected_module.exchange(nullptr);
    int rc = TESSERA_SUCCESS;
    if (m != nullptr) {
        /* The runtime's functions go with its library: no re-entrant call may reach them any more. */
        size_t entries = 0;
        mca_translator_base_fn_t *direct = mca_translator_base_direct_table(&entries);
        for (size_t i = 0; i < entries; ++i) {
            direct[i] = nullptr;
        }
        rc = m->translator_finalize != nullptr ? m->translator_finalize(m) : TESSERA_SUCCESS;
        tessera::mca::framework_close(&mca_translator_base_framework);
    }
    select_called.store(false);
    return rc;
}

} // extern "C"
