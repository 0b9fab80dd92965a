/*
 * The integer forms of handles (MPI_<T>_toint / _fromint) that every engine gives alike: a predefined
 * handle is its own ABI value, below 0x1000, so Fortran can know the constants at compile time; an
 * integer at or above 0x1000 names an object the application created. Shared by the native engine and
 * the translators' generated thunks.
 */
#ifndef TESSERA_OMPI_RUNTIME_HANDLE_INT_BLOCKS_H
#define TESSERA_OMPI_RUNTIME_HANDLE_INT_BLOCKS_H

#include <cstdint>

#include <mpi.h>

namespace tessera::ompi::handle_ints {

inline constexpr std::uint32_t kFirstCreated = 0x1000;

/* The block of handle values the ABI reserves for one class's predefined handles
 * (constants.tsv: MPI_OP_NULL 0x20 .. MPI_NO_OP 0x3d, the communicators from 0x100, ...). */
struct Block {
    std::uint32_t first;
    std::uint32_t last;
};

constexpr Block block(MPI_Comm) { return {0x100, 0x107}; }
constexpr Block block(MPI_Group) { return {0x108, 0x10f}; }
constexpr Block block(MPI_Win) { return {0x110, 0x117}; }
constexpr Block block(MPI_File) { return {0x118, 0x11f}; }
constexpr Block block(MPI_Session) { return {0x120, 0x127}; }
constexpr Block block(MPI_Message) { return {0x128, 0x12f}; }
constexpr Block block(MPI_Info) { return {0x130, 0x13f}; }
constexpr Block block(MPI_Errhandler) { return {0x140, 0x147}; }
constexpr Block block(MPI_Request) { return {0x180, 0x1ff}; }
constexpr Block block(MPI_Datatype) { return {0x200, 0x3ff}; }
constexpr Block block(MPI_Op) { return {0x20, 0x3f}; }

/* Whether `handle` is predefined (its value is its integer form). */
template <class Handle>
inline bool predefined(Handle handle)
{
    return reinterpret_cast<std::uintptr_t>(handle) < kFirstCreated;
}

/* The predefined handle of integer `i` below kFirstCreated, or `null` when `i` is in no block of the
 * class. */
template <class Handle>
Handle predefined_from_int(int i, Handle null)
{
    const Block b = block(null);
    const auto v = static_cast<std::uint32_t>(i);
    return v >= b.first && v <= b.last ? reinterpret_cast<Handle>(static_cast<std::uintptr_t>(v)) : null;
}

/* A runtime's own integer for a created object (MPI_Comm_c2f: Open MPI's small indices, MPICH's
 * handles) moved past the predefined values, and back: a bijection on 32 bits, so no runtime
 * integer is lost; only runtime integers -4096..-1, which neither runtime gives an object, would land
 * among the predefined values. */
constexpr int from_runtime_int(int r) { return static_cast<int>(static_cast<std::uint32_t>(r) + kFirstCreated); }
constexpr int to_runtime_int(int i) { return static_cast<int>(static_cast<std::uint32_t>(i) - kFirstCreated); }

} // namespace tessera::ompi::handle_ints

#endif
