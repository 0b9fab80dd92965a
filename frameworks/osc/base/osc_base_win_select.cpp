/* osc base: which components take part (once per process) and the module of one window. */
#include <string>
#include <vector>

#include "frameworks/osc/base/base.h"
#include "mca/constants.h"
#include "mca/framework.h"

namespace {

/* The components whose osc_init_query accepted, in the framework's order. Written at MPI_Init and
 * MPI_Finalize only; window creation reads it. */
std::vector<const mca_osc_base_component_t *> &taking_part()
{
    static std::vector<const mca_osc_base_component_t *> list;
    return list;
}

void note(int level, const std::string &text)
{
    tessera::mca::framework_note(mca_osc_base_framework, level, text);
}

} // namespace

extern "C" {

int tessera_osc_base_init(bool enable_progress_threads, bool enable_mpi_threads)
{
    auto &list = taking_part();
    list.clear();
    for (const auto &entry : tessera::mca::framework_components(&mca_osc_base_framework)) {
        /* The loader checked the struct size: every open osc component has the whole osc struct. */
        const auto *component = reinterpret_cast<const mca_osc_base_component_t *>(entry.component);
        const char *name = component->base.mca_component_name;
        if (component->osc_win_query == nullptr) {
            note(1, std::string("component ") + name + " offers no osc_win_query: it takes no part");
            continue;
        }
        if (component->osc_init_query != nullptr) {
            if (const int rc = component->osc_init_query(enable_progress_threads, enable_mpi_threads);
                rc != TESSERA_SUCCESS) {
                note(1, std::string("component ") + name + " takes no part: " + tessera_strerror(rc));
                continue;
            }
        }
        list.push_back(component);
    }
    return TESSERA_SUCCESS;
}

void tessera_osc_base_finalize(void)
{
    taking_part().clear();
}

int tessera_osc_base_win_select(struct tessera_win *win, const mca_osc_base_window_args_t *args, const char *name,
                                void **base, mca_osc_base_module_t **out)
{
    mca_osc_base_module_t *best = nullptr;
    const mca_osc_base_component_t *best_component = nullptr;
    int best_priority = -1;
    for (const mca_osc_base_component_t *component : taking_part()) {
        int priority = 0;
        mca_osc_base_module_t *module = component->osc_win_query(win, args, &priority);
        if (module == nullptr) {
            continue;
        }
        note(10, std::string(name) + ": component " + component->base.mca_component_name +
                     " offers a module of priority " + std::to_string(priority));
        if (priority > best_priority) {
            if (best != nullptr && best->osc_release != nullptr) {
                best->osc_release(best, win);
            }
            best = module;
            best_component = component;
            best_priority = priority;
        } else if (module->osc_release != nullptr) {
            module->osc_release(module, win);
        }
    }
    if (best == nullptr) {
        note(1, std::string(name) + ": no osc component offers a module");
        return TESSERA_ERR_NOT_FOUND;
    }
    note(1, std::string(name) + ": one-sided communication by " + best_component->base.mca_component_name +
                " (priority " + std::to_string(best_priority) + ")");
    if (best->osc_enable != nullptr) {
        if (const int rc = best->osc_enable(best, win, base); rc != TESSERA_SUCCESS) {
            if (best->osc_release != nullptr) {
                best->osc_release(best, win);
            }
            return rc;
        }
    }
    *out = best;
    return TESSERA_SUCCESS;
}

} // extern "C"
