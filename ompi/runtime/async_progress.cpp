#include "ompi/runtime/async_progress.h"

#include <pthread.h>
#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <thread>

#include "mca/report.h"
#include "mca/var.h"
#include "ompi/pml/pml_engine.h"
#include "opal/binding.h"

namespace tessera::ompi::async_progress {

Params params;

namespace {

/* Never destroyed: a process that exits without MPI_Finalize must not run std::thread's destructor on a
 * running thread (std::terminate); the atexit handler stops it instead, before the engine's state goes. */
std::thread &worker = *new std::thread;
std::atomic<bool> stopping{false};

/*
 * After a pass that did something the thread keeps polling, without giving up the CPU, for spin_us: the
 * next fragment of a transfer is microseconds away, and a thread that yields or sleeps gets its core
 * back only at the scheduler's next tick. After that it sleeps, doubling the sleep from 1 µs up to
 * sleep_max_us, so an idle process wakes it at most 1/sleep_max times a second. The timer slack is
 * 1 ns: the default 50 µs would stretch the short sleeps that follow a burst of work.
 */
void run()
{
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    using Clock = std::chrono::steady_clock;
    const auto spin = std::chrono::microseconds(params.spin_us);
    auto last_work = Clock::now();
    int sleep_us = 0;
    while (!stopping.load(std::memory_order_acquire)) {
        if (pml::progress() != 0) {
            last_work = Clock::now();
            sleep_us = 0;
            continue;
        }
        if (Clock::now() - last_work < spin) {
            continue;
        }
        sleep_us = sleep_us == 0 ? 1 : std::min(sleep_us * 2, params.sleep_max_us);
        std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
    }
}

std::string bind_thread(pthread_t thread, const std::string &list)
{
    const auto pus = opal::parse_pu_list(list);
    if (!pus) {
        return mca::bad_value("mpi_async_progress_bind", list, "must be a list of PUs such as 1 or 0-3,8");
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    for (unsigned pu : *pus) {
        if (pu >= CPU_SETSIZE) {
            return mca::bad_value("mpi_async_progress_bind", list, "names a PU beyond " + std::to_string(CPU_SETSIZE - 1));
        }
        CPU_SET(pu, &set);
    }
    if (int rc = pthread_setaffinity_np(thread, sizeof set, &set); rc != 0) {
        return "cannot bind the progress thread to the PUs " + list + " (mpi_async_progress_bind): " + std::strerror(rc);
    }
    return "";
}

} // namespace

int register_params()
{
    const mca_var_decl_t vars[] = {
        {"async_progress",
         "Run a progress thread that advances transfers, non-blocking collectives and other pending operations "
         "while the application computes without calling MPI. Makes the library thread-safe (as with "
         "MPI_THREAD_MULTIPLE) whatever thread level the application asked for",
         MCA_VAR_TYPE_BOOL, nullptr, MCA_INFO_LVL_4, &params.enabled},
        {"async_progress_spin",
         "mpi_async_progress: microseconds the progress thread keeps polling, without giving up its CPU, after a "
         "pass that did some work, before it starts sleeping",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.spin_us},
        {"async_progress_sleep_max",
         "mpi_async_progress: longest sleep of an idle progress thread between two passes, in microseconds (its "
         "sleeps double from 1 up to this): the delay before it sees work that arrives while it sleeps",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.sleep_max_us},
        {"async_progress_bind",
         "mpi_async_progress: the PUs the progress thread runs on (e.g. a core the application leaves free); "
         "empty: wherever the process is bound",
         MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_5, &params.bind},
    };
    return mca_var_register_table("mpi", "", vars, std::size(vars), MCA_VAR_SCOPE_LOCAL);
}

std::string check_params(const Params &p)
{
    if (p.spin_us < 0 || p.spin_us > 1000000) {
        return mca::bad_value("mpi_async_progress_spin", std::to_string(p.spin_us), "must be 0 to 1000000 microseconds");
    }
    if (p.sleep_max_us < 1 || p.sleep_max_us > 1000000) {
        return mca::bad_value("mpi_async_progress_sleep_max", std::to_string(p.sleep_max_us),
                              "must be 1 to 1000000 microseconds");
    }
    return "";
}

std::string start()
{
    if (worker.joinable()) {
        return "";
    }
    stopping.store(false, std::memory_order_relaxed);
    static const bool stop_at_exit = std::atexit(stop) == 0;
    (void)stop_at_exit;
    try {
        worker = std::thread(run);
    } catch (const std::system_error &e) {
        return std::string("cannot start the progress thread (mpi_async_progress): ") + e.what();
    }
    pthread_setname_np(worker.native_handle(), "tessera-progress");
    if (params.bind != nullptr && params.bind[0] != '\0') {
        if (std::string bad = bind_thread(worker.native_handle(), params.bind); !bad.empty()) {
            stop();
            return bad;
        }
    }
    return "";
}

void stop()
{
    if (worker.joinable()) {
        stopping.store(true, std::memory_order_release);
        worker.join();
    }
}

bool running()
{
    return worker.joinable();
}

} // namespace tessera::ompi::async_progress
