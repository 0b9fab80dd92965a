/* coll sm: the module's collectives through the communicator's segment (coll_sm.h). */
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "components/coll/sm/coll_sm.h"
#include "frameworks/coll/base/base.h"
#include "mca/report.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/datatype/convertor.h"
#include "ompi/pml/pml_engine.h"
#include "opal/threads.h"

namespace tessera::ompi::coll_sm {

namespace {

using coll::of;
using coll::to_c;

/* For each collective of this module, the module below it in the communicator's table that has it. */
struct Below {
    mca_coll_base_barrier_fn_t barrier = nullptr;
    mca_coll_base_module_t *barrier_module = nullptr;
    mca_coll_base_bcast_fn_t bcast = nullptr;
    mca_coll_base_module_t *bcast_module = nullptr;
    mca_coll_base_allreduce_fn_t allreduce = nullptr;
    mca_coll_base_module_t *allreduce_module = nullptr;
    mca_coll_base_alltoall_fn_t alltoall = nullptr;
    mca_coll_base_module_t *alltoall_module = nullptr;
    mca_coll_base_allgather_fn_t allgather = nullptr;
    mca_coll_base_module_t *allgather_module = nullptr;
    mca_coll_base_reduce_fn_t reduce = nullptr;
    mca_coll_base_module_t *reduce_module = nullptr;
};

struct State {
    enum class Phase : std::uint8_t { Unset, Ready, Off };
    bool known = false; /* below, rank and size: at the first call (the table is complete by then) */
    Phase phase = Phase::Unset;
    int rank = 0;
    int size = 0;
    Below below;
    Segment segment;
    std::uint64_t seq = 0;    /* the last collective made through the segment */
    std::uint64_t all_in = 0; /* every flag has been seen at this or later */
};

State &state_of(mca_coll_base_module_t *module)
{
    return *static_cast<State *>(module->module_state);
}

/* The table lists its modules by ascending priority: the last one before `self` that has the
 * collective is the one that would serve it without this component. */
template <typename Fn>
void find_below(const mca_coll_base_comm_coll_t *table, const mca_coll_base_module_t *self,
                Fn mca_coll_base_module_t::*slot, Fn *fn, mca_coll_base_module_t **module)
{
    for (std::size_t i = 0; i < table->module_count && table->modules[i] != self; ++i) {
        if (table->modules[i]->*slot != nullptr) {
            *fn = table->modules[i]->*slot;
            *module = table->modules[i];
        }
    }
}

State &prepared(mca_coll_base_module_t *module, tessera_comm *comm)
{
    State &st = state_of(module);
    if (!st.known) [[unlikely]] {
        const Communicator *c = of(comm);
        const mca_coll_base_comm_coll_t *table = c->coll;
        Below &b = st.below;
        find_below(table, module, &mca_coll_base_module_t::coll_barrier, &b.barrier, &b.barrier_module);
        find_below(table, module, &mca_coll_base_module_t::coll_bcast, &b.bcast, &b.bcast_module);
        find_below(table, module, &mca_coll_base_module_t::coll_allreduce, &b.allreduce, &b.allreduce_module);
        find_below(table, module, &mca_coll_base_module_t::coll_alltoall, &b.alltoall, &b.alltoall_module);
        find_below(table, module, &mca_coll_base_module_t::coll_allgather, &b.allgather, &b.allgather_module);
        find_below(table, module, &mca_coll_base_module_t::coll_reduce, &b.reduce, &b.reduce_module);
        st.rank = c->rank;
        st.size = c->size;
        st.known = true;
    }
    return st;
}

/* One try at making the segment (coll_sm.h): rank 0 creates it and sends where it is with the bcast
 * below, the others map it, the allreduce below (MIN) gives every rank the least outcome, and rank 0
 * then closes the way in. Every rank of the communicator is in the same collective call. */
Segment::Outcome attempt(State &st, tessera_comm *comm, Segment::Kind kind, std::string *error)
{
    static std::atomic<unsigned> made{0};
    const Communicator *c = of(comm);
    char where[96] = {};
    int mine = Segment::kMapped;
    /* Rank 0's failure to make it: an unnamed one may still be made named; a named one cannot. */
    const int not_made = kind == Segment::Kind::Unnamed ? Segment::kUnreachable : Segment::kRefused;
    if (st.rank == 0) {
        char name[96] = {};
        if (kind == Segment::Kind::Named) {
            const tessera_proc_name_t &me = c->procs[0]->proc_name;
            std::snprintf(name, sizeof name, "/tessera-%u-coll-%u-%u", me.jobid, me.rank, made++);
        }
        /* Rank 0's coll_sm_unnamed alone decides: ranks that disagree still make the same calls. */
        const bool wanted = kind == Segment::Kind::Named || params.unnamed;
        if (wanted && st.segment.create(kind, name, st.size, params.depth, params.max_bytes, error)) {
            std::snprintf(where, sizeof where, "%s", st.segment.where().c_str());
        } else {
            mine = not_made;
        }
    }
    int rc = st.below.bcast(where, sizeof where, to_c(datatype_lookup(MPI_BYTE)), 0, comm, st.below.bcast_module);
    if (st.rank != 0) {
        mine = rc != MPI_SUCCESS ? Segment::kRefused
               : where[0] == '\0' ? not_made
                                   : st.segment.attach(kind, where, st.size, params.depth, params.max_bytes, error);
    }
    int all = Segment::kRefused;
    rc = st.below.allreduce(&mine, &all, 1, to_c(datatype_lookup(MPI_INT)), to_c(op_lookup(MPI_MIN)), comm,
                            st.below.allreduce_module);
    st.segment.forget(); /* every rank has mapped it or given up */
    const auto outcome = rc == MPI_SUCCESS ? static_cast<Segment::Outcome>(all) : Segment::kRefused;
    if (outcome != Segment::kMapped) {
        st.segment.unmap();
    }
    return outcome;
}

/* Makes the segment: unnamed, or named when some rank cannot reach rank 0's unnamed one (or rank 0's
 * coll_sm_unnamed is false). */
void set_up(State &st, tessera_comm *comm)
{
    st.phase = State::Phase::Off;
    if (st.below.bcast == nullptr || st.below.allreduce == nullptr) {
        return;
    }
    std::string error;
    Segment::Outcome outcome = attempt(st, comm, Segment::Kind::Unnamed, &error);
    if (outcome == Segment::kUnreachable) {
        error.clear();
        outcome = attempt(st, comm, Segment::Kind::Named, &error);
    }
    if (outcome == Segment::kMapped) {
        st.phase = State::Phase::Ready;
        return;
    }
    if (!error.empty()) {
        tessera::mca::report(tessera::mca::Severity::Warning,
                             "coll sm: " + error + "; the collectives of " + comm_label(*of(comm)) +
                                 " go to the components below it");
    }
}

/* The component below's form of the collective: fn(args..., module). A table where nothing is below
 * (coll parameter excluding the others) gets MPI_ERR_UNSUPPORTED_OPERATION for what this one cannot do. */
template <typename Fn, typename... Args>
int call_below(Fn fn, mca_coll_base_module_t *module, Args... args)
{
    return fn != nullptr ? fn(args..., module) : MPI_ERR_UNSUPPORTED_OPERATION;
}

bool usable(State &st, tessera_comm *comm)
{
    if (st.phase == State::Phase::Unset) [[unlikely]] {
        set_up(st, comm);
    }
    return st.phase == State::Phase::Ready;
}

/* Pauses between two polls of a line another process is writing (coll_sm_pauses). */
inline void relax(int pauses)
{
    for (int i = 0; i < pauses; ++i) {
        tessera::opal::cpu_relax();
    }
}

/* What a reader will read of a slot once its head says so. Fetched between polls, its lines cross
 * between the caches with the head's line instead of after it: 2 ranks, 64-byte alltoall blocks (head
 * and block on two lines), 0.56-0.61 -> 0.51-0.54 us with the VM's cores far apart. */
struct Span {
    const char *from = nullptr;
    std::size_t bytes = 0;
};

/* The cache lines a Span covers, at most coll_sm_fetch_lines of them: worked out once per wait. */
struct Lines {
    static constexpr std::uintptr_t kCacheLine = 64;
    std::uintptr_t first = 0;
    std::uintptr_t end = 0;

    explicit Lines(Span span)
        : first(reinterpret_cast<std::uintptr_t>(span.from) & ~(kCacheLine - 1)),
          end(std::min(reinterpret_cast<std::uintptr_t>(span.from) + span.bytes,
                       first + static_cast<std::uintptr_t>(params.fetch_lines) * kCacheLine))
    {
    }
};

inline void fetch(Lines lines)
{
    for (std::uintptr_t at = lines.first; at < lines.end; at += Lines::kCacheLine) {
        /* Not __builtin_prefetch: with -ffinite-loops (C++ at -O2) GCC 12 deletes a loop of nothing else. */
#if defined(__x86_64__) || defined(__i386__)
        asm volatile("prefetcht0 %0" ::"m"(*reinterpret_cast<const char *>(at)));
#else
        __builtin_prefetch(reinterpret_cast<const void *>(at));
#endif
    }
}

/* Waits until `seq` (a flag or a slot's head) reaches k; returns what it read. */
std::uint64_t await(const std::atomic<std::uint64_t> &seq, std::uint64_t k, Span span = {})
{
    std::uint64_t seen = seq.load(std::memory_order_acquire);
    if (seen < k) {
        const int pauses = params.pauses >= 0 ? params.pauses : pml::oversubscribed ? 0 : 1;
        const Lines lines(span);
        pml::wait_until([&seq, &seen, k, pauses, lines] {
            for (int i = 0; i < params.polls; ++i) {
                if ((seen = seq.load(std::memory_order_acquire)) >= k) {
                    return true;
                }
                relax(pauses);
                fetch(lines);
            }
            return false;
        });
    }
    return seen;
}

/* Every rank has entered collective k (so has finished k - 1). What the flags say beyond k is kept: a
 * later call asking less reads none of them. */
void await_all(State &st, std::uint64_t k)
{
    if (st.all_in >= k) {
        return;
    }
    std::uint64_t least = ~std::uint64_t{0};
    for (int j = 0; j < st.size; ++j) {
        if (j != st.rank) {
            least = std::min(least, await(st.segment.flag(j).seq, k));
        }
    }
    st.all_in = least;
}

/* Every rank's data of collective k is in its slot (so every rank has entered k); this rank will read
 * `bytes` at offset_of(j) of rank j's slot's data. */
template <typename OffsetOf>
void await_slots(State &st, std::uint64_t k, OffsetOf offset_of, std::size_t bytes)
{
    for (int j = 0; j < st.size; ++j) {
        if (j != st.rank) {
            SlotHead *slot = st.segment.slot(k, j);
            await(slot->seq, k, Span{Segment::data(slot) + offset_of(j), bytes});
        }
    }
    st.all_in = std::max(st.all_in, k);
}

/* Collective k may write its slots: the readers of the collective that last used its set are done. */
void await_set(State &st, std::uint64_t k)
{
    const auto depth = static_cast<std::uint64_t>(params.depth);
    if (k > depth) {
        await_all(st, k - depth + 1);
    }
}

/* Enters collective k, after writing what this rank gives into `mine` (its slot of k), if anything. */
void publish(State &st, std::uint64_t k, SlotHead *mine = nullptr)
{
    if (mine != nullptr) {
        mine->seq.store(k, std::memory_order_release);
    }
    st.segment.flag(st.rank).seq.store(k, std::memory_order_release);
}

void pack(const void *buf, std::size_t count, const Datatype *type, char *dst, std::size_t bytes)
{
    if (const char *p = convertor_contiguous(buf, *type); p != nullptr) {
        std::memcpy(dst, p, bytes);
    } else {
        convertor_pack(buf, count, *type, 0, dst, bytes);
    }
}

void unpack(void *buf, std::size_t count, const Datatype *type, const char *src, std::size_t bytes)
{
    if (const char *p = convertor_contiguous(buf, *type); p != nullptr) {
        std::memcpy(const_cast<char *>(p), src, bytes);
    } else {
        convertor_unpack(buf, count, *type, 0, src, bytes);
    }
}

/* What a reader expecting `expected` bytes says of a slot holding `given` (as a message would). */
int compare(std::size_t given, std::size_t expected)
{
    return given > expected ? MPI_ERR_TRUNCATE : given < expected ? MPI_ERR_COUNT : MPI_SUCCESS;
}

int barrier(tessera_comm *comm, mca_coll_base_module_t *module)
{
    State &st = prepared(module, comm);
    if (!usable(st, comm)) {
        return call_below(st.below.barrier, st.below.barrier_module, comm);
    }
    const std::uint64_t k = ++st.seq;
    publish(st, k);
    await_all(st, k);
    return MPI_SUCCESS;
}

int bcast(void *buf, size_t count, mca_coll_dt_t dt, int root, tessera_comm *comm, mca_coll_base_module_t *module)
{
    State &st = prepared(module, comm);
    const Datatype *type = of(dt);
    const std::size_t bytes = count * type->size;
    if (bytes > params.max_bytes || !usable(st, comm)) {
        return call_below(st.below.bcast, st.below.bcast_module, buf, count, dt, root, comm);
    }
    const std::uint64_t k = ++st.seq;
    SlotHead *slot = st.segment.slot(k, root);
    if (st.rank == root) {
        await_set(st, k);
        slot->bytes = bytes;
        pack(buf, count, type, Segment::data(slot), bytes);
        publish(st, k, slot);
        return MPI_SUCCESS;
    }
    publish(st, k);
    await(slot->seq, k, Span{Segment::data(slot), bytes});
    unpack(buf, count, type, Segment::data(slot), std::min<std::size_t>(slot->bytes, bytes));
    return compare(slot->bytes, bytes);
}

/* Writes this rank's operand (contiguous: `bytes` of it) into its slot of collective k and enters k. */
void give_operand(State &st, std::uint64_t k, const void *operand, const Datatype *type, std::size_t bytes)
{
    await_set(st, k);
    SlotHead *mine = st.segment.slot(k, st.rank);
    mine->bytes = bytes;
    std::memcpy(Segment::data(mine), convertor_contiguous(operand, *type), bytes);
    publish(st, k, mine);
}

/* rbuf = x0 op (x1 op (... op x(n-1))) from the slots of collective k, in rank order: the same
 * operations in the same order on every rank that does it, so all get the same bits (MPI-4.1 6.9.1
 * asks it of non-commutative ops; floating-point sums get it too). */
int reduce_slots(State &st, std::uint64_t k, void *rbuf, std::size_t count, const Datatype *type, const Op *op)
{
    const std::size_t bytes = count * type->size;
    await_slots(st, k, [](int) { return std::size_t{0}; }, bytes);
    for (int j = 0; j < st.size; ++j) {
        if (const int rc = compare(st.segment.slot(k, j)->bytes, bytes); rc != MPI_SUCCESS) {
            return rc;
        }
    }
    /* A slot's data as the buffer pointer an application would pass (its data begins at true_lb). */
    const auto operand = [&](int j) { return Segment::data(st.segment.slot(k, j)) - type->true_lb; };
    std::memcpy(const_cast<char *>(convertor_contiguous(rbuf, *type)), operand(st.size - 1) + type->true_lb, bytes);
    for (int j = st.size - 2; j >= 0; --j) {
        op_reduce(op, operand(j), rbuf, count, type);
    }
    return MPI_SUCCESS;
}

/* Reductions of contiguous datatypes only: the standard requires the same datatype on every rank, so
 * the choice agrees. */
bool reducible(const Datatype *type, std::size_t count)
{
    return type->contiguous && count * type->size <= params.max_bytes;
}

int allreduce(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op, tessera_comm *comm,
              mca_coll_base_module_t *module)
{
    State &st = prepared(module, comm);
    const Datatype *type = of(dt);
    if (!reducible(type, count) || !usable(st, comm)) {
        return call_below(st.below.allreduce, st.below.allreduce_module, sbuf, rbuf, count, dt, op, comm);
    }
    const std::uint64_t k = ++st.seq;
    give_operand(st, k, sbuf == MPI_IN_PLACE ? rbuf : sbuf, type, count * type->size);
    return reduce_slots(st, k, rbuf, count, type, of(op));
}

/* Every rank gives its operand; the root reduces them, the others are done once theirs is in. */
int reduce(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt, mca_coll_op_t op, int root,
           tessera_comm *comm, mca_coll_base_module_t *module)
{
    State &st = prepared(module, comm);
    const Datatype *type = of(dt);
    if (!reducible(type, count) || !usable(st, comm)) {
        return call_below(st.below.reduce, st.below.reduce_module, sbuf, rbuf, count, dt, op, root, comm);
    }
    const std::uint64_t k = ++st.seq;
    give_operand(st, k, sbuf == MPI_IN_PLACE ? rbuf : sbuf, type, count * type->size);
    return st.rank == root ? reduce_slots(st, k, rbuf, count, type, of(op)) : MPI_SUCCESS;
}

/* Block b of `blocks` in rank j's slot: each rank's blocks start with rank j + 1's, so that on 2 ranks the
 * block its peer takes shares a line with the slot's head; the last place, its own block's, stays empty
 * when there are several (give_blocks). */
std::size_t position(int j, std::size_t b, std::size_t blocks)
{
    return (b + blocks - (static_cast<std::size_t>(j) + 1) % blocks) % blocks;
}

/* Block j of a buffer of blocks of `count` elements of `type`. */
const char *block_at(const void *buf, std::size_t j, std::size_t count, const Datatype *type)
{
    return static_cast<const char *>(buf) + static_cast<std::ptrdiff_t>(j * count) * type->extent;
}

/* Packs `blocks` blocks of `per_block` elements of `type` at `buf` into this rank's slot of collective
 * k, in the order position() says (its head says the bytes of one), enters k and waits until every
 * rank's slot is in; this rank will take block `take` of each, `take_bytes` long. */
void give_blocks(State &st, std::uint64_t k, const void *buf, std::size_t per_block, const Datatype *type,
                 std::size_t blocks, std::size_t take, std::size_t take_bytes)
{
    const std::size_t bytes = per_block * type->size;
    await_set(st, k);
    SlotHead *mine = st.segment.slot(k, st.rank);
    if (bytes * blocks <= params.max_bytes) { /* else the counts disagree: said by take_block, nothing written */
        /* Of several (an alltoall's), this rank's own block stays out: written with its peer's on one
         * line, it cost that line another transfer (2 ranks, 64 B: 0.14-0.16 -> 0.10-0.12 us; with the
         * VM's cores far apart 0.50-0.53 -> 0.25-0.33). */
        const std::size_t given = blocks > 1 ? blocks - 1 : blocks;
        const std::size_t first = (static_cast<std::size_t>(st.rank) + 1) % blocks;
        const std::size_t tail = std::min(blocks - first, given), head = given - tail;
        char *data = Segment::data(mine);
        pack(block_at(buf, first, per_block, type), per_block * tail, type, data, bytes * tail);
        pack(buf, per_block * head, type, data + bytes * tail, bytes * head);
    }
    mine->bytes = bytes;
    publish(st, k, mine);
    await_slots(st, k, [take, blocks, take_bytes](int j) { return position(j, take, blocks) * take_bytes; }, take_bytes);
}

/* Block `index` of `blocks` of rank j's slot of collective k into the `count` elements of `type` at `to`;
 * returns what the counts say, as a message would. */
int take_block(State &st, std::uint64_t k, int j, std::size_t index, std::size_t blocks, void *to, std::size_t count,
               const Datatype *type)
{
    SlotHead *s = st.segment.slot(k, j);
    const std::size_t given = s->bytes, wanted = count * type->size;
    if (const std::size_t at = position(j, index, blocks); (at + 1) * given <= params.max_bytes) {
        unpack(to, count, type, Segment::data(s) + at * given, std::min(given, wanted));
    }
    return compare(given, wanted);
}

void *block_at(void *buf, std::size_t j, std::size_t count, const Datatype *type)
{
    return const_cast<char *>(block_at(static_cast<const void *>(buf), j, count, type));
}

/* The allgather and the alltoall of this rank's send side: `count` elements of `type` a block (the
 * receive side's with MPI_IN_PLACE, whose data is in recvbuf). */
struct SendSide {
    std::size_t count;
    const Datatype *type;
};
SendSide send_side(const void *sbuf, std::size_t scount, mca_coll_dt_t sdt, std::size_t rcount, const Datatype *rtype)
{
    return sbuf == MPI_IN_PLACE ? SendSide{rcount, rtype} : SendSide{scount, of(sdt)};
}

/* Each rank gives its block and takes every rank's into its place in recvbuf. The decision goes by
 * the receive side, which MPI_IN_PLACE leaves significant. */
int allgather(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
              tessera_comm *comm, mca_coll_base_module_t *module)
{
    State &st = prepared(module, comm);
    const Datatype *rtype = of(rdt);
    if (rcount * rtype->size > params.max_bytes || !usable(st, comm)) {
        return call_below(st.below.allgather, st.below.allgather_module, sbuf, scount, sdt, rbuf, rcount, rdt, comm);
    }
    const SendSide out = send_side(sbuf, scount, sdt, rcount, rtype);
    const std::uint64_t k = ++st.seq;
    const std::size_t rbytes = rcount * rtype->size;
    give_blocks(st, k, sbuf == MPI_IN_PLACE ? block_at(rbuf, static_cast<std::size_t>(st.rank), rcount, rtype) : sbuf,
                out.count, out.type, 1, 0, rbytes);
    int rc = compare(out.count * out.type->size, rbytes);
    for (int j = 0; j < st.size; ++j) {
        const int taken = take_block(st, k, j, 0, 1, block_at(rbuf, j, rcount, rtype), rcount, rtype);
        rc = rc != MPI_SUCCESS ? rc : taken;
    }
    return rc;
}

/* Each rank gives all its blocks; rank r takes block r of every rank's. The decision goes by the
 * receive side, which MPI_IN_PLACE leaves significant. */
int alltoall(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
             tessera_comm *comm, mca_coll_base_module_t *module)
{
    State &st = prepared(module, comm);
    const Datatype *rtype = of(rdt);
    const auto n = static_cast<std::size_t>(st.size);
    if (rcount * rtype->size * n > params.max_bytes || !usable(st, comm)) {
        return call_below(st.below.alltoall, st.below.alltoall_module, sbuf, scount, sdt, rbuf, rcount, rdt, comm);
    }
    const SendSide out = send_side(sbuf, scount, sdt, rcount, rtype);
    const std::uint64_t k = ++st.seq;
    const std::size_t rbytes = rcount * rtype->size;
    give_blocks(st, k, sbuf == MPI_IN_PLACE ? rbuf : sbuf, out.count, out.type, n, static_cast<std::size_t>(st.rank),
                rbytes);
    int rc = compare(out.count * out.type->size, rbytes);
    for (int j = 0; j < st.size; ++j) {
        if (j == st.rank) { /* not in the slot: give_blocks */
            if (sbuf != MPI_IN_PLACE && rc == MPI_SUCCESS) {
                convertor_copy(block_at(sbuf, static_cast<std::size_t>(j), scount, of(sdt)), scount, *of(sdt),
                               block_at(rbuf, static_cast<std::size_t>(j), rcount, rtype), rcount, *rtype);
            }
            continue;
        }
        const int taken =
            take_block(st, k, j, static_cast<std::size_t>(st.rank), n, block_at(rbuf, j, rcount, rtype), rcount, rtype);
        rc = rc != MPI_SUCCESS ? rc : taken;
    }
    return rc;
}

void module_release(mca_coll_base_module_t *module, tessera_comm *)
{
    delete static_cast<State *>(module->module_state);
    delete module;
}

} // namespace

mca_coll_base_module_t *module_create()
{
    auto *m = new mca_coll_base_module_t{};
    m->coll_component = &mca_coll_sm_component;
    m->coll_module_enable = nullptr;
    m->coll_module_release = module_release;
    m->coll_barrier = barrier;
    m->coll_bcast = bcast;
    m->coll_allreduce = allreduce;
    m->coll_alltoall = alltoall;
    m->coll_allgather = allgather;
    m->coll_reduce = reduce;
    m->module_state = new State;
    return m;
}

} // namespace tessera::ompi::coll_sm
