#include "ompi/communicator/comm_build.h"

#include <atomic>
#include <cstdint>

#include "ompi/coll/coll_comm.h"
#include "ompi/communicator/comm_context.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/topo/topology.h"

namespace tessera::ompi::comm {

namespace {

/* Attaches the matching state and selects the collectives; "" or what failed. */
std::string start(Communicator &c)
{
    pml::comm_attach(c);
    return coll_comm_enable(c);
}

} // namespace

int build(Communicator *c, Spec spec, const Agreed &agreed, std::string *error)
{
    const std::vector<std::uint32_t> &ids = agreed.ids;
    c->procs = std::move(spec.procs);
    c->size = static_cast<int>(c->procs.size());
    c->rank = spec.rank;
    c->remote_procs = std::move(spec.remote_procs);
    c->context_id = ids[0];
    c->generation = agreed.generation;
    if (handle_state(c) != handle_bits::kPending) { /* an idup's: the handler given it meanwhile stays */
        errhandler_assign(&c->errhandler, spec.errhandler);
    }
    c->info = std::move(spec.info);
    c->topo = std::move(spec.topo);
    if (c->is_inter()) {
        /* Hidden: no handle, so never seen by the application; its errors return. */
        auto *local = new Communicator{};
        local->procs = c->procs;
        local->size = c->size;
        local->rank = c->rank;
        local->context_id = ids[1];
        local->generation = agreed.generation;
        local->errhandler = MPI_ERRORS_RETURN;
        c->local_comm = local;
        if (std::string problem = start(*local); !problem.empty()) {
            *error = problem;
            cid::release(ids[0]);
            return MPI_ERR_INTERN;
        }
    }
    if (std::string problem = start(*c); !problem.empty()) {
        *error = problem;
        return MPI_ERR_INTERN;
    }
    /* An MPI_Comm_idup's communicator is completed by whichever thread progresses it, while the
     * application's threads may look its handle up: opening the handle publishes it (release order). */
    handle_open(c);
    return MPI_SUCCESS;
}

void dismantle(Communicator *c)
{
    handle_close(c);
    if (c->coll != nullptr) {
        coll_comm_disable(*c);
    }
    if (c->pml != nullptr) {
        pml::comm_detach(*c);
        cid::release(c->context_id);
    }
    if (c->local_comm != nullptr) {
        dismantle(c->local_comm);
        delete c->local_comm;
        c->local_comm = nullptr;
    }
    errhandler_assign(&c->errhandler, MPI_ERRORS_ARE_FATAL);
}

} // namespace tessera::ompi::comm
