/*
 * Handles of the objects an application creates (groups, info objects, error handlers): the object's
 * address, as for derived datatypes. The MPI 5.0 ABI keeps every predefined handle below 0x1000, so a
 * value there is never a created object; above it, an object is recognised by the mark it carries in
 * its first member, which destroying it clears. A made-up handle is then refused rather than used.
 */
#ifndef TESSERA_OMPI_RUNTIME_USER_HANDLE_H
#define TESSERA_OMPI_RUNTIME_USER_HANDLE_H

#include <cstdint>

namespace tessera::ompi {

inline constexpr std::uintptr_t kFirstUserHandle = 4096;

/* The object of `handle` when it is a live T (T has `std::uint64_t mark` first and `kMark`). */
template <class T>
T *user_object(const void *handle)
{
    const auto v = reinterpret_cast<std::uintptr_t>(handle);
    if (v < kFirstUserHandle || v % alignof(T) != 0) {
        return nullptr;
    }
    T *object = static_cast<T *>(const_cast<void *>(handle));
    return object->mark == T::kMark ? object : nullptr;
}

} // namespace tessera::ompi

#endif
