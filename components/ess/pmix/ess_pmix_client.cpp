/*
 * ess pmix: the module, in the library the component loads (ess_pmix.h). The identity comes from the keys every PMIx server provides for its clients
 * (Slurm's and Open MPI's alike: job size, local rank and peers, node id, app number, host name); the
 * exchange is PMIx's put/commit/fence/get. The server does not know Tessera's job key, so rank 0 makes
 * one and the job's ranks get it through a first collecting fence: a process of the same user that
 * is not in this job has no way to learn it, and the tcp transport still refuses it.
 */
#include <pmix.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "components/ess/pmix/ess_pmix.h"
#include "mca/constants.h"
#include "tessera_build_id.h"
#include "orte/kv/job_key.h"

namespace tessera::orte::ess_pmix {

namespace {

constexpr const char *kJobKeyKey = "tessera.job_key";

struct Module {
    mca_ess_base_module_t base;
    bool initialized = false;
    pmix_proc_t self{};
    pmix_proc_t job{}; /* the namespace, any rank: job-level keys */
    std::string host;
    std::string job_key;
    std::string launcher;
    std::vector<uint32_t> local_peers;
    /* What get handed out, kept until finalize (a fence may replace a key's value). */
    std::map<std::pair<uint32_t, std::string>, std::vector<std::byte>> got;
    std::vector<std::vector<std::byte>> retired;
    std::string why;
};

Module &state();

const char *fail(Module &m, const std::string &what, pmix_status_t rc)
{
    m.why = what + ": " + PMIx_Error_string(rc);
    return m.why.c_str();
}

/* A value PMIx holds as some integer type, as uint32. */
bool as_u32(const pmix_value_t *v, uint32_t *out)
{
    switch (v->type) {
    case PMIX_UINT32: *out = v->data.uint32; return true;
    case PMIX_UINT16: *out = v->data.uint16; return true;
    case PMIX_UINT8: *out = v->data.uint8; return true;
    case PMIX_UINT64: *out = static_cast<uint32_t>(v->data.uint64); return v->data.uint64 <= UINT32_MAX;
    case PMIX_INT: *out = static_cast<uint32_t>(v->data.integer); return v->data.integer >= 0;
    case PMIX_INT32: *out = static_cast<uint32_t>(v->data.int32); return v->data.int32 >= 0;
    case PMIX_SIZE: *out = static_cast<uint32_t>(v->data.size); return v->data.size <= UINT32_MAX;
    case PMIX_PROC_RANK: *out = v->data.rank; return true;
    default: return false;
    }
}

/* Reads an integer key; false (and m.why) when the server has none or gives another type. */
bool get_u32(Module &m, const pmix_proc_t &proc, const char *key, uint32_t *out)
{
    pmix_value_t *v = nullptr;
    pmix_status_t rc = PMIx_Get(&proc, key, nullptr, 0, &v);
    if (rc != PMIX_SUCCESS || v == nullptr) {
        fail(m, std::string("the PMIx server gave no ") + key, rc);
        return false;
    }
    const bool ok = as_u32(v, out);
    if (!ok) {
        m.why = std::string("the PMIx server gave ") + key + " as a value of type " + std::to_string(v->type) +
                ", not an integer";
    }
    PMIX_VALUE_RELEASE(v);
    return ok;
}

/* A string key, or "" when there is none. */
std::string get_string(const pmix_proc_t &proc, const char *key)
{
    pmix_value_t *v = nullptr;
    std::string out;
    if (PMIx_Get(&proc, key, nullptr, 0, &v) == PMIX_SUCCESS && v != nullptr) {
        if (v->type == PMIX_STRING && v->data.string != nullptr) {
            out = v->data.string;
        }
        PMIX_VALUE_RELEASE(v);
    }
    return out;
}

/* "0,2,5" -> {0, 2, 5}; empty when malformed. */
std::vector<uint32_t> parse_ranks(const std::string &text)
{
    std::vector<uint32_t> ranks;
    size_t i = 0;
    while (i < text.size()) {
        size_t comma = text.find(',', i);
        const std::string item = text.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
        char *end = nullptr;
        unsigned long r = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || r > UINT32_MAX) {
            return {};
        }
        ranks.push_back(static_cast<uint32_t>(r));
        i = comma == std::string::npos ? text.size() : comma + 1;
    }
    return ranks;
}

/* The job id names shared-memory objects, so two jobs on a node must differ: a 31-bit FNV-1a hash of
 * the namespace (Slurm's "slurm.pmix.<job>.<step>" is unique per step). */
uint32_t jobid_of(const char *nspace)
{
    uint32_t h = 2166136261u;
    for (const char *c = nspace; *c != '\0'; ++c) {
        h = (h ^ static_cast<unsigned char>(*c)) * 16777619u;
    }
    h &= 0x7fffffffu;
    return h == 0 ? 1 : h;
}

int do_fence(Module &m, const char **why)
{
    /* Always collecting: after a fence without it, a Get of a key put in that epoch was seen to fail
     * across nodes under Slurm's PMIx plugin. */
    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    bool collect = true;
    PMIx_Info_load(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(nullptr, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        *why = fail(m, "the PMIx fence failed", rc);
        return TESSERA_ERR_IO;
    }
    for (auto &entry : m.got) {
        m.retired.push_back(std::move(entry.second));
    }
    m.got.clear();
    return TESSERA_SUCCESS;
}

/* Rank 0 makes the job key; every rank reads it after one collecting fence. */
int share_job_key(Module &m, const char **why)
{
    if (m.self.rank == 0) {
        const std::string key = generate_job_key();
        pmix_value_t value;
        PMIX_VALUE_CONSTRUCT(&value);
        value.type = PMIX_STRING;
        value.data.string = const_cast<char *>(key.c_str());
        pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, kJobKeyKey, &value);
        value.data.string = nullptr;
        if (rc != PMIX_SUCCESS) {
            *why = fail(m, "cannot publish the job key", rc);
            return TESSERA_ERR_IO;
        }
    }
    if (pmix_status_t rc = PMIx_Commit(); rc != PMIX_SUCCESS) {
        *why = fail(m, "PMIx_Commit failed", rc);
        return TESSERA_ERR_IO;
    }
    if (int rc = do_fence(m, why); rc != TESSERA_SUCCESS) {
        return rc;
    }
    pmix_proc_t rank0;
    PMIX_PROC_LOAD(&rank0, m.self.nspace, 0);
    m.job_key = get_string(rank0, kJobKeyKey);
    if (m.job_key.empty()) {
        m.why = "rank 0 published no job key through PMIx";
        *why = m.why.c_str();
        return TESSERA_ERR_NOT_FOUND;
    }
    return TESSERA_SUCCESS;
}

int init(mca_ess_base_module_t *, mca_ess_base_identity_t *who, const char **why)
{
    Module &m = state();
    pmix_status_t rc = PMIx_Init(&m.self, nullptr, 0);
    if (rc != PMIX_SUCCESS) {
        *why = fail(m, "cannot reach the PMIx server this process was started by (PMIx_Init)", rc);
        return TESSERA_ERR_UNREACH;
    }
    m.initialized = true;
    PMIX_PROC_LOAD(&m.job, m.self.nspace, PMIX_RANK_WILDCARD);

    uint32_t size = 0, local_rank = 0, local_size = 0, node_id = 0, appnum = 0, universe = 0;
    if (!get_u32(m, m.job, PMIX_JOB_SIZE, &size) || !get_u32(m, m.self, PMIX_LOCAL_RANK, &local_rank) ||
        !get_u32(m, m.job, PMIX_LOCAL_SIZE, &local_size) || !get_u32(m, m.self, PMIX_NODEID, &node_id)) {
        *why = m.why.c_str();
        return TESSERA_ERR_NOT_FOUND;
    }
    /* Optional: not every server gives them. */
    if (!get_u32(m, m.self, PMIX_APPNUM, &appnum)) {
        appnum = 0;
    }
    if (!get_u32(m, m.job, PMIX_UNIV_SIZE, &universe) || universe < size) {
        universe = size;
    }
    if (m.self.rank >= size || local_rank >= local_size) {
        m.why = "the PMIx server's identity does not add up: rank " + std::to_string(m.self.rank) + " of " +
                std::to_string(size) + ", local rank " + std::to_string(local_rank) + " of " +
                std::to_string(local_size);
        *why = m.why.c_str();
        return TESSERA_ERR_BAD_PARAM;
    }
    m.local_peers = parse_ranks(get_string(m.job, PMIX_LOCAL_PEERS));
    m.host = get_string(m.self, PMIX_HOSTNAME);
    m.launcher = std::string("a PMIx server (namespace ") + m.self.nspace + ")";
    if (int r = share_job_key(m, why); r != TESSERA_SUCCESS) {
        return r;
    }

    *who = mca_ess_base_identity_t{};
    who->jobid = jobid_of(m.self.nspace);
    who->rank = m.self.rank;
    who->size = size;
    who->local_rank = local_rank;
    who->local_size = local_size;
    who->node_id = node_id;
    who->appnum = appnum;
    who->universe_size = universe;
    if (m.local_peers.size() == local_size) {
        who->local_peers = m.local_peers.data();
        who->num_local_peers = static_cast<uint32_t>(m.local_peers.size());
    }
    who->host = m.host.empty() ? nullptr : m.host.c_str();
    who->job_key = m.job_key.c_str();
    who->launcher = m.launcher.c_str();
    return TESSERA_SUCCESS;
}

int put(mca_ess_base_module_t *, const char *key, const void *data, size_t len)
{
    pmix_value_t value;
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = static_cast<char *>(const_cast<void *>(data));
    value.data.bo.size = len;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &value); /* copies the bytes */
    return rc == PMIX_SUCCESS ? TESSERA_SUCCESS : TESSERA_ERROR;
}

int commit(mca_ess_base_module_t *)
{
    return PMIx_Commit() == PMIX_SUCCESS ? TESSERA_SUCCESS : TESSERA_ERR_IO;
}

int fence(mca_ess_base_module_t *, bool, const char **why)
{
    return do_fence(state(), why);
}

int get(mca_ess_base_module_t *, uint32_t rank, const char *key, const void **data, size_t *len)
{
    Module &m = state();
    auto it = m.got.find({rank, key});
    if (it == m.got.end()) {
        pmix_proc_t peer;
        PMIX_PROC_LOAD(&peer, m.self.nspace, rank);
        pmix_value_t *v = nullptr;
        if (PMIx_Get(&peer, key, nullptr, 0, &v) != PMIX_SUCCESS || v == nullptr) {
            return TESSERA_ERR_NOT_FOUND;
        }
        std::vector<std::byte> bytes;
        if (v->type == PMIX_BYTE_OBJECT) {
            const auto *b = reinterpret_cast<const std::byte *>(v->data.bo.bytes);
            bytes.assign(b, b + v->data.bo.size);
        } else if (v->type == PMIX_STRING && v->data.string != nullptr) {
            const auto *b = reinterpret_cast<const std::byte *>(v->data.string);
            bytes.assign(b, b + std::strlen(v->data.string));
        } else {
            PMIX_VALUE_RELEASE(v);
            return TESSERA_ERR_NOT_FOUND;
        }
        PMIX_VALUE_RELEASE(v);
        it = m.got.emplace(std::make_pair(rank, std::string(key)), std::move(bytes)).first;
    }
    *data = it->second.data();
    *len = it->second.size();
    return TESSERA_SUCCESS;
}

/* The server ends every process of the job; srun exits with exit_code. */
int abort_job(mca_ess_base_module_t *, int exit_code, const char *message)
{
    Module &m = state();
    if (!m.initialized) {
        return TESSERA_ERR_UNREACH;
    }
    return PMIx_Abort(exit_code, message, nullptr, 0) == PMIX_SUCCESS ? TESSERA_SUCCESS : TESSERA_ERR_IO;
}

int finalize(mca_ess_base_module_t *)
{
    Module &m = state();
    int rc = TESSERA_SUCCESS;
    if (m.initialized && PMIx_Finalize(nullptr, 0) != PMIX_SUCCESS) {
        rc = TESSERA_ERR_IO;
    }
    m.initialized = false;
    m.got.clear();
    m.retired.clear();
    return rc;
}

/* Never destroyed: the MCA core closes the frameworks from an exit handler (a rank that exits without
 * MPI_Finalize), which may run after static destructors, and closing the component resets this. */
Module &state()
{
    static Module &m = *new Module{{init, put, commit, fence, get, abort_job, finalize, {}}, false, {}, {}, {}, {}, {}, {}, {}, {}, {}};
    return m;
}

void reset()
{
    finalize(&state().base);
}

} // namespace
} // namespace tessera::orte::ess_pmix

extern "C" __attribute__((visibility("default"))) const tessera_ess_pmix_client_t *tessera_ess_pmix_client(void)
{
    static const tessera_ess_pmix_client_t client = {
        TESSERA_BUILD_ID,
        &tessera::orte::ess_pmix::state().base,
        tessera::orte::ess_pmix::reset,
    };
    return &client;
}
