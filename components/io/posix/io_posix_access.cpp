/*
 * io posix: independent access (MPI-4.1 14.4.2). The view maps the access's stream bytes to file
 * ranges (FileView::ranges, from the filetype's dte description); memory is packed and unpacked by the
 * memory datatype's dte plan (convertor.h). A contiguous piece is one pread/pwrite; many small pieces
 * are served by data sieving as ROMIO does: one read of the window that covers them (and, for a write,
 * the patched window written back under a byte-range lock, so that processes writing interleaved
 * pieces of one window do not undo each other's).
 */
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

#include "components/io/posix/io_posix.h"
#include "ompi/datatype/convertor.h"

namespace tessera::ompi::io_posix {

namespace {

int io_error(File *f, const char *what, int64_t offset, uint64_t length, int err)
{
    return file_fail(f, file_errno_class(err),
                     std::string("cannot ") + what + " bytes [" + std::to_string(offset) + ", " +
                         std::to_string(offset + static_cast<int64_t>(length)) + ") of '" + f->filename +
                         "': " + std::strerror(err));
}

/* pread until `len` bytes or the end of the file; *got the bytes read. */
int read_fully(File *f, int fd, char *to, uint64_t len, int64_t offset, uint64_t *got)
{
    *got = 0;
    while (*got < len) {
        const ssize_t n = ::pread(fd, to + *got, len - *got, offset + static_cast<int64_t>(*got));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return io_error(f, "read", offset, len, errno);
        }
        if (n == 0) {
            break;
        }
        *got += static_cast<uint64_t>(n);
    }
    return MPI_SUCCESS;
}

int write_fully(File *f, int fd, const char *from, uint64_t len, int64_t offset)
{
    uint64_t done = 0;
    while (done < len) {
        const ssize_t n = ::pwrite(fd, from + done, len - done, offset + static_cast<int64_t>(done));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return io_error(f, "write", offset, len, errno);
        }
        done += static_cast<uint64_t>(n);
    }
    return MPI_SUCCESS;
}

/* A byte-range lock held for a scope (fcntl: between processes; threads of one process share it). */
class RangeLock {
public:
    RangeLock(int fd, short type, int64_t offset, uint64_t length) : fd_(fd)
    {
        struct flock fl {};
        fl.l_type = type;
        fl.l_whence = SEEK_SET;
        fl.l_start = offset;
        fl.l_len = static_cast<off_t>(length);
        while (::fcntl(fd_, F_SETLKW, &fl) != 0 && errno == EINTR) {
        }
        start_ = offset;
        length_ = length;
    }
    ~RangeLock()
    {
        struct flock fl {};
        fl.l_type = F_UNLCK;
        fl.l_whence = SEEK_SET;
        fl.l_start = start_;
        fl.l_len = static_cast<off_t>(length_);
        ::fcntl(fd_, F_SETLK, &fl);
    }
    RangeLock(const RangeLock &) = delete;
    RangeLock &operator=(const RangeLock &) = delete;

private:
    int fd_;
    int64_t start_ = 0;
    uint64_t length_ = 0;
};

/* The ranges [first, last) that one sieving window covers: increasing offsets, at most `window`
 * bytes from the first start to the last end. */
size_t window_end(const std::vector<FileRange> &r, size_t first, size_t window)
{
    const int64_t start = r[first].offset;
    size_t last = first + 1;
    while (last < r.size() && r[last].offset >= r[last - 1].offset + static_cast<int64_t>(r[last - 1].length) &&
           r[last].offset + static_cast<int64_t>(r[last].length) - start <= static_cast<int64_t>(window)) {
        ++last;
    }
    return last;
}

/* Whether to sieve ranges [first, last): `mode` decides, automatic when the pieces are at least half
 * of the window. */
bool sieve(int mode, const std::vector<FileRange> &r, size_t first, size_t last)
{
    if (last - first < 2 || mode == Disable) {
        return false;
    }
    if (mode == Enable) {
        return true;
    }
    uint64_t data = 0;
    for (size_t i = first; i < last; ++i) {
        data += r[i].length;
    }
    const uint64_t span = static_cast<uint64_t>(r[last - 1].offset + static_cast<int64_t>(r[last - 1].length) -
                                                r[first].offset);
    return data * 2 >= span;
}

/* The bounds of all ranges (for atomic mode's lock). */
FileRange bounds(const std::vector<FileRange> &r)
{
    int64_t lo = r.front().offset, hi = lo;
    for (const FileRange &x : r) {
        lo = std::min(lo, x.offset);
        hi = std::max(hi, x.offset + static_cast<int64_t>(x.length));
    }
    return {lo, static_cast<uint64_t>(hi - lo)};
}

} // namespace

int ranges_read(File *f, FileState *st, const std::vector<FileRange> &r, char *packed, size_t *bytes)
{
    *bytes = 0;
    std::vector<char> window;
    size_t i = 0;
    while (i < r.size()) {
        const size_t last = window_end(r, i, st->in_force.ds_buffer_size);
        if (sieve(st->in_force.ds_read, r, i, last)) {
            const int64_t start = r[i].offset;
            const uint64_t span = static_cast<uint64_t>(r[last - 1].offset +
                                                        static_cast<int64_t>(r[last - 1].length) - start);
            window.resize(span);
            uint64_t got = 0;
            if (int rc = read_fully(f, st->fd, window.data(), span, start, &got); rc != MPI_SUCCESS) {
                return rc;
            }
            for (size_t k = i; k < last; ++k) {
                const uint64_t at = static_cast<uint64_t>(r[k].offset - start);
                const uint64_t have = got > at ? std::min<uint64_t>(got - at, r[k].length) : 0;
                std::memcpy(packed + *bytes, window.data() + at, have);
                *bytes += have;
                if (have < r[k].length) {
                    return MPI_SUCCESS; /* the end of the file */
                }
            }
            i = last;
            continue;
        }
        uint64_t got = 0;
        if (int rc = read_fully(f, st->fd, packed + *bytes, r[i].length, r[i].offset, &got); rc != MPI_SUCCESS) {
            return rc;
        }
        *bytes += got;
        if (got < r[i].length) {
            return MPI_SUCCESS;
        }
        ++i;
    }
    return MPI_SUCCESS;
}

int ranges_write(File *f, FileState *st, const std::vector<FileRange> &r, const char *packed)
{
    std::vector<char> window;
    uint64_t done = 0;
    size_t i = 0;
    while (i < r.size()) {
        const size_t last = window_end(r, i, st->in_force.ds_buffer_size);
        if (st->can_read && sieve(st->in_force.ds_write, r, i, last)) {
            const int64_t start = r[i].offset;
            const uint64_t span = static_cast<uint64_t>(r[last - 1].offset +
                                                        static_cast<int64_t>(r[last - 1].length) - start);
            window.assign(span, 0);
            /* Read-modify-write: the holes between the pieces keep what another process wrote. */
            const RangeLock lock(st->fd, F_WRLCK, start, span);
            uint64_t got = 0;
            if (int rc = read_fully(f, st->fd, window.data(), span, start, &got); rc != MPI_SUCCESS) {
                return rc;
            }
            for (size_t k = i; k < last; ++k) {
                std::memcpy(window.data() + (r[k].offset - start), packed + done, r[k].length);
                done += r[k].length;
            }
            if (int rc = write_fully(f, st->fd, window.data(), span, start); rc != MPI_SUCCESS) {
                return rc;
            }
            i = last;
            continue;
        }
        if (int rc = write_fully(f, st->fd, packed + done, r[i].length, r[i].offset); rc != MPI_SUCCESS) {
            return rc;
        }
        done += r[i].length;
        ++i;
    }
    return MPI_SUCCESS;
}

int read_at(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, MCA_IO_FILE)
{
    File *f = io::of(file);
    FileState *st = state(module);
    const Datatype &type = *io::of(datatype);
    const uint64_t total = count * type.size;
    *bytes = 0;
    if (total == 0) {
        return MPI_SUCCESS;
    }
    std::vector<FileRange> r;
    f->view.ranges(static_cast<uint64_t>(offset) * f->view.etype->size, total, &r);
    const char *direct = convertor_contiguous(buf, type);
    std::vector<char> packed(direct != nullptr ? 0 : total);
    char *to = direct != nullptr ? const_cast<char *>(direct) : packed.data();
    int rc = MPI_SUCCESS;
    if (f->atomic) {
        const FileRange b = bounds(r);
        const RangeLock lock(st->fd, F_RDLCK, b.offset, b.length);
        rc = ranges_read(f, st, r, to, bytes);
    } else {
        rc = ranges_read(f, st, r, to, bytes);
    }
    if (rc == MPI_SUCCESS && direct == nullptr) {
        convertor_unpack(buf, count, type, 0, packed.data(), *bytes);
    }
    return rc;
}

int write_at(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, MCA_IO_FILE)
{
    File *f = io::of(file);
    FileState *st = state(module);
    const Datatype &type = *io::of(datatype);
    const uint64_t total = count * type.size;
    *bytes = 0;
    if (total == 0) {
        return MPI_SUCCESS;
    }
    std::vector<FileRange> r;
    f->view.ranges(static_cast<uint64_t>(offset) * f->view.etype->size, total, &r);
    const char *from = convertor_contiguous(buf, type);
    std::vector<char> packed;
    if (from == nullptr) {
        packed.resize(total);
        convertor_pack(buf, count, type, 0, packed.data(), total);
        from = packed.data();
    }
    int rc = MPI_SUCCESS;
    if (f->atomic) {
        /* Atomic mode (MPI-4.1 14.6.1): the whole access under one lock, so that a concurrent
         * conflicting access sees all of it or none. Sieving inside takes no lock of its own (fcntl
         * locks of one process never conflict). */
        const FileRange b = bounds(r);
        const RangeLock lock(st->fd, F_WRLCK, b.offset, b.length);
        rc = ranges_write(f, st, r, from);
    } else {
        rc = ranges_write(f, st, r, from);
    }
    if (rc == MPI_SUCCESS) {
        *bytes = total;
    }
    return rc;
}

} // namespace tessera::ompi::io_posix
