/* io posix: registration, the query (a module for every file) and MPI_File_delete. */
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <unistd.h>

#include "components/io/posix/io_posix.h"
#include "mca/constants.h"
#include "mca/var.h"

namespace tessera::ompi::io_posix {

Params params;

namespace {

const mca_var_enum_value_t switch_values[] = {
    {Enable, "enable"}, {Disable, "disable"}, {Automatic, "automatic"}, {0, nullptr}};

int register_params(const mca_base_component_t *)
{
    const mca_var_row_t rows[] = {
        {"priority", MCA_VAR_TYPE_INT, "10", nullptr, nullptr,
         "Priority of the posix file access: each file is served by the highest-priority component offering a "
         "module for it",
         MCA_INFO_LVL_6, nullptr, &params.priority},
        {"ds_buffer_size", MCA_VAR_TYPE_SIZE, "4M", "4k", "1G",
         "Data sieving: bytes of the file read (and written back) at once around the pieces of a non-contiguous "
         "independent access (hints ind_rd_buffer_size / ind_wr_buffer_size set it per file)",
         MCA_INFO_LVL_4, nullptr, &params.ds_buffer_size},
        {"ds_read", MCA_VAR_TYPE_ENUM, "automatic", nullptr, nullptr,
         "Data sieving of non-contiguous independent reads: enable (always read the covering window), disable "
         "(read each piece) or automatic (sieve when the pieces fill at least half of the window; hint "
         "romio_ds_read)",
         MCA_INFO_LVL_4, switch_values, &params.ds_read},
        {"ds_write", MCA_VAR_TYPE_ENUM, "automatic", nullptr, nullptr,
         "Data sieving of non-contiguous independent writes (read-modify-write of the covering window under a "
         "byte-range lock): enable, disable (write the pieces with pwritev) or automatic (sieve when the "
         "pieces are many and fill at least half of the window; hint romio_ds_write)",
         MCA_INFO_LVL_4, switch_values, &params.ds_write},
        {"cb_buffer_size", MCA_VAR_TYPE_SIZE, "16M", "4k", "1G",
         "Two-phase collective buffering: bytes of its file domain an aggregator reads or writes per round "
         "(hint cb_buffer_size)",
         MCA_INFO_LVL_4, nullptr, &params.cb_buffer_size},
        {"cb_nodes", MCA_VAR_TYPE_INT, "0", "0", nullptr,
         "Two-phase collective buffering: number of aggregators (0: one per host; hint cb_nodes)", MCA_INFO_LVL_4,
         nullptr, &params.cb_nodes},
        {"cb_read", MCA_VAR_TYPE_ENUM, "automatic", nullptr, nullptr,
         "Collective buffering of collective reads: enable, disable (each process reads its own pieces) or "
         "automatic (when the processes' accesses interleave; hint romio_cb_read)",
         MCA_INFO_LVL_4, switch_values, &params.cb_read},
        {"cb_write", MCA_VAR_TYPE_ENUM, "automatic", nullptr, nullptr,
         "Collective buffering of collective writes: enable, disable or automatic (when the processes' accesses "
         "interleave; hint romio_cb_write)",
         MCA_INFO_LVL_4, switch_values, &params.cb_write},
    };
    return mca_var_register_rows("io", "posix", rows, std::size(rows), MCA_VAR_SCOPE_GROUP);
}

mca_io_base_module_t *file_query(struct tessera_file *, const mca_io_base_file_args_t *, int *out_priority)
{
    *out_priority = params.priority;
    return module_create();
}

int delete_file(const char *filename, char *why, size_t why_len)
{
    if (::unlink(filename) == 0) {
        return MPI_SUCCESS;
    }
    const int err = errno;
    std::snprintf(why, why_len, "cannot delete '%s': %s", filename, std::strerror(err));
    return file_errno_class(err);
}

} // namespace
} // namespace tessera::ompi::io_posix

using namespace tessera::ompi::io_posix;

mca_io_base_component_t mca_io_posix_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_io_base_component_t, "io", MCA_IO_BASE_VERSION, "posix", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = nullptr,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .io_file_query = file_query,
    .io_delete = delete_file,
    .reserved = {},
};
