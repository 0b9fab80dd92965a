/*
 * Sources of events (MPI-4.1 15.3.9): one, the process's monotonic clock in nanoseconds. Every event
 * is stamped from it when it happens and delivered in that order, so the source is ordered.
 */
#include <limits>

#include "ompi/runtime/native_api.h"
#include "ompi/tool/mpit.h"

namespace tessera::ompi::native {

namespace {

int check_source(tool::State &s, int source_index)
{
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    return source_index == 0 ? MPI_SUCCESS : MPI_T_ERR_INVALID_INDEX;
}

} // namespace

int t_source_get_num(int *num_sources)
{
    tool::State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (num_sources == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    *num_sources = 1;
    return MPI_SUCCESS;
}

int t_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                      MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
    tool::State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = check_source(s, source_index); rc != MPI_SUCCESS) {
        return rc;
    }
    tool::string_out("process_clock", name, name_len);
    tool::string_out("the process's monotonic clock (CLOCK_MONOTONIC) in nanoseconds; every event of this process "
                     "is stamped from it and delivered in the order of its stamps",
                     desc, desc_len);
    if (ordering != nullptr) {
        *ordering = MPI_T_SOURCE_ORDERED;
    }
    if (ticks_per_second != nullptr) {
        *ticks_per_second = 1000000000;
    }
    if (max_ticks != nullptr) {
        *max_ticks = std::numeric_limits<MPI_Count>::max();
    }
    if (info != nullptr) {
        *info = MPI_INFO_NULL;
    }
    return MPI_SUCCESS;
}

int t_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    tool::State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = check_source(s, source_index); rc != MPI_SUCCESS) {
        return rc;
    }
    if (timestamp == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    *timestamp = tool::timestamp_now();
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
