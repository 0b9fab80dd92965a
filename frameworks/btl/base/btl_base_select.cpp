/* btl base: the modules of the selected components, for the whole process. */
#include <algorithm>
#include <cstring>
#include <string>

#include "frameworks/btl/base/btl_base_internal.h"
#include "mca/report.h"

namespace tessera::ompi::btl_base {
namespace {
bool selected = false;

/* The modules that have a progress function and that function, as a plain list built once by select:
 * walked in every progress pass, where the modules() accessor's guard and the null checks would cost
 * each pass. Never destroyed, like the modules. */
struct Progressing {
    mca_btl_base_module_t *module;
    mca_btl_base_progress_fn_t fn;
};
std::vector<Progressing> *const progressing = new std::vector<Progressing>();
} // namespace

std::vector<mca_btl_base_module_t *> &modules()
{
    /* Never destroyed: the framework may be closed by an exit handler (a rank leaving without
     * MPI_Finalize) after the static objects created during MPI_Init are gone. */
    static auto *list = new std::vector<mca_btl_base_module_t *>();
    return *list;
}

void release_modules()
{
    for (mca_btl_base_module_t *m : modules()) {
        if (m->btl_finalize != nullptr) {
            m->btl_finalize(m);
        }
    }
    modules().clear();
    progressing->clear();
    selected = false;
}

} // namespace tessera::ompi::btl_base

using namespace tessera::ompi::btl_base;

int tessera_btl_base_select(bool enable_progress_threads, bool enable_mpi_threads)
{
    if (selected) {
        return TESSERA_ERR_EXISTS;
    }
    std::vector<tessera::mca::SelectedComponent> chosen;
    int rc = tessera::mca::select_many(&mca_btl_base_framework, &chosen);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    for (const tessera::mca::SelectedComponent &c : chosen) {
        const auto *component = reinterpret_cast<const mca_btl_base_component_t *>(c.component);
        const char *raw = c.component->mca_component_name;
        std::string name(raw, strnlen(raw, sizeof c.component->mca_component_name));
        if (component->btl_init == nullptr) {
            tessera::mca::report(tessera::mca::Severity::Error,
                                 "btl " + name + ": component has no btl_init; it is not used");
            continue;
        }
        int count = 0;
        mca_btl_base_module_t **created = component->btl_init(&count, enable_progress_threads, enable_mpi_threads);
        for (int i = 0; created != nullptr && i < count; ++i) {
            if (created[i] != nullptr) {
                modules().push_back(created[i]);
            }
        }
    }
    std::stable_sort(modules().begin(), modules().end(),
                     [](const mca_btl_base_module_t *a, const mca_btl_base_module_t *b) {
                         return a->btl_exclusivity > b->btl_exclusivity;
                     });
    progressing->clear();
    for (mca_btl_base_module_t *m : modules()) {
        if (m->btl_progress != nullptr) {
            progressing->push_back(Progressing{m, m->btl_progress});
        }
    }
    selected = true;
    return TESSERA_SUCCESS;
}

size_t mca_btl_base_module_count(void) { return modules().size(); }

mca_btl_base_module_t *mca_btl_base_module_at(size_t index)
{
    return index < modules().size() ? modules()[index] : nullptr;
}

int mca_btl_base_progress(void)
{
    int events = 0;
    for (const Progressing &p : *progressing) {
        const int n = p.fn(p.module);
        if (n > 0) {
            events += n;
        }
    }
    return events;
}
