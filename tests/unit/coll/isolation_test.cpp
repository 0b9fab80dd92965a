/* Internal traffic (negative tags, pml_internal.h) against the application's wildcards: MPI_ANY_TAG
 * receives, probes and matched probes never take it; an internal receive takes it. */
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "ompi/pml/pml_internal.h"
#include "pml_fixture.h"

namespace tessera::test {
namespace {

using ompi::pml::Request;

class CollIsolation : public PmlTest {};

constexpr int kInternalTag = ompi::pml::kTagCollFirst - 4;

TEST_F(CollIsolation, WildcardReceivesProbesAndMatchedProbesNeverTakeInternalMessages)
{
    start(2, {{}});
    ompi::Communicator *world = &ompi::comm_world();
    const ompi::Datatype *int_type = ompi::datatype_lookup(MPI_INT);
    int user = -1;
    Request *wildcard = irecv(MPI_ANY_SOURCE, MPI_ANY_TAG, &user, 1, MPI_INT);
    const int internal_value = 99;
    Request *internal_send = ompi::pml::isend(&internal_value, 1, int_type, 1, kInternalTag, world);
    btl->deliver_all();
    EXPECT_FALSE(wildcard->complete) << "a receive with MPI_ANY_TAG took an internal message";
    MPI_Status st;
    EXPECT_FALSE(ompi::pml::probe(world, MPI_ANY_SOURCE, MPI_ANY_TAG, &st));
    EXPECT_EQ(ompi::pml::mprobe(world, MPI_ANY_SOURCE, MPI_ANY_TAG, &st), nullptr);
    /* The internal receive takes it from the unexpected queue. */
    int got = -1;
    Request *internal_recv = ompi::pml::irecv(&got, 1, int_type, 1, kInternalTag, world);
    EXPECT_TRUE(internal_recv->complete);
    EXPECT_EQ(got, 99);
    EXPECT_EQ(internal_recv->status.MPI_TAG, kInternalTag);
    /* A user message completes the wildcard. */
    const int user_value = 7;
    Request *user_send = isend(1, 3, &user_value, 1, MPI_INT);
    btl->deliver_all();
    EXPECT_TRUE(wildcard->complete);
    EXPECT_EQ(user, 7);
    EXPECT_EQ(wildcard->status.MPI_TAG, 3);
    for (Request *r : {wildcard, internal_send, internal_recv, user_send}) {
        release(r);
    }
}

TEST_F(CollIsolation, AnInternalReceivePostedFirstLeavesUserMessagesToUserReceives)
{
    start(2, {{}});
    ompi::Communicator *world = &ompi::comm_world();
    const ompi::Datatype *int_type = ompi::datatype_lookup(MPI_INT);
    int internal = -1, user = -1;
    Request *internal_recv = ompi::pml::irecv(&internal, 1, int_type, 1, kInternalTag, world);
    const int user_value = 5, internal_value = 6;
    Request *user_send = isend(1, 0, &user_value, 1, MPI_INT);
    Request *internal_send = ompi::pml::isend(&internal_value, 1, int_type, 1, kInternalTag, world);
    btl->deliver_all();
    EXPECT_EQ(internal, 6);
    Request *user_recv = irecv(1, MPI_ANY_TAG, &user, 1, MPI_INT);
    EXPECT_TRUE(user_recv->complete);
    EXPECT_EQ(user, 5);
    for (Request *r : {internal_recv, user_send, internal_send, user_recv}) {
        release(r);
    }
}

TEST_F(CollIsolation, InternalRequestsToProcNullCompleteAtOnce)
{
    start(2, {{}});
    int x = 0;
    Request *s = ompi::pml::isend(&x, 1, ompi::datatype_lookup(MPI_INT), MPI_PROC_NULL, kInternalTag,
                                  &ompi::comm_world());
    Request *r = ompi::pml::irecv(&x, 1, ompi::datatype_lookup(MPI_INT), MPI_PROC_NULL, kInternalTag,
                                  &ompi::comm_world());
    EXPECT_TRUE(s->complete);
    EXPECT_TRUE(r->complete);
    EXPECT_EQ(r->status.MPI_SOURCE, MPI_PROC_NULL);
    EXPECT_TRUE(btl->wire.empty());
    release(s);
    release(r);
}

} // namespace
} // namespace tessera::test
