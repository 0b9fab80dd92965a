/* coll basic: the module of a communicator — the entries (ompi/coll/coll_entries.h) of the
 * intracommunicator algorithms or, on an intercommunicator, of the inter forms (no scan or exscan
 * there, MPI-4.1 6.11). */
#include "components/coll/basic/coll_basic.h"

#include "ompi/coll/coll_entries.h"

namespace tessera::ompi::coll_basic {

namespace {

struct Intra {
    static constexpr auto barrier = coll_basic::barrier;
    static constexpr auto bcast = coll_basic::bcast;
    static constexpr auto gather = coll_basic::gather;
    static constexpr auto gatherv = coll_basic::gatherv;
    static constexpr auto scatter = coll_basic::scatter;
    static constexpr auto scatterv = coll_basic::scatterv;
    static constexpr auto allgather = coll_basic::allgather;
    static constexpr auto allgatherv = coll_basic::allgatherv;
    static constexpr auto alltoall = coll_basic::alltoall;
    static constexpr auto alltoallv = coll_basic::alltoallv;
    static constexpr auto alltoallw = coll_basic::alltoallw;
    static constexpr auto reduce = coll_basic::reduce;
    static constexpr auto allreduce = coll_basic::allreduce;
    static constexpr auto reduce_scatter = coll_basic::reduce_scatter;
    static constexpr auto reduce_scatter_block = coll_basic::reduce_scatter_block;
    static constexpr auto scan = coll_basic::scan;
    static constexpr auto exscan = coll_basic::exscan;
};

struct Inter {
    static constexpr auto barrier = inter::barrier;
    static constexpr auto bcast = inter::bcast;
    static constexpr auto gather = inter::gather;
    static constexpr auto gatherv = inter::gatherv;
    static constexpr auto scatter = inter::scatter;
    static constexpr auto scatterv = inter::scatterv;
    static constexpr auto allgather = inter::allgather;
    static constexpr auto allgatherv = inter::allgatherv;
    static constexpr auto alltoall = inter::alltoall;
    static constexpr auto alltoallv = inter::alltoallv;
    static constexpr auto alltoallw = inter::alltoallw;
    static constexpr auto reduce = inter::reduce;
    static constexpr auto allreduce = inter::allreduce;
    static constexpr auto reduce_scatter = inter::reduce_scatter;
    static constexpr auto reduce_scatter_block = inter::reduce_scatter_block;
};

void module_release(mca_coll_base_module_t *module, tessera_comm *)
{
    delete module;
}

} // namespace

mca_coll_base_module_t *module_create(bool inter)
{
    auto *m = new mca_coll_base_module_t{};
    m->coll_component = &mca_coll_basic_component;
    m->coll_module_enable = nullptr; /* nothing kept per communicator */
    m->coll_module_release = module_release;
    if (inter) {
        coll::fill_entries<Inter>(m);
    } else {
        coll::fill_entries<Intra>(m);
    }
    return m;
}

} // namespace tessera::ompi::coll_basic
