/*
 * Reading an OTF2 archive through the OTF2 reader API: its global definitions, then every location's
 * events merged in timestamp order by the global event reader, handed one by one to a RecordSink. The
 * reader keeps only OTF2's chunk buffers, so memory does not grow with the trace.
 */
#ifndef TESSERA_TOOLS_TRACE_ARCHIVE_READER_H
#define TESSERA_TOOLS_TRACE_ARCHIVE_READER_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "definitions.h"
#include "trace_types.h"

struct OTF2_Reader_struct;

namespace tessera::trace {

/*
 * The MPI point-to-point records, as the archive holds them: `location` is the OTF2 location the
 * record is on, `peer` a rank local to `comm`.
 */
class RecordSink {
public:
    virtual ~RecordSink() = default;
    virtual void mpi_send(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                          uint64_t bytes) = 0;
    virtual void mpi_isend(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                           uint64_t bytes, uint64_t request) = 0;
    virtual void mpi_isend_complete(uint64_t location, Ticks time, uint64_t request) = 0;
    virtual void mpi_irecv_request(uint64_t location, Ticks time, uint64_t request) = 0;
    virtual void mpi_recv(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                          uint64_t bytes) = 0;
    virtual void mpi_irecv(uint64_t location, Ticks time, uint32_t peer, uint32_t comm, uint32_t tag,
                           uint64_t bytes, uint64_t request) = 0;
    virtual void mpi_request_cancelled(uint64_t location, Ticks time, uint64_t request) = 0;
};

class ArchiveReader {
public:
    /* Opens the archive whose anchor file is `anchor_path` (".../traces.otf2"); nullptr and `error`. */
    static std::unique_ptr<ArchiveReader> open(const std::string &anchor_path, std::string &error);
    ~ArchiveReader();
    ArchiveReader(const ArchiveReader &) = delete;
    ArchiveReader &operator=(const ArchiveReader &) = delete;

    /* The global definitions; false and `error` when the archive cannot be read. */
    bool read_definitions(Definitions &defs, std::string &error);
    /*
     * Every event of every defined location in timestamp order; the MPI point-to-point ones go to
     * `sink`. `events` counts all records read, of any kind. Call after read_definitions.
     */
    bool read_events(RecordSink &sink, uint64_t &events, std::string &error);

private:
    explicit ArchiveReader(OTF2_Reader_struct *reader) : reader_(reader) {}
    OTF2_Reader_struct *reader_;
    std::vector<uint64_t> locations_;
};

} // namespace tessera::trace

#endif
