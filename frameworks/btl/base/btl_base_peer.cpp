/* btl base: the endpoint set of each peer, built from every module that reaches it. */
#include <algorithm>
#include <memory>
#include <string>

#include "frameworks/btl/base/btl_base_internal.h"
#include "mca/framework_state.h"
#include "mca/report.h"
#include "ompi/proc/modex.h"

namespace tessera::ompi::btl_base {
namespace {

/* Procs that have an endpoint set, so that framework close can release them. */
std::vector<tessera_proc_t *> &added()
{
    /* Never destroyed: the framework may be closed by an exit handler (a rank leaving without
     * MPI_Finalize) after the static objects created during MPI_Init are gone. */
    static auto *list = new std::vector<tessera_proc_t *>();
    return *list;
}

std::string describe_proc(const tessera_proc_t *proc)
{
    std::string text = "process " + std::to_string(proc->proc_name.jobid) + "." +
                       std::to_string(proc->proc_name.rank);
    if (proc->proc_hostname != nullptr) {
        text += std::string(" on ") + proc->proc_hostname;
    }
    return text;
}

std::string module_names()
{
    std::string names;
    for (const mca_btl_base_module_t *m : modules()) {
        names += (names.empty() ? "" : ", ") + std::string(m->btl_name != nullptr ? m->btl_name : "?");
    }
    return names.empty() ? "none" : names;
}

void release(mca_btl_base_module_t *btl, tessera_proc_t *proc, mca_btl_base_endpoint_t *endpoint)
{
    if (btl->btl_del_procs != nullptr) {
        btl->btl_del_procs(btl, 1, &proc, &endpoint);
    }
}

void delete_peer(tessera_proc_t *proc)
{
    std::unique_ptr<mca_btl_base_peer_t> peer(mca_btl_base_peer(proc));
    if (!peer) {
        return;
    }
    for (size_t i = 0; i < peer->count; ++i) {
        release(peer->modules[i].btl, proc, peer->modules[i].endpoint);
    }
    proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL] = nullptr;
}

/* Keeps the candidates that may carry traffic to this peer, fastest first; releases the others. */
std::unique_ptr<mca_btl_base_peer_t> build_peer(tessera_proc_t *proc,
                                                std::vector<mca_btl_base_peer_module_t> candidates)
{
    uint32_t best = 0;
    for (const auto &c : candidates) {
        best = std::max(best, c.btl->btl_exclusivity);
    }
    std::vector<mca_btl_base_peer_module_t> kept;
    for (const auto &c : candidates) {
        if (c.btl->btl_exclusivity == best || mca_btl_base_allow_mixed_exclusivity) {
            kept.push_back(c);
        } else {
            release(c.btl, proc, c.endpoint);
        }
    }
    std::stable_sort(kept.begin(), kept.end(), [](const auto &a, const auto &b) {
        if (a.btl->btl_latency != b.btl->btl_latency) {
            return a.btl->btl_latency < b.btl->btl_latency;
        }
        return a.btl->btl_bandwidth > b.btl->btl_bandwidth;
    });
    while (kept.size() > MCA_BTL_BASE_MAX_PEER_MODULES) {
        release(kept.back().btl, proc, kept.back().endpoint);
        kept.pop_back();
    }
    auto peer = std::make_unique<mca_btl_base_peer_t>();
    peer->count = kept.size();
    peer->exclusivity = best;
    std::copy(kept.begin(), kept.end(), peer->modules);
    return peer;
}

} // namespace

void release_all_peers()
{
    for (tessera_proc_t *proc : added()) {
        delete_peer(proc);
    }
    added().clear();
}

} // namespace tessera::ompi::btl_base

using namespace tessera::ompi::btl_base;

int mca_btl_base_add_procs(tessera_proc_t *const *procs, size_t nprocs)
{
    const std::vector<mca_btl_base_module_t *> &mods = modules();
    std::vector<std::vector<mca_btl_base_endpoint_t *>> endpoints(mods.size(),
                                                                  std::vector<mca_btl_base_endpoint_t *>(nprocs));
    for (size_t m = 0; m < mods.size(); ++m) {
        if (mods[m]->btl_add_procs == nullptr) {
            continue;
        }
        int rc = mods[m]->btl_add_procs(mods[m], nprocs, procs, endpoints[m].data());
        if (rc != TESSERA_SUCCESS) {
            for (size_t done = 0; done < m; ++done) {
                if (mods[done]->btl_del_procs != nullptr) {
                    mods[done]->btl_del_procs(mods[done], nprocs, procs, endpoints[done].data());
                }
            }
            return rc;
        }
    }

    std::string unreachable;
    for (size_t i = 0; i < nprocs; ++i) {
        tessera_proc_t *proc = procs[i];
        if (mca_btl_base_peer(proc) != nullptr) {
            continue; /* added before; the modules handed out the same endpoints again */
        }
        std::vector<mca_btl_base_peer_module_t> candidates;
        for (size_t m = 0; m < mods.size(); ++m) {
            if (endpoints[m][i] != nullptr) {
                candidates.push_back({mods[m], endpoints[m][i]});
            }
        }
        if (candidates.empty()) {
            unreachable += (unreachable.empty() ? "" : ", ") + describe_proc(proc);
            continue;
        }
        mca_btl_base_peer_t *peer = build_peer(proc, std::move(candidates)).release();
        proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL] = peer;
        added().push_back(proc);
        std::string carriers;
        for (size_t k = 0; k < peer->count; ++k) {
            carriers += k == 0 ? "" : ", ";
            carriers += peer->modules[k].btl->btl_name;
        }
        const tessera_job_info_t *job = tessera_job_info();
        const std::string me = job != nullptr ? "rank " + std::to_string(job->rank) : std::string("this process");
        tessera::mca::framework_note(mca_btl_base_framework, 2,
                                     me + " reaches " + describe_proc(proc) + " through " + carriers);
    }
    if (!unreachable.empty()) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "btl: no transport reaches " + unreachable + " (modules: " + module_names() + ")");
        return TESSERA_ERR_UNREACH;
    }
    return TESSERA_SUCCESS;
}

int mca_btl_base_del_procs(tessera_proc_t *const *procs, size_t nprocs)
{
    for (size_t i = 0; i < nprocs; ++i) {
        auto it = std::find(added().begin(), added().end(), procs[i]);
        if (it != added().end()) {
            delete_peer(procs[i]);
            added().erase(it);
        }
    }
    return TESSERA_SUCCESS;
}
