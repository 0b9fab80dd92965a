/*
 * What the generated bindings (mpi_bindings.c, declared in tessera_mpi_dispatch.h) call in the
 * library: the bootstrap of the dispatch table, error raising, the report of a missing function, and
 * handle validity for the argument checks.
 */
#include <mutex>
#include <string>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_dispatch.h"

using tessera::ompi::ObjectKind;

extern "C" {

/*
 * The first MPI call of the process (MPI_Init, or one allowed before it such as MPI_Get_version)
 * fills the table. Issue 4 chooses a translator here; until then the native engine serves every call.
 * call_once makes a race between threads calling before MPI_Init harmless.
 */
void tessera_mpi_bootstrap(void)
{
    static std::once_flag once;
    std::call_once(once, [] {
        tessera::ompi::native_fill(&tessera_mpi_dispatch);
        __atomic_store_n(&tessera_mpi_dispatch_ready, 1, __ATOMIC_RELEASE);
    });
}

int tessera_mpi_raise(int kind, const void *object, int code, const char *function, const char *detail)
{
    return tessera::ompi::raise_error(static_cast<ObjectKind>(kind), object, code, function, detail);
}

int tessera_mpi_unsupported(const char *name, int kind, const void *object)
{
    return tessera::ompi::raise_error(static_cast<ObjectKind>(kind), object, MPI_ERR_UNSUPPORTED_OPERATION, name,
                                      std::string(name) + " is not implemented yet by Tessera's native engine");
}

int tessera_mpi_handle_valid(int kind, const void *handle)
{
    switch (static_cast<ObjectKind>(kind)) {
    case ObjectKind::Comm:
        return tessera::ompi::comm_lookup(static_cast<MPI_Comm>(const_cast<void *>(handle))) != nullptr;
    case ObjectKind::Errhandler:
        return tessera::ompi::errhandler_valid(static_cast<MPI_Errhandler>(const_cast<void *>(handle)));
    default:
        /* The generator checks only the classes above (CHECKED_HANDLE_CLASSES). */
        return 1;
    }
}

} // extern "C"
