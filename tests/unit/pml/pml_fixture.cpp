#include "pml_fixture.h"

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "ompi/pml/pml.h"
#include "ompi/runtime/runtime.h"

namespace tessera::test {

using ompi::pml::Request;

void PmlTest::start(int ranks, const std::vector<FakeModuleSpec> &modules)
{
    saved_params = ompi::pml::params;
    saved_striping = mca_btl_base_striping;
    btl = std::make_unique<FakeBtl>(ranks, modules);
    ompi::comm_init_predefined(0, ranks);
    ompi::comm_world().errhandler = MPI_ERRORS_RETURN;
    ompi::comm_self().errhandler = MPI_ERRORS_RETURN;
    ompi::Runtime &rt = ompi::runtime();
    rt.launch.rank = 0;
    rt.launch.size = ranks;
    rt.world_procs = btl->procs();
    ASSERT_EQ(ompi::pml::init(), MPI_SUCCESS);
    ompi::mpi_phase = ompi::Phase::Initialized;
}

void PmlTest::TearDown()
{
    if (btl == nullptr) {
        return;
    }
    /* Whatever a test left in the wire is delivered, so that the engine owes nothing. */
    btl->hold = false;
    btl->refuse = 0;
    btl->deliver_all();
    ompi::pml::quiesce();
    ompi::mpi_phase = ompi::Phase::NotInitialized;
    ompi::pml::finalize();
    ompi::runtime().world_procs.clear();
    ompi::comm_world().procs.clear();
    ompi::comm_self().procs.clear();
    ompi::pml::params = saved_params;
    mca_btl_base_striping = saved_striping;
    btl.reset();
}

Request *PmlTest::isend(int dest, int tag, const void *buf, std::size_t count, MPI_Datatype type,
                        ompi::pml::SendMode mode)
{
    Request *r = ompi::pml::request_alloc();
    r->kind = ompi::pml::Kind::Send;
    r->mode = mode;
    r->sbuf = buf;
    r->count = count;
    /* The references request_release gives back: a derived type the test frees afterwards must not be
     * released once more than it was retained. */
    ompi::pml::request_set_type(r, ompi::datatype_lookup(type));
    ompi::pml::request_set_comm(r, &ompi::comm_world());
    r->peer = dest;
    r->tag = tag;
    EXPECT_EQ(ompi::pml::start_send(r), MPI_SUCCESS);
    return r;
}

Request *PmlTest::irecv(int source, int tag, void *buf, std::size_t count, MPI_Datatype type)
{
    Request *r = ompi::pml::request_alloc();
    r->kind = ompi::pml::Kind::Recv;
    r->rbuf = buf;
    r->count = count;
    ompi::pml::request_set_type(r, ompi::datatype_lookup(type));
    ompi::pml::request_set_comm(r, &ompi::comm_world());
    r->peer = source;
    r->tag = tag;
    EXPECT_EQ(ompi::pml::start_recv(r), MPI_SUCCESS);
    return r;
}

void PmlTest::release(Request *r)
{
    EXPECT_TRUE(r->complete);
    ompi::pml::request_release(r);
}

} // namespace tessera::test
