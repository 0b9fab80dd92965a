/* Running communicator-creation tasks (comm_task.h): blocking, or as requests the progress engine
 * advances. */
#include "ompi/communicator/comm_task.h"

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"
#include "opal/threads.h"

namespace tessera::ompi::comm {

namespace {

/* One running task: where it waits, and where to resume it when that is done. */
struct Runner : pml::RequestWork {
    explicit Runner(Task t) : task(std::move(t)) {}

    /* Resumes the task as far as it gets without waiting; true once it has finished. */
    bool advance();

    Task task;
    bool started = false;
    coll::Schedule *waiting = nullptr;
    std::coroutine_handle<> resume_at{};
};

/* The runner whose task is executing: a ScheduleWait registers with it. */
[[gnu::tls_model("initial-exec")]] constinit thread_local Runner *current = nullptr;

/* Tasks started by start_request and not finished. Any thread may start one, and any thread's progress
 * pass may advance them: one pass at a time advances them all (a task is not reentrant), under this
 * lock; a pass that finds it taken leaves them to the one that holds it. */
opal::Mutex active_lock;
std::vector<pml::Request *> active;
std::atomic<std::size_t> active_count{0}; /* active.size(), read without the lock */
/* This thread is advancing the tasks: a progress pass they cause themselves does not start over. */
[[gnu::tls_model("initial-exec")]] constinit thread_local bool advancing = false;

bool Runner::advance()
{
    while (!task.handle().done()) {
        std::coroutine_handle<> next;
        if (!started) {
            started = true;
            next = task.handle();
        } else {
            if (waiting != nullptr && !waiting->progress()) {
                return false;
            }
            waiting = nullptr;
            next = std::exchange(resume_at, {});
        }
        Runner *outer = std::exchange(current, this);
        next.resume();
        current = outer;
    }
    return true;
}

void finish(pml::Request *r)
{
    const int result = static_cast<Runner *>(r->work.get())->task.handle().promise().result;
    pml::status_empty(&r->status);
    r->status.MPI_ERROR = result;
    pml::complete_request(r);
}

} // namespace

void Task::promise_type::unhandled_exception() noexcept
{
    /* Creation code throws nothing but std::bad_alloc: out of memory, there is no way on. */
    std::terminate();
}

Task::~Task()
{
    if (handle_) {
        handle_.destroy();
    }
}

std::coroutine_handle<> Task::await_suspend(std::coroutine_handle<> caller) noexcept
{
    handle_.promise().continuation = caller;
    return handle_;
}

bool ScheduleWait::await_ready()
{
    return schedule.progress();
}

void ScheduleWait::await_suspend(std::coroutine_handle<> h)
{
    current->waiting = &schedule;
    current->resume_at = h;
}

int run_blocking(Task task)
{
    Runner runner(std::move(task));
    pml::wait_until([&runner] { return runner.advance(); });
    return runner.task.handle().promise().result;
}

pml::Request *start_request(Task task, Communicator *comm)
{
    auto runner = std::make_unique<Runner>(std::move(task));
    Runner *raw = runner.get();
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Coll;
    pml::request_set_comm(r, comm);
    r->active = true;
    r->complete = false;
    r->work = std::move(runner);
    if (raw->advance()) {
        finish(r);
    } else {
        const opal::LockGuard guard(active_lock);
        active.push_back(r);
        active_count.store(active.size(), std::memory_order_relaxed);
    }
    return r;
}

[[gnu::noinline]] static int progress_tasks_active()
{
    /* A coll module enabled on a new communicator might progress the engine itself: the tasks are
     * advanced by the outer pass only. */
    if (advancing) {
        return 0;
    }
    const std::unique_lock guard(active_lock, std::try_to_lock);
    if (!guard.owns_lock()) {
        return 0;
    }
    advancing = true;
    int finished = 0;
    for (std::size_t i = 0; i < active.size();) {
        pml::Request *r = active[i];
        if (!static_cast<Runner *>(r->work.get())->advance()) {
            ++i;
            continue;
        }
        active[i] = active.back();
        active.pop_back();
        finish(r);
        ++finished;
    }
    active_count.store(active.size(), std::memory_order_relaxed);
    advancing = false;
    return finished;
}

int progress_tasks()
{
    /* Apart from the walk, so that the pass with nothing to do (nearly every one) is a load and a return,
     * without the walk's register saves. */
    if (active_count.load(std::memory_order_relaxed) == 0) {
        return 0;
    }
    return progress_tasks_active();
}

} // namespace tessera::ompi::comm
