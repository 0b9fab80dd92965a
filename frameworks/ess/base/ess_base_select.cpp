/* ess base: choosing the process's module, starting it, and the calls the MPI layer makes through it. */
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/ess/base/base.h"
#include "mca/constants.h"
#include "mca/report.h"

namespace tessera::orte::ess {

namespace {

struct State {
    mca_ess_base_module_t *module = nullptr;
    std::string component;
    bool opened = false;
    bool attempted = false;
    uint32_t flags = 0; /* the identity's */
};

State &state()
{
    static State s;
    return s;
}

std::string why_or(const char *why, int rc)
{
    return why != nullptr && why[0] != '\0' ? std::string(why) : "error " + std::to_string(rc);
}

LaunchInfo launch_info_of(const mca_ess_base_identity_t &who)
{
    LaunchInfo l;
    l.singleton = (who.flags & MCA_ESS_IDENTITY_SINGLETON) != 0;
    l.jobid = who.jobid;
    l.rank = static_cast<int>(who.rank);
    l.size = static_cast<int>(who.size);
    l.local_rank = static_cast<int>(who.local_rank);
    l.local_size = static_cast<int>(who.local_size);
    l.node_id = static_cast<int>(who.node_id);
    l.appnum = static_cast<int>(who.appnum);
    l.universe_size = static_cast<int>(who.universe_size < who.size ? who.size : who.universe_size);
    l.host = who.host != nullptr ? who.host : "";
    l.job_key = who.job_key != nullptr ? who.job_key : "";
    l.bind = who.bind != nullptr ? who.bind : "";
    l.launcher = who.launcher != nullptr ? who.launcher : "";
    if (who.local_peers != nullptr) {
        l.local_peers.assign(who.local_peers, who.local_peers + who.num_local_peers);
    }
    return l;
}

void close_framework()
{
    State &s = state();
    if (s.opened) {
        mca::framework_close(&mca_ess_base_framework);
        s.opened = false;
    }
    s.module = nullptr;
    s.flags = 0;
}

} // namespace

std::optional<LaunchInfo> start(std::string *error)
{
    State &s = state();
    if (s.module != nullptr) {
        *error = "ess: the process has started its ess module already";
        return std::nullopt;
    }
    s.attempted = true;
    if (int rc = mca::framework_register(&mca_ess_base_framework); rc != TESSERA_SUCCESS) {
        *error = "ess: the framework could not be registered (error " + std::to_string(rc) + ")";
        return std::nullopt;
    }
    if (int rc = mca::framework_open(&mca_ess_base_framework); rc != TESSERA_SUCCESS) {
        *error = "ess: the framework could not be opened (see above; error " + std::to_string(rc) + ")";
        return std::nullopt;
    }
    s.opened = true;
    mca::SelectedComponent chosen;
    int rc = mca::select_one(&mca_ess_base_framework, &chosen);
    if (rc != TESSERA_SUCCESS || chosen.module == nullptr) {
        close_framework();
        *error = "ess: no component can tell this process who it is (see `tessera_info --show-failed`)";
        return std::nullopt;
    }
    const char *name = chosen.component->mca_component_name;
    s.component.assign(name, strnlen(name, sizeof chosen.component->mca_component_name));
    auto *module = static_cast<mca_ess_base_module_t *>(chosen.module);
    mca_ess_base_identity_t who{};
    const char *why = nullptr;
    rc = module->ess_init(module, &who, &why);
    if (rc != TESSERA_SUCCESS) {
        *error = "ess " + s.component + ": " + why_or(why, rc);
        close_framework();
        return std::nullopt;
    }
    s.module = module;
    s.flags = who.flags;
    return launch_info_of(who);
}

bool active()
{
    return state().module != nullptr;
}

bool launcher_prints_abort()
{
    return state().module != nullptr && (state().flags & MCA_ESS_IDENTITY_LAUNCHER_PRINTS_ABORT) != 0;
}

bool attempted()
{
    return state().attempted;
}

std::string component_name()
{
    return state().component;
}

int put(std::string_view key, std::span<const std::byte> value)
{
    mca_ess_base_module_t *m = state().module;
    if (m == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    const std::string k(key);
    return m->ess_put(m, k.c_str(), value.data(), value.size());
}

int commit()
{
    mca_ess_base_module_t *m = state().module;
    return m == nullptr ? TESSERA_ERR_BAD_PARAM : m->ess_commit(m);
}

int fence(bool collect, std::string *why)
{
    mca_ess_base_module_t *m = state().module;
    if (m == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    const char *message = nullptr;
    int rc = m->ess_fence(m, collect, &message);
    if (rc != TESSERA_SUCCESS && why != nullptr) {
        *why = why_or(message, rc);
    }
    return rc;
}

std::optional<std::span<const std::byte>> get(int rank, std::string_view key)
{
    mca_ess_base_module_t *m = state().module;
    if (m == nullptr || rank < 0) {
        return std::nullopt;
    }
    const std::string k(key);
    const void *data = nullptr;
    size_t len = 0;
    if (m->ess_get(m, static_cast<uint32_t>(rank), k.c_str(), &data, &len) != TESSERA_SUCCESS) {
        return std::nullopt;
    }
    return std::span<const std::byte>(static_cast<const std::byte *>(data), len);
}

int abort(int exit_code, std::string_view message)
{
    mca_ess_base_module_t *m = state().module;
    if (m == nullptr) {
        return TESSERA_ERR_NOT_AVAILABLE;
    }
    const std::string text(message);
    return m->ess_abort(m, exit_code, text.c_str());
}

int finalize()
{
    State &s = state();
    int rc = TESSERA_SUCCESS;
    if (s.module != nullptr) {
        rc = s.module->ess_finalize(s.module);
    }
    close_framework();
    return rc;
}

} // namespace tessera::orte::ess
