/* coll neighbor: registration, and a module for each communicator with a virtual topology. */
#include "components/coll/neighbor/coll_neighbor.h"

#include "mca/var.h"

namespace tessera::ompi::coll_neighbor {

/* Above basic's: were basic to offer neighbourhood collectives one day, the topology-aware ones win. */
int priority = 20;

namespace {

int register_params(const mca_base_component_t *)
{
    const int rc = mca_var_register("coll", "neighbor", "priority",
                                    "Priority of the neighbourhood collectives of communicators with a virtual "
                                    "topology (MPI_Neighbor_*); communicators without one get no module from it",
                                    MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, MCA_VAR_SCOPE_LOCAL,
                                    MCA_VAR_FLAG_NONE, &priority);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

mca_coll_base_module_t *comm_query(struct tessera_comm *comm, int *out_priority)
{
    const Communicator *c = coll::of(comm);
    if (c->topo == nullptr || c->is_inter()) {
        return nullptr;
    }
    *out_priority = priority;
    return module_create(neighborhood(*c->topo, c->rank));
}

} // namespace
} // namespace tessera::ompi::coll_neighbor

using namespace tessera::ompi::coll_neighbor;

mca_coll_base_component_t mca_coll_neighbor_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_coll_base_component_t, "coll", MCA_COLL_BASE_VERSION, "neighbor", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = nullptr,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .coll_init_query = nullptr,
    .coll_comm_query = comm_query,
    .reserved = {},
};
