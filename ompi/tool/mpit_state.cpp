/*
 * MPI_T_init_thread / MPI_T_finalize (MPI-4.1 15.3.4) and the catalog every MPI_T call reads. The MCA
 * registry is set up here when MPI_T comes first: the same registration tessera_info and MPI_Init do
 * (sources read, every framework and component registered, nothing opened), so a tool sees every
 * parameter before MPI_Init, and MPI_Init later finds the registry ready (registering is idempotent).
 * After MPI_Finalize the registry still holds every parameter (a component unloaded leaves its values
 * with the MCA core, mca/dso_param_park.h), so MPI_T keeps working then too.
 */
#include <algorithm>
#include <ctime>
#include <mutex>

#include "mca/framework.h"
#include "ompi/ompi_frameworks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/runtime.h"
#include "ompi/tool/mpit.h"

namespace tessera::ompi::tool {

State &state()
{
    static State s;
    return s;
}

int verbosity_of_level(int level)
{
    static constexpr int kVerbosity[9] = {
        MPI_T_VERBOSITY_USER_BASIC,   MPI_T_VERBOSITY_USER_DETAIL,   MPI_T_VERBOSITY_USER_ALL,
        MPI_T_VERBOSITY_TUNER_BASIC,  MPI_T_VERBOSITY_TUNER_DETAIL,  MPI_T_VERBOSITY_TUNER_ALL,
        MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL, MPI_T_VERBOSITY_MPIDEV_ALL,
    };
    return kVerbosity[std::clamp(level, 1, 9) - 1];
}

void string_out(std::string_view text, char *buf, int *len)
{
    if (len == nullptr) {
        return;
    }
    if (buf == nullptr || *len <= 0) {
        *len = static_cast<int>(text.size()) + 1;
        return;
    }
    const size_t n = std::min(text.size(), static_cast<size_t>(*len - 1));
    std::copy_n(text.data(), n, buf);
    buf[n] = '\0';
    *len = static_cast<int>(n) + 1;
}

MPI_Count timestamp_now()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<MPI_Count>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int category_for(Catalog &c, const std::string &name, const std::string &desc, int parent)
{
    if (auto it = c.category_by_name.find(name); it != c.category_by_name.end()) {
        Category &cat = c.categories[static_cast<size_t>(it->second)];
        if (cat.desc.empty() && !desc.empty()) {
            cat.desc = desc;
        }
        return it->second;
    }
    const int index = static_cast<int>(c.categories.size());
    c.categories.push_back(Category{name, desc, {}, {}, {}, {}});
    c.category_by_name.emplace(name, index);
    if (parent >= 0) {
        c.categories[static_cast<size_t>(parent)].children.push_back(index);
    }
    ++c.changed;
    return index;
}

Enum *make_enum(Catalog &c, std::string name, std::vector<std::pair<int, std::string>> items)
{
    c.enums.push_back(Enum{std::move(name), std::move(items)});
    return &c.enums.back();
}

const Enum *enum_of(const Catalog &c, MPI_T_enum handle)
{
    for (const Enum &e : c.enums) {
        if (reinterpret_cast<MPI_T_enum>(const_cast<Enum *>(&e)) == handle) {
            return &e;
        }
    }
    return nullptr;
}

namespace {

void add_frameworks(Catalog &c)
{
    const std::vector<mca_base_framework_t *> frameworks = mca::registered_frameworks();
    for (mca_base_framework_t *fw : frameworks) {
        const int parent = category_for(c, fw->name, fw->description != nullptr ? fw->description : "", -1);
        for (const mca::ComponentEntry &e : mca::framework_components(fw)) {
            const std::string comp = e.component->mca_component_name;
            category_for(c, std::string(fw->name) + "_" + comp, "the " + comp + " component of " + fw->name, parent);
        }
    }
}

void add_cvar(Catalog &c, mca::VarInfo v)
{
    const std::string fw = v.framework.empty() ? "mca" : v.framework;
    int cat = category_for(c, fw, "", -1);
    if (!v.component.empty()) {
        cat = category_for(c, fw + "_" + v.component, "the " + v.component + " parameters of " + fw, cat);
    }
    c.categories[static_cast<size_t>(cat)].cvars.push_back(v.index);
    ++c.changed;
    Enum *e = nullptr;
    if (v.type == MCA_VAR_TYPE_ENUM) {
        e = make_enum(c, v.full_name, v.enumerators);
    }
    c.cvar_enum.push_back(e);
    c.cvars.push_back(std::move(v));
}

} // namespace

void refresh_catalog(State &s)
{
    Catalog &c = s.catalog;
    add_frameworks(c);
    if (mca::var_count() > c.cvars.size()) {
        std::vector<mca::VarInfo> all = mca::list_vars();
        for (size_t i = c.cvars.size(); i < all.size(); ++i) {
            add_cvar(c, std::move(all[i]));
        }
    }
    add_pending_states(c);
    refresh_pvar_categories(c);
    refresh_event_categories(c);
}

} // namespace tessera::ompi::tool

namespace tessera::ompi::native {

int t_init_thread(int required, int *provided)
{
    if (provided == nullptr || (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED &&
                                required != MPI_THREAD_SERIALIZED && required != MPI_THREAD_MULTIPLE)) {
        return MPI_T_ERR_INVALID;
    }
    /* Before MPI_Init nothing has registered yet; during or after it MPI_Init did. Outside the MPI_T
     * mutex: components register their pvars (tessera_mpit_state_register) as they register. */
    static std::once_flag registry;
    std::call_once(registry, [] {
        if (mpi_phase.load(std::memory_order_acquire) == Phase::NotInitialized) {
            mca::load_sources();
            register_frameworks();
        }
    });
    tool::State &s = tool::state();
    std::lock_guard lock(s.mutex);
    ++s.init_count;
    tool::refresh_catalog(s);
    /* The engine is thread-safe at every level, and MPI_T always (its own mutex). */
    *provided = required;
    return MPI_SUCCESS;
}

int t_finalize()
{
    tool::State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (s.init_count == 0) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (--s.init_count == 0) {
        /* The last user is gone: its handles and sessions with it (15.3.4). */
        tool::release_cvar_handles();
        tool::release_pvar_sessions();
        tool::release_event_registrations();
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
