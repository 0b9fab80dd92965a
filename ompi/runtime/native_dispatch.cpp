#include "ompi/runtime/native_dispatch.h"

#include "ompi/runtime/coverage.h"
#include "ompi/runtime/native_functions.h"

namespace tessera::ompi {

void native_fill(tessera_mpi_dispatch_t *t)
{
    /* Life cycle and environment (issue 3) */
    t->Init = native::init;
    t->Init_thread = native::init_thread;
    t->Initialized = native::initialized;
    t->Finalized = native::finalized;
    t->Finalize = native::finalize;
    t->Query_thread = native::query_thread;
    t->Is_thread_main = native::is_thread_main;
    t->Abort = native::abort;
    t->Get_processor_name = native::get_processor_name;
    t->Get_version = native::get_version;
    t->Get_library_version = native::get_library_version;
    t->Wtime = native::wtime;
    t->Wtick = native::wtick;
    /* Communicators: the predefined ones */
    t->Comm_rank = native::comm_rank;
    t->Comm_size = native::comm_size;
    /* Errors and error handlers: the predefined ones */
    t->Comm_set_errhandler = native::comm_set_errhandler;
    t->Comm_get_errhandler = native::comm_get_errhandler;
    t->Comm_call_errhandler = native::comm_call_errhandler;
    t->Errhandler_free = native::errhandler_free;
    t->Error_string = native::error_string;
    t->Error_class = native::error_class;
}

std::vector<FunctionCoverage> native_coverage()
{
    tessera_mpi_dispatch_t table{};
    native_fill(&table);
    std::vector<FunctionCoverage> list;
    list.reserve(TESSERA_MPI_FUNCTION_COUNT);
    for (size_t i = 0; i < TESSERA_MPI_FUNCTION_COUNT; ++i) {
        list.push_back({tessera_mpi_slots[i].name, tessera_mpi_slot_filled(&table, i) != 0});
    }
    return list;
}

} // namespace tessera::ompi
