/*
 * The engine on a fake btl (fake_btl.h): this process is rank 0 of a pretend MPI_COMM_WORLD whose
 * other ranks answer with what was sent to them. MPI counts as initialized, so the native MPI
 * functions run too; errors return (MPI_ERRORS_RETURN) instead of ending the test.
 */
#ifndef TESSERA_TESTS_UNIT_PML_PML_FIXTURE_H
#define TESSERA_TESTS_UNIT_PML_PML_FIXTURE_H

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "fake_btl.h"
#include "ompi/pml/pml_engine.h"

namespace tessera::test {

class PmlTest : public ::testing::Test {
protected:
    /* Builds the world and starts the engine; call first in each test. */
    void start(int ranks, const std::vector<FakeModuleSpec> &modules);
    void TearDown() override;

    /* Engine-level requests, as the MPI functions make them (MPI_COMM_WORLD). */
    ompi::pml::Request *isend(int dest, int tag, const void *buf, std::size_t count, MPI_Datatype type = MPI_BYTE,
                              ompi::pml::SendMode mode = ompi::pml::SendMode::Standard);
    ompi::pml::Request *irecv(int source, int tag, void *buf, std::size_t count, MPI_Datatype type = MPI_BYTE);
    /* Returns the request to the free list after checking it is complete. */
    void release(ompi::pml::Request *r);

    std::unique_ptr<FakeBtl> btl;
    ompi::pml::Params saved_params;
    int saved_striping = 0;
};

} // namespace tessera::test

#endif
