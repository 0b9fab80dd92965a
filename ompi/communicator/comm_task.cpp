/* Running communicator-creation tasks (comm_task.h): blocking, or as requests the progress engine
 * advances. */
#include "ompi/communicator/comm_task.h"

#include <exception>
#include <memory>
#include <vector>

#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"

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
thread_local Runner *current = nullptr;

/* Tasks started by start_request and not finished. */
std::vector<pml::Request *> active;
bool advancing = false;

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
        active.push_back(r);
    }
    return r;
}

int progress_tasks()
{
    /* A coll module enabled on a new communicator might progress the engine itself: the tasks are
     * advanced by the outer pass only. */
    if (advancing || active.empty()) {
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
    advancing = false;
    return finished;
}

} // namespace tessera::ompi::comm
