#include "ompi/win/win_osc.h"

#include "frameworks/osc/base/base.h"
#include "mca/constants.h"
#include "ompi/communicator/communicator.h"

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

namespace osc {

bool window_ranks(const Group *group, const Window &w, std::vector<int> *ranks)
{
    const Communicator *c = comm_lookup(w.comm);
    std::vector<int> out;
    out.reserve(group->procs.size());
    for (tessera_proc_t *p : group->procs) {
        int at = -1;
        for (int r = 0; r < c->size; ++r) { /* groups of PSCW epochs are small: a scan is enough */
            if (c->procs[static_cast<std::size_t>(r)] == p) {
                at = r;
                break;
            }
        }
        if (at < 0) {
            return false;
        }
        out.push_back(at);
    }
    *ranks = std::move(out);
    return true;
}

} // namespace osc
} // namespace tessera::ompi
