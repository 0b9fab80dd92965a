/*
 * File views (MPI-4.1 14.3): a displacement, an etype and a filetype tiled from the displacement. The
 * filetype is mapped to file runs once, at MPI_File_set_view, from the normalized description the dte
 * engines receive (datatype_describe): the same facts that pack and unpack memory place the view's
 * stream in the file. Memory stays the dte plans' business (convertor.h).
 */
#include <algorithm>

#include "frameworks/dte/dte.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/file/file.h"

namespace tessera::ompi {

namespace {

/* Appends the runs of elements [first, first + n) of a description, the base at `base`; returns the
 * index after them. */
std::size_t walk(const std::vector<mca_dte_elem_t> &elems, std::size_t first, std::size_t n, std::int64_t base,
                 std::vector<ViewSegment> *out, std::uint64_t *stream)
{
    std::size_t i = first;
    const std::size_t end = first + n;
    while (i < end) {
        const mca_dte_elem_t &e = elems[i];
        if (e.op == MCA_DTE_OP_BLOCKS) {
            for (std::uint64_t b = 0; b < e.count; ++b) {
                const std::int64_t at = base + e.disp + static_cast<std::int64_t>(b) * e.stride;
                if (e.blocklen == 0) {
                    continue;
                }
                if (!out->empty() && out->back().offset + static_cast<std::int64_t>(out->back().length) == at) {
                    out->back().length += e.blocklen;
                } else {
                    out->push_back({at, e.blocklen, *stream});
                }
                *stream += e.blocklen;
            }
            ++i;
        } else if (e.op == MCA_DTE_OP_LOOP) {
            for (std::uint64_t it = 0; it < e.count; ++it) {
                walk(elems, i + 1, e.items, base + static_cast<std::int64_t>(it) * e.stride, out, stream);
            }
            i += e.items + 2; /* the body and its END_LOOP */
        } else {
            ++i; /* END_LOOP of an enclosing loop never reaches here: `n` stops before it */
        }
    }
    return i;
}

} // namespace

std::string view_type_problem(const Datatype *type, const char *name, bool writable)
{
    std::vector<mca_dte_elem_t> elems;
    datatype_describe(type, &elems);
    std::vector<ViewSegment> segments;
    std::uint64_t stream = 0;
    walk(elems, 0, elems.size(), 0, &segments, &stream);
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const ViewSegment &s = segments[i];
        if (s.offset < 0) {
            return std::string("the ") + name + " has a negative displacement (" + std::to_string(s.offset) +
                   "; MPI-4.1 14.3: displacements must be non-negative and non-decreasing)";
        }
        if (i > 0) {
            const ViewSegment &p = segments[i - 1];
            if (s.offset < p.offset) {
                return std::string("the ") + name + "'s displacements decrease (" + std::to_string(p.offset) +
                       " then " + std::to_string(s.offset) +
                       "; MPI-4.1 14.3: displacements must be non-negative and non-decreasing)";
            }
            if (writable && s.offset < p.offset + static_cast<std::int64_t>(p.length)) {
                return std::string("the ") + name + " overlaps itself at byte " + std::to_string(s.offset) +
                       " (MPI-4.1 14.3: not allowed in a file opened for writing)";
            }
        }
    }
    return "";
}

void view_reset(FileView *v)
{
    std::string why;
    view_set(v, 0, datatype_lookup(MPI_BYTE), datatype_lookup(MPI_BYTE), "native", &why);
}

void view_clear(FileView *v)
{
    if (v->etype != nullptr) {
        datatype_release(v->etype);
    }
    if (v->filetype != nullptr) {
        datatype_release(v->filetype);
    }
    v->etype = nullptr;
    v->filetype = nullptr;
    v->segments.clear();
}

int view_set(FileView *v, MPI_Offset disp, const Datatype *etype, const Datatype *filetype, const char *datarep,
             std::string *why)
{
    std::vector<mca_dte_elem_t> elems;
    datatype_describe(filetype, &elems);
    std::vector<ViewSegment> segments;
    std::uint64_t stream = 0;
    walk(elems, 0, elems.size(), 0, &segments, &stream);
    if (stream != filetype->size) {
        *why = "the filetype's description covers " + std::to_string(stream) + " bytes, its size is " +
               std::to_string(filetype->size);
        return MPI_ERR_INTERN;
    }
    datatype_retain(etype);
    datatype_retain(filetype);
    view_clear(v);
    v->disp = disp;
    v->etype = etype;
    v->filetype = filetype;
    v->datarep = datarep;
    v->segments = std::move(segments);
    v->element_size = filetype->size;
    v->element_extent = filetype->extent;
    return MPI_SUCCESS;
}

void FileView::ranges(std::uint64_t pos, std::uint64_t len, std::vector<FileRange> *out) const
{
    if (len == 0 || element_size == 0) {
        return;
    }
    std::uint64_t element = pos / element_size;
    std::uint64_t within = pos % element_size;
    /* The segment holding stream byte `within`. */
    auto it = std::upper_bound(segments.begin(), segments.end(), within,
                               [](std::uint64_t s, const ViewSegment &seg) { return s < seg.stream; });
    std::size_t index = static_cast<std::size_t>(it - segments.begin()) - 1;
    while (len > 0) {
        const ViewSegment &seg = segments[index];
        const std::uint64_t skip = within - seg.stream;
        const std::uint64_t take = std::min(seg.length - skip, len);
        const std::int64_t at = disp + static_cast<std::int64_t>(element) * element_extent + seg.offset +
                                static_cast<std::int64_t>(skip);
        if (!out->empty() && out->back().offset + static_cast<std::int64_t>(out->back().length) == at) {
            out->back().length += take;
        } else {
            out->push_back({at, take});
        }
        len -= take;
        /* `take` ended the segment, or the request. */
        if (++index == segments.size()) {
            index = 0;
            ++element;
        }
        within = segments[index].stream;
    }
}

std::int64_t FileView::byte_offset(std::uint64_t pos) const
{
    if (element_size == 0) {
        return disp;
    }
    std::vector<FileRange> one;
    ranges(pos, 1, &one);
    return one.front().offset;
}

} // namespace tessera::ompi
