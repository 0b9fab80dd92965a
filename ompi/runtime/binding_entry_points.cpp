/*
 * What the generated bindings (mpi_bindings.c, mpi_checked.c, declared in tessera_mpi_dispatch.h)
 * call in the library: the bootstrap of the dispatch table, error raising, the report of a missing
 * function, and handle validity for the native engine's argument checks.
 */
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "frameworks/translator/base/base.h"
#include "mca/report.h"
#include "ompi/communicator/comm_handoff.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/errhandler/error_classes.h"
#include "ompi/group/group.h"
#include "ompi/runtime/translator_bootstrap.h"

using tessera::ompi::ObjectKind;

namespace {

/* Whether the table holds a translator's functions; false after a failed selection or fill. */
bool translator_ready = false;

bool native_selected()
{
    const mca_translator_base_module_t *m = mca_translator_base_selected();
    return m == nullptr || m->translator_component == nullptr ||
           std::strcmp(m->translator_component->base.mca_component_name, "native") == 0;
}

/* Says once per function that it is missing, when the error handler will not say it (it returns, or
 * the function has none): under MPI_ERRORS_RETURN, the default for files, a program would otherwise
 * get an error class with no word of which call it was. A fatal handler's message names the function
 * already. */
void notice_missing(const char *name, const std::string &by)
{
    static std::mutex mutex;
    static std::set<std::string> told;
    {
        const std::lock_guard lock(mutex);
        if (!told.insert(name).second) {
            return;
        }
    }
    tessera::mca::report(tessera::mca::Severity::Warning,
                         std::string(name) + " is not implemented by " + by + "; see tessera_info --coverage");
}

/* A runtime translator has no native objects to raise on: the runtime's error handler of the
 * communicator decides, called through the table (application-side handle). Our message goes first
 * when that handler ends the job, since the runtime's own would not name the function. */
int raise_through_runtime(int kind, const void *object, int code, const std::string &text, const char *missing = nullptr)
{
    const tessera_mpi_dispatch_t &t = tessera_mpi_dispatch;
    const tessera_mpi_dispatch_t &fallback = tessera_mpi_unsupported_fallbacks;
    /* Without the runtime's three functions there is no handler to call (and calling a fallback would
     * come back here). */
    if (kind != TESSERA_MPI_OBJ_COMM || object == nullptr || t.Comm_get_errhandler == fallback.Comm_get_errhandler ||
        t.Comm_call_errhandler == fallback.Comm_call_errhandler || t.Errhandler_free == fallback.Errhandler_free) {
        tessera::mca::report(tessera::mca::Severity::Error, text);
        return code;
    }
    auto comm = static_cast<MPI_Comm>(const_cast<void *>(object));
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
    if (t.Comm_get_errhandler(comm, &handler) != MPI_SUCCESS) {
        return code;
    }
    if (handler == MPI_ERRORS_ARE_FATAL || handler == MPI_ERRORS_ABORT) {
        tessera::mca::report(tessera::mca::Severity::Error, text);
    } else {
        if (missing != nullptr) {
            notice_missing(missing, mca_translator_base_runtime_name());
        }
        if (handler != MPI_ERRORS_RETURN) {
            (void)t.Errhandler_free(&handler);
        }
    }
    (void)t.Comm_call_errhandler(comm, code);
    return code;
}

} // namespace

extern "C" {

/*
 * The first MPI call of the process (MPI_Init, or one allowed before it such as MPI_Get_version)
 * presets every entry with its fallback and lets the selected translator fill the table.
 * The table is filled aside and published entry by entry with atomic stores: a thread calling
 * meanwhile reads either its boot entry, which waits here in call_once, or the final entry — never a
 * fallback the translator was about to replace.
 */
void tessera_mpi_bootstrap(void)
{
    static std::once_flag once;
    std::call_once(once, [] {
        static tessera_mpi_dispatch_t staged;
        staged = tessera_mpi_unsupported_fallbacks;
        translator_ready = tessera::ompi::bootstrap_translator(&staged, nullptr) == TESSERA_SUCCESS;
        using Entry = void (*)();
        const auto *from = reinterpret_cast<const Entry *>(&staged);
        auto *to = reinterpret_cast<Entry *>(&tessera_mpi_dispatch);
        for (size_t i = 0; i < TESSERA_MPI_FUNCTION_COUNT; ++i) {
            __atomic_store_n(&to[i], from[i], __ATOMIC_RELEASE);
        }
        __atomic_store_n(&tessera_mpi_dispatch_ready, 1, __ATOMIC_RELEASE);
    });
}

int tessera_mpi_raise(int kind, const void *object, int code, const char *function, const char *detail)
{
    if (translator_ready && !native_selected()) {
        return raise_through_runtime(kind, object, code,
                                     std::string(function) + ": " + tessera::ompi::error_name(code) + ": " + detail);
    }
    return tessera::ompi::raise_error(static_cast<ObjectKind>(kind), object, code, function, detail);
}

int tessera_mpi_unsupported(const char *name, int kind, const void *object)
{
    if (!translator_ready) {
        /* Nothing serves the process: the native engine's handlers (MPI_ERRORS_ARE_FATAL on
         * MPI_COMM_SELF for MPI_Init) end it with this message. */
        return tessera::ompi::raise_error(static_cast<ObjectKind>(kind), object, MPI_ERR_UNSUPPORTED_OPERATION,
                                          name,
                                          "no MPI runtime serves this process: the translator selection failed "
                                          "(see the error above)");
    }
    if (native_selected()) {
        if (!tessera::ompi::raise_ends_job(static_cast<ObjectKind>(kind), object)) {
            notice_missing(name, "Tessera's native engine");
        }
        return tessera::ompi::raise_error(static_cast<ObjectKind>(kind), object, MPI_ERR_UNSUPPORTED_OPERATION, name,
                                          std::string(name) + " is not implemented yet by Tessera's native engine");
    }
    return raise_through_runtime(kind, object, MPI_ERR_UNSUPPORTED_OPERATION,
                                 std::string(name) + ": MPI_ERR_UNSUPPORTED_OPERATION: " + name +
                                     " is not provided by " + mca_translator_base_runtime_name(),
                                 name);
}

int tessera_mpi_handle_valid(int kind, const void *handle)
{
    switch (static_cast<ObjectKind>(kind)) {
    case ObjectKind::Comm: {
        const auto comm = static_cast<MPI_Comm>(const_cast<void *>(handle));
        tessera::ompi::Communicator *c = tessera::ompi::comm_lookup(comm);
        tessera::ompi::comm_handoff_put(comm, c); /* for the engine's check of the same call */
        return c != nullptr;
    }
    case ObjectKind::Errhandler:
        return tessera::ompi::errhandler_valid(static_cast<MPI_Errhandler>(const_cast<void *>(handle)));
    case ObjectKind::Group:
        return tessera::ompi::group_lookup(static_cast<MPI_Group>(const_cast<void *>(handle))) != nullptr;
    default:
        /* The generator checks only the classes above (CHECKED_HANDLE_CLASSES). */
        return 1;
    }
}

int tessera_mpi_comm_settable(const void *handle)
{
    return tessera::ompi::comm_lookup_settable(static_cast<MPI_Comm>(const_cast<void *>(handle))) != nullptr;
}

} // extern "C"
