/* coll tuned: the module of an intracommunicator — the entries (ompi/coll/coll_entries.h) of the
 * decisions of coll_tuned_decision.cpp, each choosing an algorithm per call. */
#include "components/coll/tuned/coll_tuned.h"

#include "ompi/coll/coll_entries.h"

namespace tessera::ompi::coll_tuned {

namespace {

struct Decisions {
    static constexpr auto barrier = coll_tuned::barrier;
    static constexpr auto bcast = coll_tuned::bcast;
    static constexpr auto gather = coll_tuned::gather;
    static constexpr auto scatter = coll_tuned::scatter;
    static constexpr auto allgather = coll_tuned::allgather;
    static constexpr auto allgatherv = coll_tuned::allgatherv;
    static constexpr auto alltoall = coll_tuned::alltoall;
    static constexpr auto reduce = coll_tuned::reduce;
    static constexpr auto allreduce = coll_tuned::allreduce;
    static constexpr auto reduce_scatter = coll_tuned::reduce_scatter;
    static constexpr auto reduce_scatter_block = coll_tuned::reduce_scatter_block;
    static constexpr auto scan = coll_tuned::scan;
    static constexpr auto exscan = coll_tuned::exscan;
};

void module_release(mca_coll_base_module_t *module, tessera_comm *)
{
    delete module;
}

} // namespace

mca_coll_base_module_t *module_create()
{
    auto *m = new mca_coll_base_module_t{};
    m->coll_component = &mca_coll_tuned_component;
    m->coll_module_enable = nullptr; /* the decisions need nothing per communicator */
    m->coll_module_release = module_release;
    coll::fill_entries<Decisions>(m);
    return m;
}

} // namespace tessera::ompi::coll_tuned
