/* The environmental inquiries of MPI-4.1 chapter 9.1 and the timers of 9.6. */
#include <time.h>

#include <string>

#include "ompi/runtime/native_api.h"
#include "ompi/runtime/runtime.h"
#include "ompi/runtime/string_out.h"
#include "tessera_config.h"

namespace tessera::ompi::native {

namespace {

double seconds(const timespec &t)
{
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

} // namespace

int get_processor_name(char *name, int *resultlen)
{
    copy_string_out(host_name(), name, MPI_MAX_PROCESSOR_NAME, resultlen);
    return MPI_SUCCESS;
}

int get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int get_library_version(char *version, int *resultlen)
{
    const std::string text = std::string("Tessera MPI ") + TESSERA_VERSION + " (MPI " + std::to_string(MPI_VERSION) +
                             "." + std::to_string(MPI_SUBVERSION) + " standard ABI " +
                             std::to_string(MPI_ABI_VERSION) + "." + std::to_string(MPI_ABI_SUBVERSION) +
                             ", native engine; " + TESSERA_BUILD_TYPE + " build, " + TESSERA_CXX_COMPILER + ")";
    copy_string_out(text, version, MPI_MAX_LIBRARY_VERSION_STRING, resultlen);
    return MPI_SUCCESS;
}

/* CLOCK_MONOTONIC: never jumps with the wall clock. Its origin is per host, so MPI_WTIME_IS_GLOBAL
 * will be false. */
double wtime()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return seconds(t);
}

/* The profiling interface's hook: the MPI library itself ignores it, as the standard says; a tool that
 * intercepts MPI_Pcontrol sees the call, and the trace framework records it as a region. */
int pcontrol(int, ...)
{
    return MPI_SUCCESS;
}

double wtick()
{
    timespec t{};
    if (clock_getres(CLOCK_MONOTONIC, &t) != 0 || (t.tv_sec == 0 && t.tv_nsec == 0)) {
        return 1e-9;
    }
    return seconds(t);
}

} // namespace tessera::ompi::native
