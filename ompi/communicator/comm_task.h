/*
 * Communicator creation as coroutines. Each creation call (MPI_Comm_dup, split, Intercomm_create...)
 * is written once, as straight-line code that co_awaits the exchanges it needs — schedules of internal
 * messages (ompi/coll/coll_schedule.h) — and the other tasks it is made of:
 *
 *     Task dup(...) {
 *         int rc = co_await agree(channel, ...);     // a Task
 *         ...
 *         rc = co_await wait(schedule);              // one schedule, to its end
 *     }
 *
 * A task is awaited as a named object (`Task t = f(...); rc = co_await t;`), never as a call inside the
 * co_await expression: GCC 12 destroys the temporaries of such an expression twice when it suspends.
 *
 * A blocking call runs its task to the end at once (run_blocking, progressing the engine while it
 * waits); MPI_Comm_idup starts it as a request (start_request) that every pass of the progress engine
 * advances, so the creation overlaps whatever the application does meanwhile. A task's result is an
 * MPI error class.
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_TASK_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_TASK_H

#include <coroutine>
#include <utility>

#include <mpi.h>

#include "ompi/coll/coll_schedule.h"
#include "ompi/pml/pml_request.h"

namespace tessera::ompi::comm {

class Task {
public:
    struct promise_type;
    using Handle = std::coroutine_handle<promise_type>;

    struct promise_type {
        int result = MPI_SUCCESS;
        std::coroutine_handle<> continuation = std::noop_coroutine(); /* whoever awaits this task */

        Task get_return_object() { return Task(Handle::from_promise(*this)); }
        std::suspend_always initial_suspend() noexcept { return {}; }
        struct Final {
            bool await_ready() noexcept { return false; }
            std::coroutine_handle<> await_suspend(Handle h) noexcept { return h.promise().continuation; }
            void await_resume() noexcept {}
        };
        Final final_suspend() noexcept { return {}; }
        void return_value(int rc) { result = rc; }
        void unhandled_exception() noexcept;
    };

    Task(Task &&other) noexcept : handle_(std::exchange(other.handle_, {})) {}
    Task &operator=(Task &&) = delete;
    ~Task();

    /* co_await task: runs it, then resumes the awaiting coroutine with its result. */
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept;
    int await_resume() const noexcept { return handle_.promise().result; }

    Handle handle() const { return handle_; }

private:
    explicit Task(Handle h) : handle_(h) {}
    Handle handle_;
};

/* co_await wait(s): starts the schedule and suspends until it is complete; gives its error class. */
struct ScheduleWait {
    coll::Schedule &schedule;
    bool await_ready();
    void await_suspend(std::coroutine_handle<> h);
    int await_resume() const { return schedule.error(); }
};
inline ScheduleWait wait(coll::Schedule &s)
{
    return ScheduleWait{s};
}

/* Runs a task to its end; returns its result. */
int run_blocking(Task task);

/* Starts a task as a request of kind Coll on `comm` (it holds a reference to it): the request
 * completes with the task, its status's MPI_ERROR the task's result. */
pml::Request *start_request(Task task, Communicator *comm);

/* The progress hook's work: advances every started task; returns how many finished. */
int progress_tasks();

} // namespace tessera::ompi::comm

#endif
