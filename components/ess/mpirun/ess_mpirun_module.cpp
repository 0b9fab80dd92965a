/* ess mpirun: the module. The identity is mpirun's launch environment; the exchange is its key-value
 * service, whose client buffers the puts and sends them with the fence (so commit has nothing to do). */
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "components/ess/mpirun/ess_mpirun.h"
#include "mca/constants.h"
#include "orte/kv/kv_client.h"
#include "orte/runtime/launch_env.h"

namespace tessera::orte::ess_mpirun {

namespace {

struct Module {
    mca_ess_base_module_t base;
    LaunchInfo launch;
    std::unique_ptr<KvClient> kv;
    /* What get handed out: the client returns copies, and the caller may keep the pointer. A fence
     * may replace a key's value, so earlier values are retired, not freed, until reset. */
    std::map<std::pair<uint32_t, std::string>, std::vector<std::byte>> got;
    std::vector<std::vector<std::byte>> retired;
    std::string why;
};

Module &state();

int init(mca_ess_base_module_t *, mca_ess_base_identity_t *who, const char **why)
{
    Module &m = state();
    auto launch = read_launch_env(&m.why);
    if (!launch) {
        m.why = "the launch environment mpirun set is invalid: " + m.why;
        *why = m.why.c_str();
        return TESSERA_ERR_BAD_PARAM;
    }
    m.launch = std::move(*launch);
    std::string error;
    m.kv = KvClient::connect(m.launch.kv_uri, m.launch.job_key, m.launch.rank, &error);
    if (m.kv == nullptr) {
        m.why = "cannot connect to mpirun's wire-up service at " + m.launch.kv_uri + ": " + error;
        *why = m.why.c_str();
        return TESSERA_ERR_UNREACH;
    }
    const LaunchInfo &l = m.launch;
    *who = mca_ess_base_identity_t{};
    who->flags = MCA_ESS_IDENTITY_LAUNCHER_PRINTS_ABORT;
    who->jobid = l.jobid;
    who->rank = static_cast<uint32_t>(l.rank);
    who->size = static_cast<uint32_t>(l.size);
    who->local_rank = static_cast<uint32_t>(l.local_rank);
    who->local_size = static_cast<uint32_t>(l.local_size);
    who->node_id = static_cast<uint32_t>(l.node_id);
    who->appnum = static_cast<uint32_t>(l.appnum);
    who->universe_size = static_cast<uint32_t>(l.universe_size);
    who->host = l.host.c_str();
    who->job_key = l.job_key.c_str();
    who->bind = l.bind.c_str();
    who->launcher = "mpirun";
    return TESSERA_SUCCESS;
}

int put(mca_ess_base_module_t *, const char *key, const void *data, size_t len)
{
    Module &m = state();
    if (m.kv == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    const auto *bytes = static_cast<const std::byte *>(data);
    return m.kv->put(key, std::span<const std::byte>(bytes, len)) == 0 ? TESSERA_SUCCESS : TESSERA_ERROR;
}

int commit(mca_ess_base_module_t *)
{
    return TESSERA_SUCCESS;
}

/* The service always delivers the epoch's data with the fence: `collect` changes nothing. */
int fence(mca_ess_base_module_t *, bool, const char **why)
{
    Module &m = state();
    if (m.kv == nullptr || m.kv->fence() != 0) {
        *why = "the fence with mpirun's wire-up service failed (mpirun gone?)";
        return TESSERA_ERR_IO;
    }
    for (auto &entry : m.got) {
        m.retired.push_back(std::move(entry.second));
    }
    m.got.clear();
    return TESSERA_SUCCESS;
}

int get(mca_ess_base_module_t *, uint32_t rank, const char *key, const void **data, size_t *len)
{
    Module &m = state();
    auto it = m.got.find({rank, key});
    if (it == m.got.end()) {
        if (m.kv == nullptr) {
            return TESSERA_ERR_NOT_FOUND;
        }
        auto value = m.kv->get(static_cast<int>(rank), key);
        if (!value) {
            return TESSERA_ERR_NOT_FOUND;
        }
        it = m.got.emplace(std::make_pair(rank, std::string(key)), std::move(*value)).first;
    }
    *data = it->second.data();
    *len = it->second.size();
    return TESSERA_SUCCESS;
}

int abort_job(mca_ess_base_module_t *, int exit_code, const char *message)
{
    Module &m = state();
    if (m.kv == nullptr) {
        return TESSERA_ERR_UNREACH;
    }
    return m.kv->abort(exit_code, message) == 0 ? TESSERA_SUCCESS : TESSERA_ERR_IO;
}

int finalize(mca_ess_base_module_t *)
{
    Module &m = state();
    int rc = m.kv != nullptr && m.kv->finalize() != 0 ? TESSERA_ERR_IO : TESSERA_SUCCESS;
    reset();
    return rc;
}

/* Never destroyed: the MCA core closes the frameworks from an exit handler (a rank that exits without
 * MPI_Finalize), which may run after static destructors, and closing the component resets this. */
Module &state()
{
    static Module &m = *new Module{{init, put, commit, fence, get, abort_job, finalize, {}}, {}, {}, {}, {}, {}};
    return m;
}

} // namespace

mca_ess_base_module_t *module()
{
    return &state().base;
}

void reset()
{
    Module &m = state();
    m.kv.reset();
    m.got.clear();
    m.retired.clear();
}

} // namespace tessera::orte::ess_mpirun
