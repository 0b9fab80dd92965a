/* io posix: the parameters, the per-file state and the entry points the module's files share. */
#ifndef TESSERA_COMPONENTS_IO_POSIX_IO_POSIX_H
#define TESSERA_COMPONENTS_IO_POSIX_IO_POSIX_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/io/io.h"
#include "ompi/file/file.h"

namespace tessera::ompi::io_posix {

/* A ROMIO-style switch: always, never, or when the access pattern asks for it. */
enum Switch : int { Enable = 0, Disable = 1, Automatic = 2 };

/* Parameter values (the component's defaults, io_posix_*); each file starts from them, and its hints
 * override them for that file (io_posix_hints.cpp). */
struct Params {
    int priority = 10;
    std::size_t ds_buffer_size = 0; /* data sieving window (ind_rd_buffer_size / ind_wr_buffer_size) */
    int ds_read = Automatic;
    int ds_write = Automatic;
    std::size_t cb_buffer_size = 0; /* two-phase: bytes an aggregator handles per round */
    int cb_nodes = 0;               /* aggregators; 0: one per host */
    int cb_read = Automatic;
    int cb_write = Automatic;
};
extern Params params;

/* What one open file uses: its descriptor and the values in force. */
struct FileState {
    int fd = -1;
    bool delete_on_close = false;
    /* Whether the descriptor can read: a file opened MPI_MODE_WRONLY is opened read-write where the
     * permissions allow, because data sieving and collective buffering read before they write. */
    bool can_read = true;
    Params in_force;
    /* The first process of each host, in rank order: the aggregators when cb_nodes is 0. */
    std::vector<int> host_leaders;
};

inline FileState *state(mca_io_base_module_t *module)
{
    return static_cast<FileState *>(module->module_state);
}

mca_io_base_module_t *module_create();

/* Reads the file's hints into st->in_force (from `params`), and writes the values in force back into
 * the file's info (MPI_File_get_info reports them). MPI error class. */
int hints_apply(File *f, FileState *st);

/* Independent access (io_posix_access.cpp). */
int read_at(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, MCA_IO_FILE);
int write_at(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, MCA_IO_FILE);

/* Collective access by two-phase collective buffering (io_posix_coll.cpp). */
int read_at_all(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, MCA_IO_FILE);
int write_at_all(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, MCA_IO_FILE);
/* Collective, at open: the first process of each host. */
int find_host_leaders(File *f, FileState *st);

/* The file ranges of a stream part, and the transfers between a packed buffer and the file along
 * them; shared by independent and collective access. `why` gets an errno sentence naming the file. */
int ranges_read(File *f, FileState *st, const std::vector<FileRange> &ranges, char *packed, size_t *bytes);
int ranges_write(File *f, FileState *st, const std::vector<FileRange> &ranges, const char *packed);

} // namespace tessera::ompi::io_posix

#endif
