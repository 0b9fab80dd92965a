/* MPI_Alloc_mem and MPI_Free_mem (MPI-4.1 8.2). No transport here needs registered memory (shm copies,
 * its single copy reads any address, tcp sends from anywhere), so the memory is the heap's, aligned to
 * a cache line or to the info key mpi_minimum_memory_alignment. Each block is remembered until it is
 * freed: MPI_Free_mem of an address MPI_Alloc_mem did not give is MPI_ERR_BASE, not a corrupted heap. */
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_set>

#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

namespace {

constexpr std::size_t kDefaultAlignment = 64;
constexpr const char *kAlignmentKey = "mpi_minimum_memory_alignment";

std::mutex lock;
std::unordered_set<void *> &blocks()
{
    static auto *set = new std::unordered_set<void *>(); /* never destroyed: a block may be freed at exit */
    return *set;
}

/* The alignment `info` asks for (a power of two), or an error text. */
std::string alignment_of(MPI_Info info, std::size_t *alignment)
{
    *alignment = kDefaultAlignment;
    if (info == MPI_INFO_NULL) {
        return "";
    }
    const Info *object = info_lookup(info);
    if (object == nullptr) {
        return "invalid info object";
    }
    const std::string *value = object->entries.find(kAlignmentKey);
    if (value == nullptr) {
        return "";
    }
    char *end = nullptr;
    const unsigned long long asked = std::strtoull(value->c_str(), &end, 10);
    if (value->empty() || *end != '\0' || asked == 0 || (asked & (asked - 1)) != 0 || asked > (1ull << 30)) {
        return std::string(kAlignmentKey) + " is '" + *value + "': a power of two up to 2^30 bytes";
    }
    if (asked > *alignment) {
        *alignment = static_cast<std::size_t>(asked);
    }
    return "";
}

} // namespace

int alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    constexpr const char *kFunction = "MPI_Alloc_mem";
    if (size < 0) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_SIZE, kFunction, "size is " + std::to_string(size));
    }
    std::size_t alignment = 0;
    if (const std::string error = alignment_of(info, &alignment); !error.empty()) {
        return raise_on_comm(MPI_COMM_SELF, info_lookup(info) == nullptr ? MPI_ERR_INFO : MPI_ERR_INFO_VALUE,
                             kFunction, error);
    }
    /* aligned_alloc wants a multiple of the alignment; a size of 0 still gets a block of its own. */
    const auto wanted = static_cast<std::size_t>(size);
    const std::size_t bytes = (wanted == 0 ? alignment : (wanted + alignment - 1) / alignment * alignment);
    void *p = bytes < wanted ? nullptr : std::aligned_alloc(alignment, bytes);
    if (p == nullptr) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_NO_MEM, kFunction,
                             "cannot allocate " + std::to_string(wanted) + " bytes");
    }
    {
        std::lock_guard<std::mutex> g(lock);
        blocks().insert(p);
    }
    *static_cast<void **>(baseptr) = p;
    return MPI_SUCCESS;
}

int free_mem(void *base)
{
    if (base == nullptr) {
        return MPI_SUCCESS; /* as free(NULL) */
    }
    {
        std::lock_guard<std::mutex> g(lock);
        if (blocks().erase(base) == 0) {
            return raise_on_comm(MPI_COMM_SELF, MPI_ERR_BASE, "MPI_Free_mem",
                                 "the address was not returned by MPI_Alloc_mem, or was freed already");
        }
    }
    std::free(base);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
