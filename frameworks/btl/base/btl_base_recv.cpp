/* btl base: the receive callbacks per tag (active messages) and the peer-failure callback. */
#include "frameworks/btl/btl.h"

mca_btl_base_recv_reg_t mca_btl_base_recv_table[MCA_BTL_TAG_COUNT];

int mca_btl_base_register_recv(mca_btl_base_tag_t tag, mca_btl_base_recv_cb_t cb, void *cbdata)
{
    mca_btl_base_recv_reg_t &reg = mca_btl_base_recv_table[tag];
    if (cb != nullptr && reg.cb != nullptr && (reg.cb != cb || reg.cbdata != cbdata)) {
        return TESSERA_ERR_EXISTS;
    }
    reg.cb = cb;
    reg.cbdata = cb != nullptr ? cbdata : nullptr;
    return TESSERA_SUCCESS;
}

namespace {
mca_btl_base_error_cb_t error_cb = nullptr;
void *error_cbdata = nullptr;
} // namespace

void mca_btl_base_register_error(mca_btl_base_error_cb_t cb, void *cbdata)
{
    error_cb = cb;
    error_cbdata = cb != nullptr ? cbdata : nullptr;
}

void mca_btl_base_report_error(mca_btl_base_module_t *btl, tessera_proc_t *proc, int status, const char *why)
{
    if (error_cb != nullptr) {
        error_cb(btl, proc, status, why != nullptr ? why : "", error_cbdata);
    }
}
