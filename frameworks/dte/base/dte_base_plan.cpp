/*
 * dte base: choosing the plan of a committed type. The framework opens on the first plan asked for, not
 * at MPI_Init (dte_base_program.h): a process that commits no derived type loads no engine. Every open
 * component is offered the type and the plan of highest priority is kept.
 */
#include <mutex>
#include <utility>

#include "frameworks/dte/base/base.h"
#include "frameworks/dte/base/dte_base_program.h"

namespace tessera::ompi::dte {
namespace {

/*
 * Opens the framework unless it is open. Not std::call_once: frameworks_finalize (MPI_Finalize, a
 * tool, a unit test) closes the framework, and the next commit must open it again. The lock makes
 * concurrent first commits open it once; framework_open is counted, so opening only when closed keeps
 * the count at what MPI_Init and we took together.
 */
int open_framework()
{
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    if (tessera::mca::framework_is_open(&mca_dte_base_framework)) {
        return TESSERA_SUCCESS;
    }
    return tessera::mca::framework_open(&mca_dte_base_framework);
}

} // namespace
} // namespace tessera::ompi::dte

extern "C" {

int mca_dte_base_plan_create(const mca_dte_type_desc_t *type, mca_dte_plan_t **plan)
{
    if (type == nullptr || plan == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (const int rc = tessera::ompi::dte::open_framework(); rc != TESSERA_SUCCESS) {
        return rc;
    }
    mca_dte_plan_t *best = nullptr;
    for (const auto &entry : tessera::mca::framework_components(&mca_dte_base_framework)) {
        /* The loader checked the struct size: every open dte component has the whole dte struct. */
        const auto *component = reinterpret_cast<const mca_dte_base_component_t *>(entry.component);
        if (component->dte_plan_create == nullptr) {
            continue;
        }
        mca_dte_plan_t *candidate = nullptr;
        if (component->dte_plan_create(type, &candidate) != TESSERA_SUCCESS || candidate == nullptr) {
            continue; /* NOT_SUPPORTED or a failure: the type is left to the others */
        }
        if (best == nullptr || candidate->plan_priority > best->plan_priority) {
            std::swap(best, candidate);
        }
        mca_dte_base_plan_release(candidate);
    }
    if (best == nullptr) {
        return TESSERA_ERR_NOT_FOUND;
    }
    *plan = best;
    return TESSERA_SUCCESS;
}

void mca_dte_base_plan_release(mca_dte_plan_t *plan)
{
    if (plan != nullptr && plan->plan_release != nullptr) {
        plan->plan_release(plan);
    }
}

} // extern "C"
