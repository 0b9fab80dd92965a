/*
 * btl shm: single copy with process_vm_readv (cross-memory attach). The kernel allows it only where
 * ptrace would be allowed (same user and a dumpable peer, or CAP_SYS_PTRACE; Yama may restrict it to
 * descendants), so whether it works is a property of each pair of processes: each peer is tried once,
 * on the probe word of its card, when its endpoint is made. A refusal later still turns it off.
 */
#include <sys/uio.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "components/btl/shm/btl_shm_endpoint.h"
#include "mca/report.h"

namespace tessera::ompi::btl_shm {

namespace {

void refused(mca_btl_base_module_t *btl, ModuleState *state, Endpoint *e, int err)
{
    e->cma = false;
    bool any = false;
    for (const Endpoint *p : state->polled) {
        any = any || p->cma;
    }
    if (!any) {
        btl->btl_flags &= ~MCA_BTL_FLAG_GET;
    }
    /* Asked for by name: say why it is not used. auto falls back without a word. */
    if (params.single_copy == kSingleCopyCma && !state->cma_warned) {
        state->cma_warned = true;
        tessera::mca::report(tessera::mca::Severity::Warning,
                             "btl shm: btl_shm_single_copy=cma, but the kernel refuses process_vm_readv of local "
                             "rank " + std::to_string(e->local_rank) + " (pid " + std::to_string(e->pid) +
                                 "): " + std::strerror(err) +
                                 "; large messages to such peers go through the shared fragments instead");
    }
}

} // namespace

bool probe_single_copy(mca_btl_base_module_t *btl, ModuleState *state, Endpoint *e, const Card &card)
{
    uint64_t value = 0;
    iovec local{&value, sizeof value};
    iovec remote{reinterpret_cast<void *>(card.probe_address), sizeof value};
    const ssize_t n = process_vm_readv(card.pid, &local, 1, &remote, 1, 0);
    if (n == static_cast<ssize_t>(sizeof value) && value == card.probe_value) {
        return true;
    }
    /* A short read or a wrong value: the pid is not the process that put the card (other pid
     * namespace); treat it as a refusal. */
    refused(btl, state, e, n < 0 ? errno : EPERM);
    return false;
}

int get(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, void *local, uint64_t remote_addr, size_t len)
{
    Endpoint *e = as_shm(endpoint);
    if (e == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (e->gone) {
        return TESSERA_ERR_UNREACH;
    }
    if (!e->cma) {
        return TESSERA_ERR_NOT_SUPPORTED;
    }
    size_t done = 0;
    while (done < len) {
        iovec to{static_cast<char *>(local) + done, len - done};
        iovec from{reinterpret_cast<void *>(remote_addr + done), len - done};
        const ssize_t n = process_vm_readv(e->pid, &to, 1, &from, 1, 0);
        if (n > 0) {
            done += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == ESRCH) {
            peer_gone(btl, e, "exited");
            return TESSERA_ERR_UNREACH;
        }
        if (n < 0 && (errno == EPERM || errno == EACCES)) {
            refused(btl, module_state(), e, errno);
        }
        /* EFAULT (an address the peer did not map) and the rest: the caller moves the data with send(). */
        return TESSERA_ERR_NOT_SUPPORTED;
    }
    return TESSERA_SUCCESS;
}

} // namespace tessera::ompi::btl_shm
