/*
 * ess singleton: no launcher, rank 0 of 1. The cards a singleton puts are read back by the same
 * process, so the exchange is a table. Lowest priority: any component that sees a launcher wins; and
 * init refuses when the environment shows a launch this process would silently not be part of
 * (ess base: unserved_launch).
 */
#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/ess/base/base.h"
#include "mca/constants.h"
#include "mca/var.h"

namespace tessera::orte::ess_singleton {

namespace {

constexpr int kPriority = 1;

bool ignore_launch = false;

struct Module {
    mca_ess_base_module_t base;
    std::map<std::string, std::vector<std::byte>> cards;
    std::string why;
};

int init(mca_ess_base_module_t *self, mca_ess_base_identity_t *who, const char **why)
{
    auto *m = reinterpret_cast<Module *>(self);
    if (!ignore_launch) {
        m->why = ess::unserved_launch();
        if (!m->why.empty()) {
            *why = m->why.c_str();
            return TESSERA_ERR_NOT_AVAILABLE;
        }
    }
    *who = mca_ess_base_identity_t{};
    who->flags = MCA_ESS_IDENTITY_SINGLETON;
    who->size = 1;
    who->local_size = 1;
    who->universe_size = 1;
    who->job_key = "";
    who->launcher = "none (singleton)";
    return TESSERA_SUCCESS;
}

int put(mca_ess_base_module_t *self, const char *key, const void *data, size_t len)
{
    auto *m = reinterpret_cast<Module *>(self);
    const auto *bytes = static_cast<const std::byte *>(data);
    m->cards[key] = std::vector<std::byte>(bytes, bytes + len);
    return TESSERA_SUCCESS;
}

int commit(mca_ess_base_module_t *)
{
    return TESSERA_SUCCESS;
}

int fence(mca_ess_base_module_t *, bool, const char **)
{
    return TESSERA_SUCCESS;
}

int get(mca_ess_base_module_t *self, uint32_t rank, const char *key, const void **data, size_t *len)
{
    auto *m = reinterpret_cast<Module *>(self);
    auto it = m->cards.find(key);
    if (rank != 0 || it == m->cards.end()) {
        return TESSERA_ERR_NOT_FOUND;
    }
    *data = it->second.data();
    *len = it->second.size();
    return TESSERA_SUCCESS;
}

/* Nobody to tell: the caller prints the message itself. */
int abort_job(mca_ess_base_module_t *, int, const char *)
{
    return TESSERA_ERR_NOT_AVAILABLE;
}

int finalize(mca_ess_base_module_t *self)
{
    reinterpret_cast<Module *>(self)->cards.clear();
    return TESSERA_SUCCESS;
}

/* Never destroyed: the MCA core closes the frameworks from an exit handler (a process that exits
 * without MPI_Finalize), which may run after static destructors, and closing the component clears it. */
Module &module = *new Module{{init, put, commit, fence, get, abort_job, finalize, {}}, {}, {}};

int register_params(const mca_base_component_t *)
{
    const mca_var_row_t rows[] = {
        {"ignore_launch", MCA_VAR_TYPE_BOOL, "0", nullptr, nullptr,
         "Run as a singleton even when a resource manager started several tasks without PMI for them (each "
         "task is then an independent job of size 1)",
         MCA_INFO_LVL_4, nullptr, &ignore_launch},
    };
    return mca_var_register_rows("ess", "singleton", rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

int close_component()
{
    module.cards.clear();
    return TESSERA_SUCCESS;
}

int query(void **out_module, int *priority)
{
    *out_module = &module.base;
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

} // namespace
} // namespace tessera::orte::ess_singleton

using namespace tessera::orte::ess_singleton;

mca_ess_base_component_t mca_ess_singleton_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_ess_base_component_t, "ess", MCA_ESS_BASE_VERSION, "singleton", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = nullptr,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .reserved = {},
};
