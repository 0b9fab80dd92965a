/*
 * MPI_Finalize (MPI-4.1 11.2.2): deletes the attributes of MPI_COMM_SELF first (their delete
 * callbacks are the application's hook to run code at the end while MPI still works) and of
 * MPI_COMM_WORLD, drains the point-to-point engine and waits for every rank (wire_down), tells
 * mpirun that this rank finished cleanly (a rank that exits without it is a failure that ends the
 * job), drops the wire-up connection, closes the frameworks.
 */
#include <string>

#include "frameworks/ess/base/base.h"
#include "mca/constants.h"
#include "ompi/attribute/attribute.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/async_progress.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/runtime.h"
#include "ompi/runtime/runtime_frameworks.h"
#include "ompi/runtime/wire_up.h"

namespace tessera::ompi::native {

int finalize()
{
    if (int rc = require_initialized(MPI_COMM_SELF, "MPI_Finalize"); rc != MPI_SUCCESS) {
        return rc;
    }
    Runtime &rt = runtime();
    int rc = MPI_SUCCESS;
    std::string problem;
    for (MPI_Comm comm : {MPI_COMM_SELF, MPI_COMM_WORLD}) {
        if (rc == MPI_SUCCESS) {
            rc = attr_delete_all(AttrKind::Comm, comm, &problem);
        }
    }
    /* The engine drains with the application's thread alone from here. */
    async_progress::stop();
    if (std::string down = wire_down(); !down.empty()) {
        rc = MPI_ERR_OTHER;
        problem = down;
    }
    if (orte::ess::finalize() != TESSERA_SUCCESS) {
        rc = MPI_ERR_OTHER;
        problem = rt.launch.launcher + " did not acknowledge MPI_Finalize";
    }
    close_runtime_frameworks();
    mpi_phase.store(Phase::Finalized, std::memory_order_release);
    if (rc != MPI_SUCCESS) {
        /* After the phase change: the job is over for this rank either way, and the handler (fatal by
         * default) must not try the connection that just failed. */
        return raise_on_comm(MPI_COMM_SELF, rc, "MPI_Finalize", problem);
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
