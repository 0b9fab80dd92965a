#include "ompi/runtime/wire_up.h"

#include <unistd.h>

#include <map>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "frameworks/btl/base/base.h"
#include "frameworks/ess/base/base.h"
#include "mca/constants.h"
#include "ompi/coll/coll_comm.h"
#include "ompi/pml/pml.h"
#include "ompi/proc/modex.h"
#include "ompi/runtime/runtime.h"
#include "ompi/win/win_osc.h"

namespace tessera::ompi {

namespace {

/* The card MPI_Init itself puts: host, node id, pid. */
constexpr const char *kCardKey = "tessera.proc.card";

/*
 * The modex backend: the ess module's exchange (frameworks/ess/ess.h), whose values stay valid until
 * MPI_Finalize. Cards are put before the one fence of MPI_Init and read after it.
 */
struct CardStore {
    bool fenced = false;

    static int put(void *ctx, const char *key, const void *data, size_t len)
    {
        auto *self = static_cast<CardStore *>(ctx);
        if (self->fenced) {
            return TESSERA_ERR_BAD_PARAM;
        }
        const auto *bytes = static_cast<const std::byte *>(data);
        return orte::ess::put(key, std::span<const std::byte>(bytes, len)) == TESSERA_SUCCESS ? TESSERA_SUCCESS
                                                                                              : TESSERA_ERROR;
    }

    static int get(void *ctx, uint32_t rank, const char *key, const void **data, size_t *len)
    {
        auto *self = static_cast<CardStore *>(ctx);
        if (!self->fenced) {
            return TESSERA_ERR_BAD_PARAM;
        }
        auto value = orte::ess::get(static_cast<int>(rank), key);
        if (!value) {
            return TESSERA_ERR_NOT_FOUND;
        }
        *data = value->data();
        *len = value->size();
        return TESSERA_SUCCESS;
    }
};

CardStore &card_store()
{
    static CardStore store;
    return store;
}

tessera_job_info_t job_info;

struct Card {
    std::string host;
    uint32_t node_id = 0;
};

Card read_card(uint32_t rank)
{
    const void *data = nullptr;
    size_t len = 0;
    Card card;
    if (tessera_modex_get(rank, kCardKey, &data, &len) != TESSERA_SUCCESS) {
        return card;
    }
    std::string text(static_cast<const char *>(data), len); /* "host\nnode_id\npid" */
    size_t a = text.find('\n');
    size_t b = a == std::string::npos ? a : text.find('\n', a + 1);
    card.host = text.substr(0, a);
    if (a != std::string::npos) {
        card.node_id = static_cast<uint32_t>(std::stoul(text.substr(a + 1, b - a - 1)));
    }
    return card;
}

} // namespace

std::string wire_up(bool thread_multiple)
{
    Runtime &rt = runtime();
    const orte::LaunchInfo &l = rt.launch;
    CardStore &store = card_store();
    store = CardStore{};
    job_info = tessera_job_info_t{
        .singleton = l.singleton,
        .jobid = l.jobid,
        .rank = static_cast<uint32_t>(l.rank),
        .size = static_cast<uint32_t>(l.size),
        .local_rank = static_cast<uint32_t>(l.local_rank),
        .local_size = static_cast<uint32_t>(l.local_size),
        .node_id = static_cast<uint32_t>(l.node_id),
        .host = l.host.c_str(),
        .job_key = l.job_key.c_str(),
    };
    const tessera_modex_ops_t ops{CardStore::put, CardStore::get, &store};
    tessera_modex_install(&job_info, &ops);

    /* The components' btl_init put their cards; ours goes with them through one fence. */
    if (int rc = tessera_btl_base_select(false, thread_multiple); rc != TESSERA_SUCCESS) {
        return "the btl components could not be initialized (error " + std::to_string(rc) + ")";
    }
    const std::string card = l.host + "\n" + std::to_string(l.node_id) + "\n" + std::to_string(static_cast<long>(getpid()));
    if (tessera_modex_put(kCardKey, card.data(), card.size()) != TESSERA_SUCCESS) {
        return "the wire-up exchange with " + l.launcher + " failed (put)";
    }
    std::string why;
    if (orte::ess::commit() != TESSERA_SUCCESS || orte::ess::fence(true, &why) != TESSERA_SUCCESS) {
        return "the wire-up exchange with " + l.launcher + " failed (commit/fence" + (why.empty() ? "" : ": " + why) +
               ")";
    }
    store.fenced = true;

    rt.peer_hosts.assign(static_cast<size_t>(l.size), std::string());
    rt.world_procs.assign(static_cast<size_t>(l.size), nullptr);
    for (int peer = 0; peer < l.size; ++peer) {
        Card c = read_card(static_cast<uint32_t>(peer));
        if (c.host.empty()) {
            return "rank " + std::to_string(peer) + " published no business card during the wire-up";
        }
        uint32_t flags = 0;
        if (peer == l.rank) {
            flags |= TESSERA_PROC_IS_SELF | TESSERA_PROC_ON_NODE;
        } else if (c.node_id == static_cast<uint32_t>(l.node_id)) {
            flags |= TESSERA_PROC_ON_NODE;
        }
        rt.peer_hosts[static_cast<size_t>(peer)] = c.host;
        rt.world_procs[static_cast<size_t>(peer)] =
            rt.procs.add(tessera_proc_name_t{l.jobid, static_cast<uint32_t>(peer)}, c.host, flags);
    }
    if (mca_btl_base_add_procs(rt.world_procs.data(), rt.world_procs.size()) != TESSERA_SUCCESS) {
        return "some ranks cannot be reached by any of the selected btl components (see above)";
    }
    if (int rc = pml::init(); rc != MPI_SUCCESS) {
        return "the point-to-point engine could not start (error " + std::to_string(rc) + ")";
    }
    if (std::string problem = coll_init(thread_multiple); !problem.empty()) {
        return problem;
    }
    if (std::string problem = osc_init(thread_multiple); !problem.empty()) {
        return problem;
    }
    for (Communicator *comm : {&comm_world(), &comm_self()}) {
        if (std::string problem = coll_comm_enable(*comm); !problem.empty()) {
            return problem;
        }
    }
    comm_init();
    return "";
}

std::string wire_down()
{
    Runtime &rt = runtime();
    std::string problem;
    /* The sends still owed to peers first: a request the application freed may hold a communicator it
     * freed too, which goes when the send completes. Then every created communicator left. */
    pml::quiesce();
    comm_finalize();
    coll_comm_disable(comm_self());
    coll_comm_disable(comm_world());
    coll_finalize();
    osc_finalize();
    /* Every rank past its last send before any transport closes. */
    if (std::string why; orte::ess::fence(false, &why) != TESSERA_SUCCESS) {
        problem = "the final fence with " + rt.launch.launcher + " failed: " + why;
    }
    pml::finalize();
    mca_btl_base_del_procs(rt.world_procs.data(), rt.world_procs.size());
    rt.world_procs.clear();
    rt.procs.clear();
    tessera_modex_install(nullptr, nullptr);
    card_store() = CardStore{};
    return problem;
}

} // namespace tessera::ompi
