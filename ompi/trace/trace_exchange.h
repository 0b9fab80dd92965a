/*
 * The allgather the trace framework gives its modules (mca_trace_base_allgather_fn_t): among the ranks
 * of MPI_COMM_WORLD, without touching the application's messages. Under the native engine it goes
 * through mpirun's key-value service (a fence, as in MPI_Init's wire-up); under a runtime translator
 * through MPI_Allgather/MPI_Allgatherv on MPI_COMM_WORLD, called through the dispatch table
 * (collectives have a context of their own, so no receive of the application can match them); a
 * singleton has only itself.
 */
#ifndef TESSERA_OMPI_TRACE_TRACE_EXCHANGE_H
#define TESSERA_OMPI_TRACE_TRACE_EXCHANGE_H

#include <cstddef>

#include "frameworks/trace/trace.h"

namespace tessera::ompi::trace {

int allgather(const void *data, size_t size, mca_trace_base_deliver_fn_t deliver, void *ctx);

/*
 * The allgather works only while every rank is sure to take part: when tracing starts (right after
 * MPI_Init) and ends (at the start of MPI_Finalize). Outside such a window — the framework closed by
 * an exit handler of a rank that left without MPI_Finalize — it fails at once instead of waiting for
 * ranks that will never come.
 */
class CollectiveWindow {
public:
    CollectiveWindow();
    ~CollectiveWindow();
    CollectiveWindow(const CollectiveWindow &) = delete;
    CollectiveWindow &operator=(const CollectiveWindow &) = delete;
};

} // namespace tessera::ompi::trace

#endif
