/* coll base: which components take part (once per process) and the table of one communicator. */
#include <algorithm>
#include <string>
#include <vector>

#include "frameworks/coll/base/base.h"
#include "mca/constants.h"
#include "mca/framework.h"

namespace {

struct Candidate {
    const mca_coll_base_component_t *component;
    mca_coll_base_module_t *module;
    int priority;
};

/* The components whose coll_init_query accepted, in the framework's order. */
std::vector<const mca_coll_base_component_t *> &taking_part()
{
    static std::vector<const mca_coll_base_component_t *> list;
    return list;
}

void note(int level, const std::string &text)
{
    tessera::mca::framework_note(mca_coll_base_framework, level, text);
}

/* Fills the table from the candidates, lowest priority first, so that the highest one implementing a
 * collective is the one left in its slot. */
void fill(mca_coll_base_comm_coll_t *table, const std::vector<Candidate> &ascending)
{
    for (const Candidate &c : ascending) {
        mca_coll_base_module_t *m = c.module;
#define MCA_COLL_BASE_TAKE(name, type)                                                                                \
    if (m->coll_##name != nullptr) {                                                                                  \
        table->coll_##name = m->coll_##name;                                                                          \
        table->coll_##name##_module = m;                                                                              \
    }
        MCA_COLL_BASE_FUNCTIONS(MCA_COLL_BASE_TAKE)
#undef MCA_COLL_BASE_TAKE
    }
}

/* How many collectives of the table `m` serves. */
int served_by(const mca_coll_base_comm_coll_t *table, const mca_coll_base_module_t *m)
{
    int n = 0;
#define MCA_COLL_BASE_COUNT(name, type) n += table->coll_##name##_module == m;
    MCA_COLL_BASE_FUNCTIONS(MCA_COLL_BASE_COUNT)
#undef MCA_COLL_BASE_COUNT
    return n;
}

void release(struct tessera_comm *comm, mca_coll_base_module_t *m)
{
    if (m->coll_module_release != nullptr) {
        m->coll_module_release(m, comm);
    }
}

} // namespace

extern "C" {

int tessera_coll_base_init(bool enable_progress_threads, bool enable_mpi_threads)
{
    auto &list = taking_part();
    list.clear();
    for (const auto &entry : tessera::mca::framework_components(&mca_coll_base_framework)) {
        /* The loader checked the struct size: every open coll component has the whole coll struct. */
        const auto *component = reinterpret_cast<const mca_coll_base_component_t *>(entry.component);
        const char *name = component->base.mca_component_name;
        if (component->coll_comm_query == nullptr) {
            note(1, std::string("component ") + name + " offers no coll_comm_query: it takes no part");
            continue;
        }
        if (component->coll_init_query != nullptr) {
            if (const int rc = component->coll_init_query(enable_progress_threads, enable_mpi_threads);
                rc != TESSERA_SUCCESS) {
                note(1, std::string("component ") + name + " takes no part: " + tessera_strerror(rc));
                continue;
            }
        }
        list.push_back(component);
    }
    return TESSERA_SUCCESS;
}

void tessera_coll_base_finalize(void)
{
    taking_part().clear();
}

int tessera_coll_base_comm_select(struct tessera_comm *comm, const char *name, mca_coll_base_comm_coll_t **out)
{
    std::vector<Candidate> candidates;
    for (const mca_coll_base_component_t *component : taking_part()) {
        int priority = 0;
        mca_coll_base_module_t *module = component->coll_comm_query(comm, &priority);
        if (module == nullptr) {
            continue;
        }
        if (priority < 0) {
            release(comm, module);
            continue;
        }
        note(10, std::string(name) + ": component " + component->base.mca_component_name + " offers a module of priority " +
                     std::to_string(priority));
        candidates.push_back({component, module, priority});
    }
    if (candidates.empty()) {
        note(1, std::string(name) + ": no coll component offers a module");
        return TESSERA_ERR_NOT_FOUND;
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate &a, const Candidate &b) { return a.priority < b.priority; });

    auto *table = new mca_coll_base_comm_coll_t{};
    fill(table, candidates);
    std::vector<mca_coll_base_module_t *> used;
    for (const Candidate &c : candidates) {
        const int n = served_by(table, c.module);
        if (n == 0) {
            release(comm, c.module);
            continue;
        }
        note(1, std::string(name) + ": " + std::to_string(n) + " collectives from " + c.component->base.mca_component_name +
                    " (priority " + std::to_string(c.priority) + ")");
        used.push_back(c.module);
    }
    table->modules = new mca_coll_base_module_t *[used.size()];
    table->module_count = 0;
    for (mca_coll_base_module_t *m : used) {
        table->modules[table->module_count++] = m;
        if (m->coll_module_enable == nullptr) {
            continue;
        }
        if (const int rc = m->coll_module_enable(m, comm); rc != TESSERA_SUCCESS) {
            /* The modules after this one were never enabled, but they are released all the same. */
            for (std::size_t i = table->module_count; i < used.size(); ++i) {
                table->modules[table->module_count++] = used[i];
            }
            tessera_coll_base_comm_unselect(comm, table);
            return rc;
        }
    }
    *out = table;
    return TESSERA_SUCCESS;
}

void tessera_coll_base_comm_unselect(struct tessera_comm *comm, mca_coll_base_comm_coll_t *coll)
{
    if (coll == nullptr) {
        return;
    }
    for (std::size_t i = 0; i < coll->module_count; ++i) {
        release(comm, coll->modules[i]);
    }
    delete[] coll->modules;
    delete coll;
}

} // extern "C"
