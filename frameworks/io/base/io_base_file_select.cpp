/* io base: the module of one file, and who deletes files. */
#include <string>

#include "frameworks/io/base/base.h"
#include "mca/constants.h"
#include "mca/framework.h"

namespace {

void note(int level, const std::string &text)
{
    tessera::mca::framework_note(mca_io_base_framework, level, text);
}

} // namespace

extern "C" {

int tessera_io_base_file_select(struct tessera_file *file, const mca_io_base_file_args_t *args, const char *name,
                                mca_io_base_module_t **out)
{
    mca_io_base_module_t *best = nullptr;
    const mca_io_base_component_t *best_component = nullptr;
    int best_priority = -1;
    for (const auto &entry : tessera::mca::framework_components(&mca_io_base_framework)) {
        /* The loader checked the struct size: every open io component has the whole io struct. */
        const auto *component = reinterpret_cast<const mca_io_base_component_t *>(entry.component);
        if (component->io_file_query == nullptr) {
            continue;
        }
        int priority = 0;
        mca_io_base_module_t *module = component->io_file_query(file, args, &priority);
        if (module == nullptr) {
            continue;
        }
        note(10, std::string(name) + ": component " + component->base.mca_component_name +
                     " offers a module of priority " + std::to_string(priority));
        if (priority > best_priority) {
            if (best != nullptr && best->io_release != nullptr) {
                best->io_release(best);
            }
            best = module;
            best_component = component;
            best_priority = priority;
        } else if (module->io_release != nullptr) {
            module->io_release(module);
        }
    }
    if (best == nullptr) {
        note(1, std::string(name) + ": no io component offers a module");
        return TESSERA_ERR_NOT_FOUND;
    }
    note(1, std::string(name) + ": file access by " + best_component->base.mca_component_name + " (priority " +
                std::to_string(best_priority) + ")");
    *out = best;
    return TESSERA_SUCCESS;
}

const mca_io_base_component_t *tessera_io_base_deleter(void)
{
    for (const auto &entry : tessera::mca::framework_components(&mca_io_base_framework)) {
        const auto *component = reinterpret_cast<const mca_io_base_component_t *>(entry.component);
        if (component->io_delete != nullptr) {
            return component;
        }
    }
    return nullptr;
}

} // extern "C"
