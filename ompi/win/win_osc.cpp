#include "ompi/win/win_osc.h"

#include "frameworks/osc/base/base.h"
#include "mca/constants.h"

namespace tessera::ompi {

std::string osc_init(bool thread_multiple)
{
    if (const int rc = tessera_osc_base_init(false, thread_multiple); rc != TESSERA_SUCCESS) {
        return std::string("the osc components could not be initialized: ") + tessera_strerror(rc);
    }
    return "";
}

void osc_finalize()
{
    tessera_osc_base_finalize();
}

} // namespace tessera::ompi
