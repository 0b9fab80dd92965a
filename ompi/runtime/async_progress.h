/*
 * The asynchronous progress thread (mpi_async_progress): a thread of the library's own that runs the
 * engine's progress (pml::progress: the btls, rendezvous and striped transfers, the schedules of
 * non-blocking collectives and communicator creation, and whatever else registered a progress hook)
 * while the application computes and makes no MPI call. A target then answers a rendezvous, and a
 * non-blocking collective advances, without waiting for the application's next call (docs/async-progress.md).
 *
 * It polls while there is work and sleeps, backing off, when the passes stay empty, so an idle process
 * spends almost no CPU on it. Turning it on makes the library thread-safe (opal::using_threads) whatever
 * thread level the application asked for: the application's calls and the thread's run at once.
 */
#ifndef TESSERA_OMPI_RUNTIME_ASYNC_PROGRESS_H
#define TESSERA_OMPI_RUNTIME_ASYNC_PROGRESS_H

#include <string>

namespace tessera::ompi::async_progress {

struct Params {
    bool enabled = false;      /* mpi_async_progress */
    int spin_us = 100;         /* mpi_async_progress_spin: polling after a pass that did work */
    int sleep_max_us = 100;    /* mpi_async_progress_sleep_max: the longest sleep between passes */
    const char *bind = nullptr; /* mpi_async_progress_bind: PUs for the thread; empty: the process's */
};
extern Params params;

int register_params();
/* What is wrong with the values ("" when nothing), naming the parameter. */
std::string check_params(const Params &p);

/* Starts the thread (MPI_Init, once the transports are up); "" or why it could not. */
std::string start();
/* Stops and joins it (MPI_Finalize, before the engine drains); nothing when it is not running. */
void stop();
bool running();

} // namespace tessera::ompi::async_progress

#endif
