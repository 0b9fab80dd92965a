/*
 * coll tuned: which algorithm serves a call. coll_tuned_<coll>_algorithm forces one; otherwise the
 * rules below decide from the message size and the communicator size, with the thresholds of the other
 * coll_tuned_<coll>_* parameters (defaults measured with tools/bench/coll, docs/coll.md). Every input of
 * a decision is the same on every rank of a correct program — sizes come from the side of the call
 * that is significant on the rank (a gather's root sizes its receive side, the others their send
 * side) — so that all ranks run the same algorithm. An algorithm that would reorder the operands of a
 * non-commutative op is replaced by one that keeps rank order.
 */
#include "components/coll/tuned/coll_tuned_util.h"

namespace tessera::ompi::coll_tuned {

namespace {

bool is_pow2(int n)
{
    return floor_pow2(n) == n;
}

std::size_t bytes(std::size_t count, const Datatype *type)
{
    return count * type->size;
}

} // namespace

void barrier(Schedule &s)
{
    if (s.size() == 1) {
        return;
    }
    if (static_cast<Barrier>(params.barrier_algorithm) == Barrier::Linear) {
        barrier_linear(s);
    } else {
        barrier_dissemination(s);
    }
}

void bcast(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root)
{
    const int n = s.size();
    const std::size_t size = bytes(count, type);
    if (n == 1 || size == 0) {
        return;
    }
    auto a = static_cast<Bcast>(params.bcast_algorithm);
    if (a == Bcast::Auto) {
        if (size <= params.bcast_linear_max_size && n <= params.bcast_linear_max_procs) {
            a = Bcast::Linear;
        } else if (size < params.bcast_pipeline_min_size) {
            a = Bcast::Binomial;
        } else {
            a = n <= params.bcast_chain_max_procs ? Bcast::Pipeline : Bcast::Binary;
        }
    }
    tessera_mpit_state_set(chosen.bcast, static_cast<int>(a));
    switch (a) {
    case Bcast::Linear:
        bcast_linear(s, buf, count, type, root);
        break;
    case Bcast::Pipeline:
        bcast_pipeline(s, buf, count, type, root);
        break;
    case Bcast::Binary:
        bcast_binary(s, buf, count, type, root);
        break;
    default:
        bcast_binomial(s, buf, count, type, root);
        break;
    }
}

void reduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op,
            int root)
{
    auto a = static_cast<Reduce>(params.reduce_algorithm);
    if (a == Reduce::Auto) {
        a = bytes(count, type) >= params.reduce_rabenseifner_min_size &&
                    count >= static_cast<std::size_t>(floor_pow2(s.size()))
                ? Reduce::Rabenseifner
                : Reduce::Binomial;
    }
    if (!op->commutative) {
        a = Reduce::Binomial;
    }
    tessera_mpit_state_set(chosen.reduce, static_cast<int>(a));
    if (a == Reduce::Rabenseifner) {
        reduce_rabenseifner(s, sbuf, rbuf, count, type, op, root);
    } else {
        reduce_binomial(s, sbuf, rbuf, count, type, op, root);
    }
}

void allreduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op)
{
    const int n = s.size();
    const std::size_t size = bytes(count, type);
    auto a = static_cast<Allreduce>(params.allreduce_algorithm);
    if (a == Allreduce::Auto) {
        const std::size_t rabenseifner =
            n == 2 ? params.allreduce_rabenseifner_min_size_np2 : params.allreduce_rabenseifner_min_size;
        if (n > 2 && n <= params.allreduce_linear_max_procs && size <= params.allreduce_linear_max_size) {
            a = Allreduce::Linear;
        } else if (size < rabenseifner || count < static_cast<std::size_t>(n)) {
            a = Allreduce::RecursiveDoubling;
        } else if (n > 2 && (!is_pow2(n) || size >= params.allreduce_ring_min_size)) {
            a = Allreduce::Ring;
        } else {
            a = Allreduce::Rabenseifner;
        }
    }
    if (!op->commutative && a != Allreduce::Linear) {
        a = Allreduce::RecursiveDoubling;
    }
    tessera_mpit_state_set(chosen.allreduce, static_cast<int>(a));
    switch (a) {
    case Allreduce::Linear:
        allreduce_linear(s, sbuf, rbuf, count, type, op);
        break;
    case Allreduce::Ring:
        allreduce_ring(s, sbuf, rbuf, count, type, op);
        break;
    case Allreduce::Rabenseifner:
        allreduce_rabenseifner(s, sbuf, rbuf, count, type, op);
        break;
    default:
        allreduce_recursive_doubling(s, sbuf, rbuf, count, type, op);
        break;
    }
}

namespace {

void reduce_scatter_with(int algorithm, Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts,
                         const Datatype *type, const Op *op)
{
    const int n = s.size();
    std::size_t total = 0;
    for (int p = 0; p < n; ++p) {
        total += rcounts[p];
    }
    auto a = static_cast<ReduceScatter>(algorithm);
    if (a == ReduceScatter::Auto) {
        const bool ring = (n == 2 || !is_pow2(n)) && bytes(total, type) >= params.reduce_scatter_ring_min_size;
        a = ring ? ReduceScatter::Ring : ReduceScatter::RecursiveHalving;
    }
    if (!op->commutative) {
        a = ReduceScatter::ReduceThenScatter;
    }
    switch (a) {
    case ReduceScatter::RecursiveHalving:
        reduce_scatter_halving(s, sbuf, rbuf, rcounts, type, op);
        break;
    case ReduceScatter::Ring:
        reduce_scatter_ring(s, sbuf, rbuf, rcounts, type, op);
        break;
    default:
        reduce_scatter_then_scatter(s, sbuf, rbuf, rcounts, type, op);
        break;
    }
}

} // namespace

void reduce_scatter(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts, const Datatype *type,
                    const Op *op)
{
    reduce_scatter_with(params.reduce_scatter_algorithm, s, sbuf, rbuf, rcounts, type, op);
}

void reduce_scatter_block(Schedule &s, const void *sbuf, void *rbuf, std::size_t rcount, const Datatype *type,
                          const Op *op)
{
    const std::vector<std::size_t> rcounts(static_cast<std::size_t>(s.size()), rcount);
    reduce_scatter_with(params.reduce_scatter_block_algorithm, s, sbuf, rbuf, rcounts.data(), type, op);
}

void allgather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
               std::size_t rcount, const Datatype *rtype)
{
    const int n = s.size();
    auto a = static_cast<Allgather>(params.allgather_algorithm);
    if (a == Allgather::Auto) {
        if (bytes(rcount, rtype) * static_cast<std::size_t>(n) >= params.allgather_ring_min_size) {
            a = Allgather::Ring;
        } else if (n <= params.allgather_linear_max_procs) {
            a = Allgather::Linear;
        } else {
            a = is_pow2(n) ? Allgather::RecursiveDoubling : Allgather::Bruck;
        }
    }
    tessera_mpit_state_set(chosen.allgather, static_cast<int>(a));
    switch (a) {
    case Allgather::Linear:
        allgather_linear(s, sbuf, scount, stype, rbuf, rcount, rtype);
        break;
    case Allgather::RecursiveDoubling:
        allgather_recursive_doubling(s, sbuf, scount, stype, rbuf, rcount, rtype);
        break;
    case Allgather::Ring:
        allgather_ring(s, sbuf, scount, stype, rbuf, rcount, rtype);
        break;
    default:
        allgather_bruck(s, sbuf, scount, stype, rbuf, rcount, rtype);
        break;
    }
}

void allgatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype)
{
    auto a = static_cast<Allgatherv>(params.allgatherv_algorithm);
    if (a == Allgatherv::Auto) {
        std::size_t total = 0;
        for (int p = 0; p < s.size(); ++p) {
            total += rcounts[p];
        }
        a = bytes(total, rtype) >= params.allgatherv_ring_min_size ? Allgatherv::Ring : Allgatherv::Linear;
    }
    if (a == Allgatherv::Ring) {
        allgatherv_ring(s, sbuf, scount, stype, rbuf, rcounts, displs, rtype);
    } else {
        allgatherv_linear(s, sbuf, scount, stype, rbuf, rcounts, displs, rtype);
    }
}

void alltoall(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
              std::size_t rcount, const Datatype *rtype)
{
    const std::size_t block = bytes(rcount, rtype);
    auto a = static_cast<Alltoall>(params.alltoall_algorithm);
    if (a == Alltoall::Auto) {
        if (s.size() >= params.alltoall_bruck_min_procs && block <= params.alltoall_bruck_max_block) {
            a = Alltoall::Bruck;
        } else {
            a = block <= params.alltoall_linear_max_block || s.size() <= params.alltoall_linear_max_procs
                    ? Alltoall::Linear
                    : Alltoall::Pairwise;
        }
    }
    tessera_mpit_state_set(chosen.alltoall, static_cast<int>(a));
    switch (a) {
    case Alltoall::Pairwise:
        alltoall_pairwise(s, sbuf, scount, stype, rbuf, rcount, rtype);
        break;
    case Alltoall::Bruck:
        alltoall_bruck(s, sbuf, scount, stype, rbuf, rcount, rtype);
        break;
    default:
        alltoall_linear(s, sbuf, scount, stype, rbuf, rcount, rtype);
        break;
    }
}

namespace {

/* Gather and scatter: the binomial tree for small blocks on many ranks. */
bool rooted_binomial(int algorithm, int n, std::size_t block, std::size_t max_block, int min_procs)
{
    const auto a = static_cast<Rooted>(algorithm);
    return a == Rooted::Binomial || (a == Rooted::Auto && n >= min_procs && block <= max_block);
}

} // namespace

void gather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
            std::size_t rcount, const Datatype *rtype, int root)
{
    const std::size_t block = s.rank() == root ? bytes(rcount, rtype) : bytes(scount, stype);
    if (rooted_binomial(params.gather_algorithm, s.size(), block, params.gather_binomial_max_block,
                        params.gather_binomial_min_procs)) {
        gather_binomial(s, sbuf, scount, stype, rbuf, rcount, rtype, root);
    } else {
        gather_linear(s, sbuf, scount, stype, rbuf, rcount, rtype, root);
    }
}

void scatter(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             std::size_t rcount, const Datatype *rtype, int root)
{
    const std::size_t block = s.rank() == root ? bytes(scount, stype) : bytes(rcount, rtype);
    if (rooted_binomial(params.scatter_algorithm, s.size(), block, params.scatter_binomial_max_block,
                        params.scatter_binomial_min_procs)) {
        scatter_binomial(s, sbuf, scount, stype, rbuf, rcount, rtype, root);
    } else {
        scatter_linear(s, sbuf, scount, stype, rbuf, rcount, rtype, root);
    }
}

void scan(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op)
{
    scan_recursive_doubling(s, sbuf, rbuf, count, type, op);
}

void exscan(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op)
{
    exscan_recursive_doubling(s, sbuf, rbuf, count, type, op);
}

} // namespace tessera::ompi::coll_tuned
