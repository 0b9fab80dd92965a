/* btl shm: parameters, query, module creation, and the host segment's life (btl_shm.h). */
#include <unistd.h>

#include <cstring>
#include <string>

#include "components/btl/shm/btl_shm.h"
#include "mca/report.h"
#include "mca/var.h"
#include "ompi/proc/modex.h"

namespace tessera::ompi::btl_shm {

Params params;

namespace {

constexpr int kPriority = 50;
constexpr const char *kCardKey = "btl.shm";

struct Card {
    uint32_t local_rank;
    uint32_t pid;
};

Segment segment;
std::string name;
bool attach_tried = false;
bool attach_ok = false;
mca_btl_base_module_t *modules[1];

int register_params(const mca_base_component_t *)
{
    params = Params{};
    struct {
        const char *name;
        const char *help;
        mca_var_type_t type;
        void *storage;
    } vars[] = {
        {"eager_limit", "Largest message (header included) the pml sends in one fragment to a peer on this host",
         MCA_VAR_TYPE_SIZE, &params.eager_limit},
        {"max_send_size", "Bytes of one fragment (a ring slot's payload, header included)", MCA_VAR_TYPE_SIZE,
         &params.max_send_size},
        {"fifo_depth", "Slots in each ring between two ranks of a host", MCA_VAR_TYPE_UNSIGNED, &params.fifo_depth},
        {"latency", "One-way latency estimate, ns (orders the modules reaching a peer)", MCA_VAR_TYPE_UNSIGNED,
         &params.latency},
        {"bandwidth", "Bandwidth estimate, MB/s (weights striping)", MCA_VAR_TYPE_UNSIGNED, &params.bandwidth},
    };
    static const mca_var_enum_value_t single_copy_values[] = {
        {kSingleCopyNone, "none"}, {kSingleCopyCma, "cma"}, {0, nullptr}};
    int rc = mca_var_register("btl", "shm", "single_copy",
                              "How large messages move: none (copy-in/copy-out through the rings, the "
                              "faster here) or cma (the receiver reads the sender's buffer with "
                              "process_vm_readv; refused at run time where ptrace rules forbid it, then none)",
                              MCA_VAR_TYPE_ENUM, single_copy_values, MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL,
                              MCA_VAR_FLAG_NONE, &params.single_copy);
    if (rc < 0) {
        return rc;
    }
    rc = mca_var_register("btl", "shm", "get_limit", "Bytes per process_vm_readv call with single_copy=cma (0: any)",
                          MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                          &params.get_limit);
    if (rc < 0) {
        return rc;
    }
    for (const auto &v : vars) {
        const int rc = mca_var_register("btl", "shm", v.name, v.help, v.type, nullptr, MCA_INFO_LVL_4,
                                        MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE, v.storage);
        if (rc < 0) {
            return rc;
        }
    }
    return TESSERA_SUCCESS;
}

int open_component()
{
    std::string problem;
    if (params.max_send_size < 256 || params.max_send_size > (1u << 30)) {
        problem = "btl_shm_max_send_size: value " + std::to_string(params.max_send_size) + " is not in 256..1G";
    } else if (params.eager_limit > params.max_send_size) {
        problem = "btl_shm_eager_limit: value " + std::to_string(params.eager_limit) +
                  " is larger than btl_shm_max_send_size (" + std::to_string(params.max_send_size) + ")";
    } else if (params.fifo_depth < 2 || params.fifo_depth > 65536) {
        problem = "btl_shm_fifo_depth: value " + std::to_string(params.fifo_depth) + " is not in 2..65536";
    }
    if (!problem.empty()) {
        tessera::mca::report(tessera::mca::Severity::Error, problem);
        return TESSERA_ERR_BAD_PARAM;
    }
    return TESSERA_SUCCESS;
}

int query(void **module, int *priority)
{
    *module = nullptr;
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

int close_component()
{
    module_destroy();
    segment.unmap();
    attach_tried = attach_ok = false;
    return TESSERA_SUCCESS;
}

mca_btl_base_module_t **init(int *num_modules, bool, bool)
{
    *num_modules = 0;
    const tessera_job_info_t *job = tessera_job_info();
    if (job == nullptr || job->local_size < 2) {
        return nullptr; /* nobody else on this host */
    }
    name = segment_name(job->jobid, job->node_id);
    attach_tried = attach_ok = false;
    if (job->local_rank == 0) {
        std::string error;
        if (!segment.create(name, job->local_size, &error)) {
            tessera::mca::report(tessera::mca::Severity::Error, "btl shm: " + error);
            return nullptr;
        }
        segment.joined(name);
        attach_tried = attach_ok = true;
    }
    const Card card{job->local_rank, static_cast<uint32_t>(getpid())};
    if (tessera_modex_put(kCardKey, &card, sizeof card) != TESSERA_SUCCESS) {
        return nullptr;
    }
    modules[0] = module_create(job->local_rank, job->local_size, &segment);
    *num_modules = 1;
    return modules;
}

} // namespace

bool attach_segment()
{
    if (!attach_tried) {
        attach_tried = true;
        std::string error;
        attach_ok = segment.attach(name, &error);
        if (attach_ok) {
            segment.joined(name);
        } else {
            tessera::mca::report(tessera::mca::Severity::Error, "btl shm: " + error);
        }
    }
    return attach_ok;
}

bool peer_card(const tessera_proc_t *proc, uint32_t *local_rank, int32_t *pid)
{
    const void *data = nullptr;
    size_t len = 0;
    if (tessera_modex_get(proc->proc_name.rank, kCardKey, &data, &len) != TESSERA_SUCCESS || len != sizeof(Card)) {
        return false;
    }
    Card card;
    std::memcpy(&card, data, sizeof card);
    *local_rank = card.local_rank;
    *pid = static_cast<int32_t>(card.pid);
    return true;
}

} // namespace tessera::ompi::btl_shm

using namespace tessera::ompi::btl_shm;

mca_btl_base_component_t mca_btl_shm_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_btl_base_component_t, "btl", MCA_BTL_BASE_VERSION, "shm", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = open_component,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .btl_init = init,
    .reserved = {},
};
