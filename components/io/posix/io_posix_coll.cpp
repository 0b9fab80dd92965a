/*
 * io posix: collective access by two-phase collective buffering, as ROMIO does it. The file range that
 * all processes access together is cut into one contiguous domain per aggregator; each round, every
 * aggregator handles cb_buffer_size bytes of its domain: the processes send it the pieces of their
 * accesses that fall there (offsets and data, through alltoallv on the file's private communicator),
 * and it writes them with one pwrite (reading the window first when the pieces leave holes), or reads
 * the window with one pread and sends each process its pieces back. Many small interleaved accesses
 * from many processes become few large ones.
 *
 * Whether to do it: romio_cb_write / romio_cb_read (io_posix_cb_write / cb_read) enable, disable, or
 * automatic: when the processes' accesses interleave (one's range begins before another's ends);
 * otherwise each process accesses its own part independently (with data sieving).
 */
#include <algorithm>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include "components/io/posix/io_posix.h"
#include "ompi/datatype/convertor.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::io_posix {

namespace {

/* A range of this process's access, in file order, with where its bytes are in the packed stream. */
struct Piece {
    int64_t offset;
    uint64_t length;
    uint64_t stream;
};

/* What goes on the wire for one piece. */
struct WirePiece {
    int64_t offset;
    uint64_t length;
};
static_assert(sizeof(WirePiece) == 16);

std::vector<Piece> sorted_pieces(const std::vector<FileRange> &ranges)
{
    std::vector<Piece> out;
    out.reserve(ranges.size());
    uint64_t stream = 0;
    for (const FileRange &r : ranges) {
        out.push_back({r.offset, r.length, stream});
        stream += r.length;
    }
    std::sort(out.begin(), out.end(), [](const Piece &a, const Piece &b) { return a.offset < b.offset; });
    return out;
}

/* The pieces clipped to [lo, hi), appended to *out. */
void clip(const std::vector<Piece> &pieces, int64_t lo, int64_t hi, std::vector<Piece> *out)
{
    auto it = std::lower_bound(pieces.begin(), pieces.end(), lo, [](const Piece &p, int64_t at) {
        return p.offset + static_cast<int64_t>(p.length) <= at;
    });
    for (; it != pieces.end() && it->offset < hi; ++it) {
        const int64_t a = std::max(it->offset, lo);
        const int64_t b = std::min(it->offset + static_cast<int64_t>(it->length), hi);
        if (a < b) {
            out->push_back({a, static_cast<uint64_t>(b - a), it->stream + static_cast<uint64_t>(a - it->offset)});
        }
    }
}

/* The aggregators: one per host (cb_nodes 0), or cb_nodes ranks spread evenly. */
std::vector<int> aggregators(const File *f, const FileState *st)
{
    if (st->in_force.cb_nodes <= 0) {
        return st->host_leaders;
    }
    std::vector<int> out;
    const int n = std::min(st->in_force.cb_nodes, f->size);
    for (int i = 0; i < n; ++i) {
        out.push_back(static_cast<int>(static_cast<int64_t>(i) * f->size / n));
    }
    return out;
}

int sys_error(File *f, const char *what, int64_t lo, int64_t hi, int err)
{
    return file_fail(f, file_errno_class(err),
                     std::string("cannot ") + what + " bytes [" + std::to_string(lo) + ", " + std::to_string(hi) +
                         ") of '" + f->filename + "': " + std::strerror(err));
}

int pread_window(File *f, int fd, char *to, int64_t lo, int64_t hi)
{
    uint64_t done = 0;
    const uint64_t len = static_cast<uint64_t>(hi - lo);
    while (done < len) {
        const ssize_t n = ::pread(fd, to + done, len - done, lo + static_cast<int64_t>(done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return sys_error(f, "read", lo, hi, errno);
        }
        if (n == 0) {
            std::memset(to + done, 0, len - done); /* past the end of the file */
            break;
        }
        done += static_cast<uint64_t>(n);
    }
    return MPI_SUCCESS;
}

int pwrite_window(File *f, int fd, const char *from, int64_t lo, int64_t hi)
{
    uint64_t done = 0;
    const uint64_t len = static_cast<uint64_t>(hi - lo);
    while (done < len) {
        const ssize_t n = ::pwrite(fd, from + done, len - done, lo + static_cast<int64_t>(done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return sys_error(f, "write", lo, hi, errno);
        }
        done += static_cast<uint64_t>(n);
    }
    return MPI_SUCCESS;
}

int agree(File *f, int rc)
{
    int worst = rc;
    if (native::allreduce_c(&rc, &worst, 1, MPI_INT, MPI_MAX, f->comm) != MPI_SUCCESS) {
        return file_fail(f, MPI_ERR_OTHER, "the processes of " + file_label(*f) + " could not agree");
    }
    if (worst != MPI_SUCCESS && rc == MPI_SUCCESS) {
        f->error_detail = "another process failed in a collective access to " + file_label(*f);
    }
    return worst;
}

/* The collective, both directions. `packed` is this process's stream (written from, or read into). */
int two_phase(File *f, FileState *st, const std::vector<FileRange> &ranges, char *packed, bool write, int mode,
              bool *done_independently)
{
    *done_independently = false;
    const int64_t none_lo = INT64_MAX, none_hi = INT64_MIN;
    int64_t mine[2] = {none_lo, none_hi};
    for (const FileRange &r : ranges) {
        mine[0] = std::min(mine[0], r.offset);
        mine[1] = std::max(mine[1], r.offset + static_cast<int64_t>(r.length));
    }
    std::vector<int64_t> all(2 * static_cast<size_t>(f->size));
    if (native::allgather_c(mine, 2, MPI_INT64_T, all.data(), 2, MPI_INT64_T, f->comm) != MPI_SUCCESS) {
        return file_fail(f, MPI_ERR_OTHER, "the processes could not exchange their access ranges");
    }
    int64_t glo = none_lo, ghi = none_hi;
    std::vector<std::pair<int64_t, int64_t>> spans;
    for (int p = 0; p < f->size; ++p) {
        const int64_t lo = all[2 * static_cast<size_t>(p)], hi = all[2 * static_cast<size_t>(p) + 1];
        if (lo < hi) {
            glo = std::min(glo, lo);
            ghi = std::max(ghi, hi);
            spans.emplace_back(lo, hi);
        }
    }
    if (spans.empty()) {
        return MPI_SUCCESS; /* nobody accesses anything */
    }
    bool interleaved = false;
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); ++i) {
        interleaved = interleaved || spans[i].first < spans[i - 1].second;
    }
    if (mode == Disable || (mode == Automatic && !interleaved)) {
        *done_independently = true;
        return MPI_SUCCESS;
    }

    const std::vector<int> aggs = aggregators(f, st);
    const int64_t naggs = static_cast<int64_t>(aggs.size());
    const int64_t domain = (ghi - glo + naggs - 1) / naggs;
    const int64_t buffer = static_cast<int64_t>(st->in_force.cb_buffer_size);
    const int64_t rounds = (domain + buffer - 1) / buffer;
    int my_agg = -1;
    for (int64_t a = 0; a < naggs; ++a) {
        if (aggs[static_cast<size_t>(a)] == f->rank) {
            my_agg = static_cast<int>(a);
        }
    }
    const std::vector<Piece> pieces = sorted_pieces(ranges);
    const size_t n = static_cast<size_t>(f->size);
    std::vector<MPI_Count> scount(n), rcount(n), sdcount(n), rdcount(n);
    std::vector<MPI_Aint> sdispl(n), rdispl(n), sddispl(n), rddispl(n);
    std::vector<WirePiece> send_hdr, recv_hdr;
    std::vector<char> send_data, recv_data, window;
    std::vector<Piece> out;
    std::vector<size_t> first_of(n + 1);
    int rc = MPI_SUCCESS;

    for (int64_t round = 0; round < rounds; ++round) {
        /* The pieces of this round, grouped by aggregator. */
        out.clear();
        std::fill(scount.begin(), scount.end(), 0);
        std::fill(sdcount.begin(), sdcount.end(), 0);
        for (int64_t a = 0; a < naggs; ++a) {
            const int64_t lo = glo + a * domain + round * buffer;
            const int64_t hi = std::min({lo + buffer, glo + (a + 1) * domain, ghi});
            const size_t before = out.size();
            if (lo < hi) {
                clip(pieces, lo, hi, &out);
            }
            const size_t dest = static_cast<size_t>(aggs[static_cast<size_t>(a)]);
            scount[dest] = static_cast<MPI_Count>((out.size() - before) * sizeof(WirePiece));
            for (size_t k = before; k < out.size(); ++k) {
                sdcount[dest] += static_cast<MPI_Count>(out[k].length);
            }
        }
        /* Pieces are in aggregator order, which is rank order only if aggs is sorted: it is. */
        send_hdr.resize(out.size());
        uint64_t data_bytes = 0;
        for (size_t k = 0; k < out.size(); ++k) {
            send_hdr[k] = {out[k].offset, out[k].length};
            data_bytes += out[k].length;
        }
        if (write) {
            send_data.resize(data_bytes);
            uint64_t at = 0;
            for (const Piece &p : out) {
                std::memcpy(send_data.data() + at, packed + p.stream, p.length);
                at += p.length;
            }
        }
        MPI_Aint s = 0, sd = 0;
        for (size_t p = 0; p < n; ++p) {
            sdispl[p] = s;
            s += static_cast<MPI_Aint>(scount[p]);
            sddispl[p] = sd;
            sd += static_cast<MPI_Aint>(sdcount[p]);
        }
        std::vector<MPI_Count> counts(2 * n), got(2 * n);
        for (size_t p = 0; p < n; ++p) {
            counts[2 * p] = scount[p];
            counts[2 * p + 1] = sdcount[p];
        }
        if (native::alltoall_c(counts.data(), 2, MPI_COUNT, got.data(), 2, MPI_COUNT, f->comm) != MPI_SUCCESS) {
            return file_fail(f, MPI_ERR_OTHER, "the processes could not exchange their piece counts");
        }
        MPI_Aint r = 0, rd = 0;
        for (size_t p = 0; p < n; ++p) {
            rcount[p] = got[2 * p];
            rdcount[p] = got[2 * p + 1];
            rdispl[p] = r;
            r += static_cast<MPI_Aint>(rcount[p]);
            rddispl[p] = rd;
            rd += static_cast<MPI_Aint>(rdcount[p]);
        }
        recv_hdr.resize(static_cast<size_t>(r) / sizeof(WirePiece));
        if (native::alltoallv_c(send_hdr.data(), scount.data(), sdispl.data(), MPI_BYTE, recv_hdr.data(),
                                rcount.data(), rdispl.data(), MPI_BYTE, f->comm) != MPI_SUCCESS) {
            return file_fail(f, MPI_ERR_OTHER, "the processes could not exchange their pieces");
        }
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        uint64_t covered = 0;
        for (const WirePiece &w : recv_hdr) {
            lo = std::min(lo, w.offset);
            hi = std::max(hi, w.offset + static_cast<int64_t>(w.length));
            covered += w.length;
        }
        const bool busy = my_agg >= 0 && !recv_hdr.empty();
        if (write) {
            recv_data.resize(static_cast<size_t>(rd));
            if (native::alltoallv_c(send_data.data(), sdcount.data(), sddispl.data(), MPI_BYTE, recv_data.data(),
                                    rdcount.data(), rddispl.data(), MPI_BYTE, f->comm) != MPI_SUCCESS) {
                return file_fail(f, MPI_ERR_OTHER, "the processes could not send their data to the aggregators");
            }
            if (busy && rc == MPI_SUCCESS) {
                const bool holes = covered < static_cast<uint64_t>(hi - lo);
                if (holes && !st->can_read) {
                    /* Cannot read the holes back: each piece on its own. */
                    uint64_t at = 0;
                    for (const WirePiece &w : recv_hdr) {
                        if (rc == MPI_SUCCESS) {
                            rc = pwrite_window(f, st->fd, recv_data.data() + at, w.offset,
                                               w.offset + static_cast<int64_t>(w.length));
                        }
                        at += w.length;
                    }
                } else {
                    window.resize(static_cast<size_t>(hi - lo));
                    /* Holes between the pieces keep what the file holds. */
                    if (holes) {
                        rc = pread_window(f, st->fd, window.data(), lo, hi);
                    }
                    uint64_t at = 0;
                    for (const WirePiece &w : recv_hdr) {
                        std::memcpy(window.data() + (w.offset - lo), recv_data.data() + at, w.length);
                        at += w.length;
                    }
                    if (rc == MPI_SUCCESS) {
                        rc = pwrite_window(f, st->fd, window.data(), lo, hi);
                    }
                }
            }
        } else {
            /* The aggregator reads its window and answers each piece, in the order asked. */
            recv_data.resize(static_cast<size_t>(rd));
            std::vector<char> reply;
            if (busy) {
                window.resize(static_cast<size_t>(hi - lo));
                if (rc == MPI_SUCCESS) {
                    rc = pread_window(f, st->fd, window.data(), lo, hi);
                }
                reply.resize(covered);
                uint64_t at = 0;
                for (const WirePiece &w : recv_hdr) {
                    std::memcpy(reply.data() + at, window.data() + (w.offset - lo), w.length);
                    at += w.length;
                }
            }
            /* Replies go back with the counts reversed: what each process asked of me. */
            std::vector<MPI_Count> reply_count(n), back_count(n);
            std::vector<MPI_Aint> reply_displ(n), back_displ(n);
            MPI_Aint q = 0;
            for (size_t p = 0; p < n; ++p) {
                reply_count[p] = 0;
                for (size_t k = static_cast<size_t>(rdispl[p]) / sizeof(WirePiece);
                     k < static_cast<size_t>(rdispl[p] + static_cast<MPI_Aint>(rcount[p])) / sizeof(WirePiece); ++k) {
                    reply_count[p] += static_cast<MPI_Count>(recv_hdr[k].length);
                }
                reply_displ[p] = q;
                q += static_cast<MPI_Aint>(reply_count[p]);
            }
            recv_data.resize(data_bytes);
            if (native::alltoallv_c(reply.data(), reply_count.data(), reply_displ.data(), MPI_BYTE, recv_data.data(),
                                    sdcount.data(), sddispl.data(), MPI_BYTE, f->comm) != MPI_SUCCESS) {
                return file_fail(f, MPI_ERR_OTHER, "the aggregators could not send the data back");
            }
            uint64_t at = 0;
            for (const Piece &p : out) {
                std::memcpy(packed + p.stream, recv_data.data() + at, p.length);
                at += p.length;
            }
        }
    }
    return rc;
}

/* Bytes of the stream before the first one at or past the end of the file (a read stops there). */
size_t readable(const std::vector<FileRange> &ranges, int64_t eof)
{
    size_t bytes = 0;
    for (const FileRange &r : ranges) {
        if (r.offset + static_cast<int64_t>(r.length) <= eof) {
            bytes += r.length;
            continue;
        }
        if (r.offset < eof) {
            bytes += static_cast<size_t>(eof - r.offset);
        }
        break;
    }
    return bytes;
}

int collective(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, bool write, MCA_IO_FILE)
{
    File *f = io::of(file);
    FileState *st = state(module);
    const Datatype &type = *io::of(datatype);
    const uint64_t total = count * type.size;
    *bytes = 0;
    std::vector<FileRange> ranges;
    f->view.ranges(static_cast<uint64_t>(offset) * f->view.etype->size, total, &ranges);
    const char *direct = convertor_contiguous(buf, type);
    std::vector<char> staging(direct != nullptr ? 0 : total);
    char *packed = direct != nullptr ? const_cast<char *>(direct) : staging.data();
    if (write && direct == nullptr && total > 0) {
        convertor_pack(buf, count, type, 0, packed, total);
    }
    bool independent = false;
    f->error_detail.clear();
    int rc = two_phase(f, st, ranges, packed, write, write ? st->in_force.cb_write : st->in_force.cb_read, &independent);
    if (rc == MPI_SUCCESS && independent) {
        rc = write ? write_at(offset, buf, count, datatype, bytes, file, module)
                   : read_at(offset, buf, count, datatype, bytes, file, module);
        return agree(f, rc);
    }
    rc = agree(f, rc);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (write) {
        *bytes = total;
        return MPI_SUCCESS;
    }
    struct stat sb {};
    *bytes = ::fstat(st->fd, &sb) == 0 ? readable(ranges, sb.st_size) : total;
    if (direct == nullptr && *bytes > 0) {
        convertor_unpack(buf, count, type, 0, packed, *bytes);
    }
    return MPI_SUCCESS;
}

} // namespace

int read_at_all(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, MCA_IO_FILE)
{
    return collective(offset, buf, count, datatype, bytes, false, file, module);
}

int write_at_all(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype, size_t *bytes, MCA_IO_FILE)
{
    return collective(offset, buf, count, datatype, bytes, true, file, module);
}

int find_host_leaders(File *f, FileState *st)
{
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    native::get_processor_name(name, &len);
    std::vector<char> all(static_cast<size_t>(f->size) * MPI_MAX_PROCESSOR_NAME);
    if (native::allgather_c(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                            f->comm) != MPI_SUCCESS) {
        return file_fail(f, MPI_ERR_OTHER, "the processes of " + file_label(*f) + " could not exchange host names");
    }
    st->host_leaders.clear();
    for (int p = 0; p < f->size; ++p) {
        const char *mine = all.data() + static_cast<size_t>(p) * MPI_MAX_PROCESSOR_NAME;
        bool first = true;
        for (int q = 0; q < p && first; ++q) {
            first = std::strncmp(mine, all.data() + static_cast<size_t>(q) * MPI_MAX_PROCESSOR_NAME,
                                 MPI_MAX_PROCESSOR_NAME) != 0;
        }
        if (first) {
            st->host_leaders.push_back(p);
        }
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::io_posix
