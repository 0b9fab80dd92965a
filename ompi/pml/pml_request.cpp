#include "ompi/pml/pml_request.h"

#include <cstring>

namespace tessera::ompi::pml {

namespace {

Request *free_list = nullptr;

} // namespace

Request *request_alloc()
{
    Request *r = free_list;
    if (r != nullptr) {
        free_list = r->next;
        std::vector<char> keep;
        keep.swap(r->packed); /* keep the capacity of a reused pack buffer */
        *r = Request{};
        r->packed.swap(keep);
        r->packed.clear();
        return r;
    }
    return new Request{};
}

void request_release(Request *r)
{
    r->next = free_list;
    free_list = r;
}

void status_set_count(MPI_Status *s, std::size_t bytes)
{
    const auto v = static_cast<uint64_t>(bytes);
    s->MPI_internal[0] = static_cast<int>(static_cast<uint32_t>(v));
    s->MPI_internal[1] = static_cast<int>(static_cast<uint32_t>(v >> 32));
}

std::size_t status_count(const MPI_Status *s)
{
    return static_cast<std::size_t>(static_cast<uint64_t>(static_cast<uint32_t>(s->MPI_internal[0])) |
                                    (static_cast<uint64_t>(static_cast<uint32_t>(s->MPI_internal[1])) << 32));
}

void status_set_cancelled(MPI_Status *s, bool cancelled)
{
    s->MPI_internal[2] = cancelled ? 1 : 0;
}

bool status_cancelled(const MPI_Status *s)
{
    return s->MPI_internal[2] != 0;
}

void status_empty(MPI_Status *s)
{
    std::memset(s, 0, sizeof *s);
    s->MPI_SOURCE = MPI_ANY_SOURCE;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
}

} // namespace tessera::ompi::pml
