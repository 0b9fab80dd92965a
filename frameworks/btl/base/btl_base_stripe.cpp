/* btl base: the fragment schedule of one message over the modules of its peer. */
#include <cstring>

#include "frameworks/btl/base/base.h"

void mca_btl_base_stripe_init(mca_btl_base_stripe_t *stripe, const mca_btl_base_peer_t *)
{
    std::memset(stripe, 0, sizeof *stripe);
    stripe->mode = mca_btl_base_striping;
}

size_t mca_btl_base_stripe_next(mca_btl_base_stripe_t *stripe, const mca_btl_base_peer_t *peer)
{
    const size_t n = peer->count;
    if (n <= 1) {
        return 0;
    }
    if (stripe->mode != MCA_BTL_BASE_STRIPING_WEIGHTED) {
        size_t i = stripe->next % n;
        stripe->next = static_cast<uint32_t>((i + 1) % n);
        return i;
    }
    /* Smooth weighted round-robin: every module earns its weight each turn, the richest sends and
     * pays the total. Over `total` turns each module sends exactly `weight` times, interleaved. */
    int64_t total = 0;
    size_t best = 0;
    for (size_t i = 0; i < n; ++i) {
        int64_t weight = peer->modules[i].btl->btl_bandwidth > 0 ? peer->modules[i].btl->btl_bandwidth : 1;
        total += weight;
        stripe->credit[i] += weight;
        if (stripe->credit[i] > stripe->credit[best]) {
            best = i;
        }
    }
    stripe->credit[best] -= total;
    return best;
}
