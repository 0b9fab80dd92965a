/* Output strings of the MPI calls: a buffer of `capacity` bytes (an MPI_MAX_* constant or the caller's
 * length) receives as much of the text as fits with its terminator, and *resultlen what was written. */
#ifndef TESSERA_OMPI_RUNTIME_STRING_OUT_H
#define TESSERA_OMPI_RUNTIME_STRING_OUT_H

#include <algorithm>
#include <cstring>
#include <string_view>

namespace tessera::ompi {

inline void copy_string_out(std::string_view text, char *out, int capacity, int *resultlen = nullptr)
{
    if (capacity <= 0) {
        return;
    }
    const std::size_t n = std::min(text.size(), static_cast<std::size_t>(capacity - 1));
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
    if (resultlen != nullptr) {
        *resultlen = static_cast<int>(n);
    }
}

} // namespace tessera::ompi

#endif
