/*
 * coll basic: the intercommunicator forms (MPI-4.1 6.2.2). Data moves between the two groups; what must
 * happen inside one group (the reductions, the barrier's fan-in) runs with the schedule's local-group
 * steps, over the intercommunicator's hidden local_comm, with the intracommunicator algorithms of this
 * component. Ranks given to send and recv name the remote group, and s.rank()/s.size() are the local
 * group's. Rooted collectives: the root's group passes MPI_ROOT (the root) or MPI_PROC_NULL (no part),
 * the other group the root's rank in the remote group; the root's blocks are the remote group's.
 */
#include "components/coll/basic/coll_basic.h"

namespace tessera::ompi::coll_basic::inter {

namespace {

const Datatype *byte_type()
{
    return datatype_lookup(MPI_BYTE);
}

/* `count` elements per rank of the remote group, one block after the other. */
Blocks remote_blocks(const Schedule &s, std::size_t count)
{
    const auto n = static_cast<std::size_t>(s.remote_size());
    Blocks b{std::vector<std::size_t>(n, count), std::vector<std::ptrdiff_t>(n)};
    for (std::size_t p = 0; p < n; ++p) {
        b.displs[p] = static_cast<std::ptrdiff_t>(p * count);
    }
    return b;
}

/* Steps among the local group while it lives. */
class LocalGroup {
public:
    explicit LocalGroup(Schedule &s) : s_(s) { s_.local_group(true); }
    ~LocalGroup() { s_.local_group(false); }
    LocalGroup(const LocalGroup &) = delete;
    LocalGroup &operator=(const LocalGroup &) = delete;

private:
    Schedule &s_;
};

/* The reduction of the local group's operands, in rank order, at local rank 0 in `result`. */
void reduce_locally(Schedule &s, const void *sbuf, void *result, std::size_t count, const Datatype *type,
                    const Op *op)
{
    LocalGroup local(s);
    coll_basic::reduce(s, sbuf, result, count, type, op, 0);
    s.round();
}

} // namespace

/* Each group gathers at its rank 0; the two rank 0s trade an empty message; each releases its group. */
void barrier(Schedule &s)
{
    {
        LocalGroup local(s);
        coll_basic::barrier_fan_in(s);
        s.round();
    }
    if (s.rank() == 0) {
        s.recv(nullptr, 0, byte_type(), 0);
        s.send(nullptr, 0, byte_type(), 0);
        s.round();
    }
    LocalGroup local(s);
    coll_basic::barrier_fan_out(s);
}

void bcast(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root)
{
    if (root == MPI_ROOT) {
        for (int p = 0; p < s.remote_size(); ++p) {
            s.send(buf, count, type, p);
        }
    } else if (root != MPI_PROC_NULL) {
        s.recv(buf, count, type, root);
    }
}

void gatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype, int root)
{
    if (root == MPI_ROOT) {
        for (int p = 0; p < s.remote_size(); ++p) {
            s.recv(element(rbuf, displs[p], rtype), rcounts[p], rtype, p);
        }
    } else if (root != MPI_PROC_NULL) {
        s.send(sbuf, scount, stype, root);
    }
}

void gather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
            std::size_t rcount, const Datatype *rtype, int root)
{
    const Blocks b = remote_blocks(s, rcount);
    gatherv(s, sbuf, scount, stype, rbuf, b.counts.data(), b.displs.data(), rtype, root);
}

void scatterv(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *displs,
              const Datatype *stype, void *rbuf, std::size_t rcount, const Datatype *rtype, int root)
{
    if (root == MPI_ROOT) {
        for (int p = 0; p < s.remote_size(); ++p) {
            s.send(element(sbuf, displs[p], stype), scounts[p], stype, p);
        }
    } else if (root != MPI_PROC_NULL) {
        s.recv(rbuf, rcount, rtype, root);
    }
}

void scatter(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             std::size_t rcount, const Datatype *rtype, int root)
{
    const Blocks b = remote_blocks(s, scount);
    scatterv(s, sbuf, b.counts.data(), b.displs.data(), stype, rbuf, rcount, rtype, root);
}

/* Every process sends its block to every process of the other group and receives theirs. */
void allgatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype)
{
    for (int p = 0; p < s.remote_size(); ++p) {
        s.recv(element(rbuf, displs[p], rtype), rcounts[p], rtype, p);
        s.send(sbuf, scount, stype, p);
    }
}

void allgather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
               std::size_t rcount, const Datatype *rtype)
{
    const Blocks b = remote_blocks(s, rcount);
    allgatherv(s, sbuf, scount, stype, rbuf, b.counts.data(), b.displs.data(), rtype);
}

/* Block p of the send side goes to process p of the other group; block p of the receive side comes
 * from it. Displacements in bytes. */
void alltoallw(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *sdispls,
               const mca_coll_dt_t *stypes, void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *rdispls,
               const mca_coll_dt_t *rtypes)
{
    for (int p = 0; p < s.remote_size(); ++p) {
        s.recv(static_cast<char *>(rbuf) + rdispls[p], rcounts[p], coll::of(rtypes[p]), p);
        s.send(static_cast<const char *>(sbuf) + sdispls[p], scounts[p], coll::of(stypes[p]), p);
    }
}

void alltoallv(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *sdispls,
               const Datatype *stype, void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *rdispls,
               const Datatype *rtype)
{
    for (int p = 0; p < s.remote_size(); ++p) {
        s.recv(element(rbuf, rdispls[p], rtype), rcounts[p], rtype, p);
        s.send(element(sbuf, sdispls[p], stype), scounts[p], stype, p);
    }
}

void alltoall(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
              std::size_t rcount, const Datatype *rtype)
{
    const Blocks send = remote_blocks(s, scount), recv = remote_blocks(s, rcount);
    alltoallv(s, sbuf, send.counts.data(), send.displs.data(), stype, rbuf, recv.counts.data(), recv.displs.data(),
              rtype);
}

/* The other group reduces at its rank 0, which sends the result to the root. */
void reduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op,
            int root)
{
    if (root == MPI_ROOT) {
        s.recv(rbuf, count, type, 0);
        return;
    }
    if (root == MPI_PROC_NULL) {
        return;
    }
    void *result = s.rank() == 0 ? s.scratch(count, type) : nullptr;
    reduce_locally(s, sbuf, result, count, type, op);
    if (s.rank() == 0) {
        s.send(result, count, type, root);
    }
}

/* Each group reduces at its rank 0; the two trade their results, and each broadcasts the other
 * group's to its own. */
void allreduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op)
{
    void *mine = s.rank() == 0 ? s.scratch(count, type) : nullptr;
    reduce_locally(s, sbuf, mine, count, type, op);
    if (s.rank() == 0) {
        s.recv(rbuf, count, type, 0);
        s.send(mine, count, type, 0);
        s.round();
    }
    LocalGroup local(s);
    coll_basic::bcast(s, rbuf, count, type, 0);
}

/* Each group reduces its whole vector at its rank 0; the two trade them, and each scatters the other
 * group's over its own by recvcounts (both vectors have the same length, MPI-4.1 6.10.1). */
void reduce_scatter(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts, const Datatype *type,
                    const Op *op)
{
    const auto n = static_cast<std::size_t>(s.size());
    std::vector<std::ptrdiff_t> displs(n);
    std::size_t total = 0;
    for (std::size_t p = 0; p < n; ++p) {
        displs[p] = static_cast<std::ptrdiff_t>(total);
        total += rcounts[p];
    }
    const bool leader = s.rank() == 0;
    void *mine = leader ? s.scratch(total, type) : nullptr;
    void *theirs = leader ? s.scratch(total, type) : nullptr;
    reduce_locally(s, sbuf, mine, total, type, op);
    if (leader) {
        s.recv(theirs, total, type, 0);
        s.send(mine, total, type, 0);
        s.round();
    }
    LocalGroup local(s);
    coll_basic::scatterv(s, theirs, rcounts, displs.data(), type, rbuf, rcounts[s.rank()], type, 0);
}

void reduce_scatter_block(Schedule &s, const void *sbuf, void *rbuf, std::size_t rcount, const Datatype *type,
                          const Op *op)
{
    reduce_scatter(s, sbuf, rbuf, uniform_blocks(s, rcount).counts.data(), type, op);
}

} // namespace tessera::ompi::coll_basic::inter
