/* btl shm: parameters, query, module creation, the business card and the host segment's life. */
#include <sys/prctl.h>
#include <unistd.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>

#include "components/btl/shm/btl_shm.h"
#include "components/btl/shm/btl_shm_segment.h"
#include "frameworks/btl/base/base.h"
#include "mca/report.h"
#include "mca/var.h"
#include "ompi/proc/modex.h"

namespace tessera::ompi::btl_shm {

Params params;

namespace {

/* Among btl components only the order of modules of equal exclusivity depends on this. */
constexpr int kPriority = 50;

/* Plain pointers and PODs: the framework may be closed by an exit handler after this DSO's static
 * objects were destroyed (a rank leaving without MPI_Finalize). */
Segment *segment = nullptr;
char segment_name_buf[64];
bool attach_tried = false;
mca_btl_base_module_t *modules[1];
volatile uint64_t probe_word = 0;

const mca_var_enum_value_t single_copy_values[] = {
    {kSingleCopyAuto, "auto"}, {kSingleCopyCma, "cma"}, {kSingleCopyNone, "none"}, {0, nullptr}};

int register_params(const mca_base_component_t *)
{
    const mca_btl_base_common_specs_t common = {
        .eager_limit = {"16k", nullptr, nullptr,
                        "Largest message (bytes, pml header included) sent in one fragment to a peer on this host",
                        MCA_INFO_LVL_4},
        .max_send_size = {"32k", "64", "64M",
                          "Bytes of one fragment (pml header included); large messages are cut into fragments of "
                          "this size, copied in and out on two cores at once",
                          MCA_INFO_LVL_4},
        .latency = {"200", nullptr, nullptr,
                    "One-way latency estimate of a small fragment, ns (orders the modules reaching a peer)",
                    MCA_INFO_LVL_5},
        .bandwidth = {"12000", nullptr, nullptr,
                      "Bandwidth estimate, MB/s (weights striping over the modules reaching a peer)", MCA_INFO_LVL_5},
    };
    if (const int rc = mca_btl_base_register_common("shm", &common, &params.common); rc != TESSERA_SUCCESS) {
        return rc;
    }
    const mca_var_row_t rows[] = {
        {"fifo_depth", MCA_VAR_TYPE_UNSIGNED, "256", "2", "1048576",
         "Cells (64 bytes each, a power of two) in each local rank's receive queue, which every other rank of the "
         "host sends into; a full queue makes senders wait",
         MCA_INFO_LVL_4, nullptr, &params.fifo_depth},
        {"fragments", MCA_VAR_TYPE_UNSIGNED, "32", "2", "65536",
         "Fragments of btl_shm_max_send_size bytes in each local rank's send pool, shared by all its peers on the "
         "host: as many fragments of one stream can be in flight",
         MCA_INFO_LVL_4, nullptr, &params.fragments},
        {"single_copy", MCA_VAR_TYPE_ENUM, "auto", nullptr, nullptr,
         "How a receiver may read a large message: auto (process_vm_readv from the sender's buffer where the kernel "
         "allows it), cma (the same, warning where it is refused) or none (copy-in/copy-out through the fragments only). "
         "Which messages use it is the pml's choice (pml_single_copy: by default large ones when the sender or the "
         "receiver waits for its CPU; while both run, one-way transfers stream faster through the fragments)",
         MCA_INFO_LVL_4, single_copy_values, &params.single_copy},
        {"get_limit", MCA_VAR_TYPE_SIZE, "0", nullptr, nullptr,
         "Largest single-copy read (bytes) the pml asks for at once (0: any)", MCA_INFO_LVL_5, nullptr,
         &params.get_limit},
        {"peer_check_interval", MCA_VAR_TYPE_DOUBLE, "0.25", "0", "3600",
         "Seconds between checks, while nothing arrives, that the peers on this host are still alive; a peer found "
         "gone is reported as an error once (0: never check)",
         MCA_INFO_LVL_6, nullptr, &params.peer_check_interval},
        {"unnamed", MCA_VAR_TYPE_BOOL, "true", nullptr, nullptr,
         "Make the host segment unnamed (a memfd of local rank 0 that the other local ranks open through "
         "/proc/<pid>/fd/<n>), so that nothing is ever left in /dev/shm whatever kills the job; false: a file "
         "in /dev/shm whose name the last rank to map it removes (for hosts where ranks cannot open each other's "
         "files). Local rank 0's value decides",
         MCA_INFO_LVL_6, nullptr, &params.unnamed},
        {"fast_box_after", MCA_VAR_TYPE_UNSIGNED, "16", "0", "1000000000",
         "Fragments a rank sends to a peer through the peer's receive queue before it gives that peer a fast box "
         "(a ring of its own with one sender and one receiver: no compare-exchange per send); 0: never",
         MCA_INFO_LVL_5, nullptr, &params.fast_box_after},
        {"fast_boxes", MCA_VAR_TYPE_UNSIGNED, "16", "0", "4096",
         "Fast boxes each local rank may give to peers it sends to, and may be given by peers (it polls at most "
         "this many); each takes btl_shm_fast_box_depth x 64 bytes of the host segment; 0: none",
         MCA_INFO_LVL_5, nullptr, &params.fast_boxes},
        {"fast_box_depth", MCA_VAR_TYPE_UNSIGNED, "64", "2", "65536",
         "Cells (64 bytes each, a power of two) of one fast box; a full box makes the sender wait, as a full queue "
         "does",
         MCA_INFO_LVL_5, nullptr, &params.fast_box_depth},
    };
    return mca_var_register_rows("btl", "shm", rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

int open_component()
{
    if (!std::has_single_bit(params.fifo_depth)) {
        /* A power of two, so that a queue position's cell and lap are a mask and a shift: a division
         * there would sit in every poll of the receive queue and every send. */
        tessera::mca::report(tessera::mca::Severity::Error,
                             tessera::mca::bad_value("btl_shm_fifo_depth", std::to_string(params.fifo_depth),
                                                     "is not a power of two (2, 4, ... 1048576)"));
        return TESSERA_ERR_BAD_PARAM;
    }
    if (!std::has_single_bit(params.fast_box_depth)) {
        /* The same cell scheme as the queue: a mask and a shift. */
        tessera::mca::report(tessera::mca::Severity::Error,
                             tessera::mca::bad_value("btl_shm_fast_box_depth", std::to_string(params.fast_box_depth),
                                                     "is not a power of two (2, 4, ... 65536)"));
        return TESSERA_ERR_BAD_PARAM;
    }
    return mca_btl_base_check_common("shm", &params.common);
}

int query(void **module, int *priority)
{
    *module = nullptr;
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

Shape shape(const tessera_job_info_t *job)
{
    return Shape{job->local_size, params.fifo_depth, params.fragments, params.common.max_send_size, params.fast_boxes,
                 params.fast_box_depth};
}

void drop_segment()
{
    delete segment;
    segment = nullptr;
    attach_tried = false;
}

int close_component()
{
    module_destroy();
    drop_segment();
    return TESSERA_SUCCESS;
}

mca_btl_base_module_t **init(int *num_modules, bool, bool enable_mpi_threads)
{
    *num_modules = 0;
    drop_segment();
    const tessera_job_info_t *job = tessera_job_info();
    if (job == nullptr || job->singleton || job->local_size < 2) {
        return nullptr; /* nobody else on this host: no segment, no module */
    }
    const std::string name = segment_name(job->jobid, job->node_id);
    std::snprintf(segment_name_buf, sizeof segment_name_buf, "%s", name.c_str());
    bool made = true;
    if (job->local_rank == 0) {
        segment = new Segment();
        std::string error;
        /* The others open an unnamed segment through /proc/<pid>/fd, which the kernel allows only for a
         * dumpable process (or with CAP_SYS_PTRACE): a rank 0 made non-dumpable makes a named one. */
        const bool unnamed = params.unnamed && prctl(PR_GET_DUMPABLE) == 1;
        made = segment->create(name, shape(job), unnamed, &error);
        if (!made) {
            tessera::mca::report(tessera::mca::Severity::Error, "btl shm: " + error);
        }
        if (!segment->mapped()) {
            drop_segment();
            return nullptr;
        }
        segment->count_in();
        attach_tried = true;
    }
    /* Different in every process, so that reading the right value proves which process was read. */
    probe_word = 0x9e3779b97f4a7c15ull ^ (uint64_t(getpid()) << 17) ^ uint64_t(job->jobid);
    Card card{job->local_rank, static_cast<int32_t>(getpid()), probe_address(), probe_value(), {}};
    if (segment != nullptr) {
        std::snprintf(card.segment_path, sizeof card.segment_path, "%s", segment->path().c_str());
    }
    if (tessera_modex_put(kCardKey, &card, sizeof card) != TESSERA_SUCCESS) {
        tessera::mca::report(tessera::mca::Severity::Error, "btl shm: cannot publish the business card");
        drop_segment();
        return nullptr;
    }
    if (!made) {
        /* The unusable segment stays mapped until close, and the card says where: the others learn from
         * it that this rank reported, and make no endpoint. */
        return nullptr;
    }
    modules[0] = module_create(job->local_rank, job->local_size, enable_mpi_threads);
    *num_modules = 1;
    return modules;
}

} // namespace

uint64_t probe_address()
{
    return reinterpret_cast<uint64_t>(&probe_word);
}

uint64_t probe_value()
{
    return probe_word;
}

Segment *attached_segment(const char *path)
{
    if (!attach_tried) {
        attach_tried = true;
        const tessera_job_info_t *job = tessera_job_info();
        segment = new Segment();
        std::string error;
        if (job == nullptr ||
            !segment->attach(segment_name_buf, path, shape(job), &error)) {
            if (!error.empty()) {
                tessera::mca::report(tessera::mca::Severity::Error, "btl shm: " + error);
            }
            delete segment;
            segment = nullptr;
        } else {
            segment->count_in();
        }
    }
    return segment;
}

bool peer_card(const tessera_proc_t *proc, Card *card)
{
    const void *data = nullptr;
    size_t len = 0;
    if (tessera_modex_get(proc->proc_name.rank, kCardKey, &data, &len) != TESSERA_SUCCESS || len != sizeof(Card)) {
        return false;
    }
    std::memcpy(card, data, sizeof *card);
    return true;
}

} // namespace tessera::ompi::btl_shm

using namespace tessera::ompi::btl_shm;

mca_btl_base_component_t mca_btl_shm_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_btl_base_component_t, "btl", MCA_BTL_BASE_VERSION, "shm", 1, 1, 0),
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
