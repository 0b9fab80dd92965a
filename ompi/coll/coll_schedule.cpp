/* The schedule engine (coll_schedule.h): building, running round by round, non-blocking requests. */
#include "ompi/coll/coll_schedule.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "mca/constants.h"
#include "mca/var.h"
#include "ompi/datatype/convertor.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"
#include "opal/threads.h"

namespace tessera::ompi::coll {

namespace {

/* Collective numbers map to tags kTagCollFirst .. kTagCollFirst - (kTagSpan - 1), then wrap: far more
 * than can ever be in flight on one communicator at once. */
constexpr std::uint32_t kTagSpan = 1u << 24;

/* Non-blocking collectives whose schedule has not finished. Several threads may start them (each on its
 * own communicator) while any thread's progress pass advances them: one pass at a time walks the list,
 * under this lock; a pass that finds it taken leaves the schedules to the one holding it. */
opal::Mutex active_lock;
std::vector<pml::Request *> active;
std::atomic<std::size_t> active_count{0}; /* active.size(), read without the lock */
/* This thread is walking the list: a progress pass a schedule causes does not walk it again. */
[[gnu::tls_model("initial-exec")]] constinit thread_local bool walking = false;

/* The pools below (schedule memory and objects) are shared by every thread's collectives. */
opal::Mutex pool_lock;

/* Schedule memory not in use, and the scratch bytes it keeps (at most coll_base_scratch_keep: beyond
 * that a returning schedule's largest buffers are freed — one large message must not pin its scratch
 * memory for the process's life). */
std::vector<std::unique_ptr<Schedule::Memory>> spare_memory;
std::size_t spare_scratch = 0;
std::size_t scratch_keep = std::size_t{16} << 20;

/* Freed schedule objects, reused by Schedule::operator new; given back to the heap at exit, so that
 * a leak checker sees nothing of ours left over. */
struct SpareObjects : std::vector<void *> {
    SpareObjects() = default;
    SpareObjects(const SpareObjects &) = delete;
    SpareObjects &operator=(const SpareObjects &) = delete;
    ~SpareObjects()
    {
        for (void *p : *this) {
            ::operator delete(p);
        }
    }
};
SpareObjects spare_objects;

std::unique_ptr<Schedule::Memory> take_memory()
{
    const opal::LockGuard guard(pool_lock);
    if (spare_memory.empty()) {
        return std::make_unique<Schedule::Memory>();
    }
    std::unique_ptr<Schedule::Memory> m = std::move(spare_memory.back());
    spare_memory.pop_back();
    spare_scratch -= m->scratch_bytes;
    return m;
}

void give_memory(std::unique_ptr<Schedule::Memory> m)
{
    const opal::LockGuard guard(pool_lock);
    m->steps.clear();
    m->in_flight.clear();
    while (spare_scratch + m->scratch_bytes > scratch_keep && !m->scratch.empty()) {
        auto largest = std::max_element(m->scratch.begin(), m->scratch.end(),
                                        [](const Schedule::Chunk &a, const Schedule::Chunk &b) {
                                            return a.bytes < b.bytes;
                                        });
        m->scratch_bytes -= largest->bytes;
        m->scratch.erase(largest);
    }
    spare_scratch += m->scratch_bytes;
    spare_memory.push_back(std::move(m));
}

int next_tag(Communicator *comm)
{
    return pml::kTagCollFirst - static_cast<int>(comm->coll_seq++ % kTagSpan);
}

/* The persistent collective being started on this thread (FixedTagScope). initial-exec: read by every
 * schedule (coll_checks.h says why). */
[[gnu::tls_model("initial-exec")]] constinit thread_local const FixedTags *fixed = nullptr;

int take_tag(Communicator *comm)
{
    return fixed != nullptr && fixed->comm == comm ? fixed->tag : next_tag(comm);
}

int take_local_tag(Communicator *comm, Communicator *local)
{
    return fixed != nullptr && fixed->comm == comm ? fixed->local_tag : next_tag(local);
}

void finish(pml::Request *r, int error)
{
    pml::status_empty(&r->status);
    r->status.MPI_ERROR = error;
    pml::complete_request(r);
}

} // namespace

/* Exported for coll_services.cpp; the schedules keep calling the local take_tag, which inlines. */
int collective_tag(Communicator *comm)
{
    return take_tag(comm);
}

Schedule::Schedule(Communicator *comm, Uses uses)
    : comm_(comm), tag_(take_tag(comm)), holds_uses_(uses == Uses::Hold), mem_(take_memory()),
      steps_(mem_->steps), in_flight_(mem_->in_flight)
{
    if (comm->is_inter() && comm->local_comm != nullptr) {
        local_ = comm->local_comm;
        local_tag_ = take_local_tag(comm, local_);
    }
}

Schedule::Schedule(Communicator *comm, int tag)
    : comm_(comm), tag_(tag), holds_uses_(true), mem_(take_memory()), steps_(mem_->steps),
      in_flight_(mem_->in_flight)
{
}

Schedule::~Schedule()
{
    for (pml::Request *r : in_flight_) {
        /* Only a finished schedule is destroyed; a request the engine still holds must stay (leaked)
         * rather than be reused under it. */
        if (r->complete) {
            pml::request_release(r);
        }
    }
    if (holds_uses_) {
        for (const Step &s : steps_) {
            datatype_release(s.type);
            datatype_release(s.type2);
            op_release(s.op);
        }
    }
    give_memory(std::move(mem_));
}

void *Schedule::operator new(std::size_t bytes)
{
    const opal::LockGuard guard(pool_lock);
    if (spare_objects.empty() || bytes != sizeof(Schedule)) {
        return ::operator new(bytes);
    }
    void *p = spare_objects.back();
    spare_objects.pop_back();
    return p;
}

void Schedule::operator delete(void *p, std::size_t bytes)
{
    const opal::LockGuard guard(pool_lock);
    if (bytes == sizeof(Schedule)) {
        spare_objects.push_back(p);
    } else {
        ::operator delete(p);
    }
}

void Schedule::add(const Step &step)
{
    if (holds_uses_) {
        datatype_retain(step.type);
        datatype_retain(step.type2);
        op_retain(step.op);
    }
    steps_.push_back(step);
}

void Schedule::send(const void *buf, std::size_t count, const Datatype *type, int peer)
{
    add({Kind::Send, local_group_, peer, buf, nullptr, count, type, 0, nullptr, nullptr});
}

void Schedule::recv(void *buf, std::size_t count, const Datatype *type, int peer)
{
    add({Kind::Recv, local_group_, peer, nullptr, buf, count, type, 0, nullptr, nullptr});
}

void Schedule::copy(const void *src, std::size_t scount, const Datatype *stype, void *dst, std::size_t dcount,
                    const Datatype *dtype)
{
    add({Kind::Copy, false, MPI_PROC_NULL, src, dst, scount, stype, dcount, dtype, nullptr});
}

void Schedule::reduce(const void *in, void *inout, std::size_t count, const Datatype *type, const Op *op)
{
    add({Kind::Reduce, false, MPI_PROC_NULL, in, inout, count, type, 0, nullptr, op});
}

void Schedule::round()
{
    if (!steps_.empty() && steps_.back().kind != Kind::Round) {
        add({Kind::Round, false, MPI_PROC_NULL, nullptr, nullptr, 0, nullptr, 0, nullptr, nullptr});
    }
}

void *Schedule::scratch(std::size_t count, const Datatype *type)
{
    /* The bytes `count` elements touch, relative to the buffer pointer: [lo, hi). */
    std::ptrdiff_t lo = 0, hi = 1;
    if (count > 0 && type->size > 0) {
        const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(count - 1) * type->extent;
        lo = std::min(type->true_lb, last + type->true_lb);
        hi = std::max(type->true_ub, last + type->true_ub);
    }
    /* The pointer handed out is 16-byte aligned like an application's buffer, so the data inside keeps
     * the alignment its layout gives it. */
    constexpr std::uintptr_t kAlign = 16;
    const std::size_t bytes = static_cast<std::size_t>(hi - lo) + kAlign;
    std::vector<Chunk> &chunks = mem_->scratch;
    if (scratch_used_ == chunks.size()) {
        chunks.push_back(Chunk{nullptr, 0});
    }
    Chunk &chunk = chunks[scratch_used_++];
    if (chunk.bytes < bytes) {
        /* Not zeroed: every algorithm writes its scratch before reading it. */
        chunk.memory = std::make_unique_for_overwrite<char[]>(bytes);
        mem_->scratch_bytes += bytes - chunk.bytes;
        chunk.bytes = bytes;
    }
    const auto base = reinterpret_cast<std::uintptr_t>(chunk.memory.get());
    const std::uintptr_t pointer = (base - static_cast<std::uintptr_t>(lo) + kAlign - 1) & ~(kAlign - 1);
    return reinterpret_cast<void *>(pointer);
}

void Schedule::fail(int code)
{
    if (error_ == MPI_SUCCESS) {
        error_ = code;
    }
}

void Schedule::run_round()
{
    /* Whether this rank also receives in the round: its sends are then exchanges (pml_single_copy). */
    bool receives = false;
    for (std::size_t i = next_; i < steps_.size() && steps_[i].kind != Kind::Round && !receives; ++i) {
        receives = steps_[i].kind == Kind::Recv && steps_[i].peer != MPI_PROC_NULL && steps_[i].count > 0;
    }
    while (next_ < steps_.size()) {
        const Step &s = steps_[next_++];
        switch (s.kind) {
        case Kind::Round:
            return;
        case Kind::Send:
            if (s.peer != MPI_PROC_NULL) {
                in_flight_.push_back(s.local ? pml::isend(s.src, s.count, s.type, s.peer, local_tag_, local_, receives)
                                             : pml::isend(s.src, s.count, s.type, s.peer, tag_, comm_, receives));
            }
            break;
        case Kind::Recv:
            if (s.peer != MPI_PROC_NULL) {
                in_flight_.push_back(s.local ? pml::irecv(s.dst, s.count, s.type, s.peer, local_tag_, local_)
                                             : pml::irecv(s.dst, s.count, s.type, s.peer, tag_, comm_));
            }
            break;
        case Kind::Copy:
            if (s.count * s.type->size > s.count2 * s.type2->size) {
                fail(MPI_ERR_TRUNCATE);
            }
            convertor_copy(s.src, s.count, *s.type, s.dst, s.count2, *s.type2);
            break;
        case Kind::Reduce:
            op_reduce(s.op, s.src, s.dst, s.count, s.type);
            break;
        }
    }
}

void Schedule::start()
{
    started_ = true;
    run_round();
}

bool Schedule::progress()
{
    if (!started_) {
        start();
    }
    while (!complete_) {
        for (const pml::Request *r : in_flight_) {
            if (!r->complete) {
                return false;
            }
        }
        for (pml::Request *r : in_flight_) {
            if (r->status.MPI_ERROR != MPI_SUCCESS) {
                fail(r->status.MPI_ERROR);
            } else if (r->kind == pml::Kind::Recv && pml::status_count(&r->status) != r->bytes) {
                /* Every receive of a schedule is for exactly what its peer sends when the processes'
                 * counts and datatypes match: a shorter message means they do not. */
                fail(MPI_ERR_COUNT);
            }
            pml::request_release(r);
        }
        in_flight_.clear();
        if (next_ >= steps_.size()) {
            complete_ = true;
            break;
        }
        run_round();
    }
    return true;
}

FixedTags reserve_tags(Communicator *comm)
{
    FixedTags t;
    t.comm = comm;
    t.tag = next_tag(comm);
    if (comm->is_inter() && comm->local_comm != nullptr) {
        t.local_tag = next_tag(comm->local_comm);
    }
    return t;
}

FixedTagScope::FixedTagScope(const FixedTags &tags) : outer_(fixed)
{
    fixed = &tags;
}

FixedTagScope::~FixedTagScope()
{
    fixed = outer_;
}

int run(Schedule &schedule)
{
    schedule.start();
    pml::wait_until([&schedule] { return schedule.progress(); });
    return schedule.error();
}

void clear_cache()
{
    const opal::LockGuard guard(pool_lock);
    spare_memory.clear();
    spare_scratch = 0;
    for (void *p : spare_objects) {
        ::operator delete(p);
    }
    spare_objects.clear();
}

int register_params()
{
    const int rc = mca_var_register("coll", "base", "scratch_keep",
                                    "Scratch memory (bytes) a blocking collective's schedule keeps for the next "
                                    "collective; beyond it the largest buffers are freed when a collective ends",
                                    MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_6, MCA_VAR_SCOPE_LOCAL,
                                    MCA_VAR_FLAG_NONE, &scratch_keep);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

int start_request(std::unique_ptr<Schedule> schedule, pml::Request **request)
{
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Coll;
    pml::request_set_comm(r, schedule->comm());
    r->active = true;
    r->complete = false;
    Schedule *s = schedule.get();
    r->work = std::move(schedule);
    s->start();
    if (s->progress()) {
        finish(r, s->error());
    } else {
        const opal::LockGuard guard(active_lock);
        active.push_back(r);
        active_count.store(active.size(), std::memory_order_relaxed);
    }
    *request = r;
    return MPI_SUCCESS;
}

bool adopt_running(pml::Request *parent, pml::Request *child)
{
    const opal::LockGuard guard(active_lock); /* progress_requests completes them under it */
    if (child->complete) {
        return false;
    }
    pml::adopt(parent, child);
    return true;
}

[[gnu::noinline]] static int progress_requests_active()
{
    if (walking) {
        return 0;
    }
    const std::unique_lock guard(active_lock, std::try_to_lock);
    if (!guard.owns_lock()) {
        return 0;
    }
    walking = true;
    int events = 0;
    for (std::size_t i = 0; i < active.size();) {
        pml::Request *r = active[i];
        auto *s = static_cast<Schedule *>(r->work.get());
        if (!s->progress()) {
            ++i;
            continue;
        }
        active[i] = active.back();
        active.pop_back();
        finish(r, s->error());
        ++events;
    }
    active_count.store(active.size(), std::memory_order_relaxed);
    walking = false;
    return events;
}

int progress_requests()
{
    /* Apart from the walk, so that the pass with nothing to do (nearly every one) is a load and a return,
     * without the walk's register saves. */
    if (active_count.load(std::memory_order_relaxed) == 0) {
        return 0;
    }
    return progress_requests_active();
}

} // namespace tessera::ompi::coll
