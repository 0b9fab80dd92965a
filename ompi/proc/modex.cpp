/* The installed job info and card exchange (modex.h): a pointer swap, read after MPI_Init installed it. */
#include "ompi/proc/modex.h"

#include "mca/constants.h"

namespace {
tessera_job_info_t installed_info;
tessera_modex_ops_t installed_ops;
bool have_info = false;
} // namespace

extern "C" {

const tessera_job_info_t *tessera_job_info(void)
{
    return have_info ? &installed_info : nullptr;
}

void tessera_modex_install(const tessera_job_info_t *info, const tessera_modex_ops_t *ops)
{
    have_info = info != nullptr;
    installed_info = info != nullptr ? *info : tessera_job_info_t{};
    installed_ops = ops != nullptr ? *ops : tessera_modex_ops_t{};
}

int tessera_modex_put(const char *key, const void *data, size_t len)
{
    if (installed_ops.put == nullptr || key == nullptr || (data == nullptr && len != 0)) {
        return TESSERA_ERR_BAD_PARAM;
    }
    return installed_ops.put(installed_ops.ctx, key, data, len);
}

int tessera_modex_get(uint32_t rank, const char *key, const void **data, size_t *len)
{
    if (installed_ops.get == nullptr || key == nullptr || data == nullptr || len == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    return installed_ops.get(installed_ops.ctx, rank, key, data, len);
}

} // extern "C"
