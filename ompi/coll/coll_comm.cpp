#include "ompi/coll/coll_comm.h"

#include "frameworks/coll/base/base.h"
#include "mca/constants.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/coll/coll_schedule.h"
#include "ompi/pml/pml_internal.h"

namespace tessera::ompi {

std::string coll_init(bool thread_multiple)
{
    if (const int rc = tessera_coll_base_init(false, thread_multiple); rc != TESSERA_SUCCESS) {
        return std::string("the coll components could not be initialized: ") + tessera_strerror(rc);
    }
    pml::progress_hook_add(coll::progress_requests);
    return "";
}

void coll_finalize()
{
    pml::progress_hook_remove(coll::progress_requests);
    coll::clear_cache();
    tessera_coll_base_finalize();
}

std::string coll_comm_enable(Communicator &comm)
{
    mca_coll_base_comm_coll_t *table = nullptr;
    const std::string label = comm_label(comm);
    const int rc = tessera_coll_base_comm_select(coll::to_c(&comm), label.c_str(), &table);
    if (rc == TESSERA_ERR_NOT_FOUND) {
        return "no coll component offers the collectives of " + label +
               " (see the coll parameter; coll_base_verbose 1 says more)";
    }
    if (rc != TESSERA_SUCCESS) {
        return "the collectives of " + label + " could not be set up: " + tessera_strerror(rc);
    }
    comm.coll = table;
    comm.coll_seq = 0;
    return "";
}

void coll_comm_disable(Communicator &comm)
{
    tessera_coll_base_comm_unselect(coll::to_c(&comm), comm.coll);
    comm.coll = nullptr;
}

} // namespace tessera::ompi
