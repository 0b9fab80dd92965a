/*
 * Reduction operations (MPI-4.1 6.9): the predefined ops, each defined on the datatype classes of
 * 6.9.2, and user ops made by MPI_Op_create. Every reduction of the library goes through op_reduce,
 * which computes inout[i] = in[i] op inout[i] — `in` holding the operand of the lower ranks, as the
 * standard's user function does, so that an algorithm that keeps that order serves non-commutative
 * ops too.
 *
 * Handles: the MPI 5.0 ABI gives the predefined ops small fixed values (MPI_SUM = 0x21 ...,
 * ompi/api/constants.tsv); a user op's handle is its address and generation (runtime/user_handle.h).
 */
#ifndef TESSERA_OMPI_OP_OP_H
#define TESSERA_OMPI_OP_OP_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include <mpi.h>

#include "ompi/datatype/datatype.h"
#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

enum class OpKind : uint8_t { Max, Min, Sum, Prod, Land, Band, Lor, Bor, Lxor, Bxor, Maxloc, Minloc, Replace, NoOp, User };
inline constexpr int kPredefinedOpKinds = static_cast<int>(OpKind::User);

struct Op {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x4f504552; /* "OPER" */
    static void *operator new(std::size_t size) { return handle_slot_new<Op>(size); }
    static void operator delete(void *object) { handle_slot_delete<Op>(object); }

    static constexpr std::uint64_t kMagic = 0x544553534f50ull; /* "TESSOP" */

    std::uint64_t magic = kMagic;
    const char *name = "";
    OpKind kind = OpKind::User;
    bool commutative = true;
    MPI_User_function *fn = nullptr;     /* a user op has one of the two */
    MPI_User_function_c *fn_c = nullptr;
    std::atomic<int> refs{1};            /* user ops: the handle and the collectives in flight */
};

/* The op of a handle, or nullptr for MPI_OP_NULL and handles that name no op. */
const Op *op_lookup(MPI_Op handle);
MPI_Op op_handle(const Op *op);

/* A user op (refs 1: the handle's). */
Op *op_create_user(MPI_User_function *fn, MPI_User_function_c *fn_c, bool commutative);

/* A use of a user op beyond its handle (a non-blocking collective in flight): MPI_Op_free frees it
 * only once every use is released. No-ops for predefined ops. */
void op_retain(const Op *op);
void op_release(const Op *op);

/* Whether `op` may reduce `type`: "" when it may, otherwise why not, naming both ("MPI_LAND is not
 * defined for MPI_DOUBLE: it takes C integer and logical types"). A predefined op takes a predefined
 * type of its classes, or a derived type all of whose elements are one such type; a user op takes
 * any type. */
std::string op_check(const Op *op, const Datatype *type);
/* The one predefined type every element of `type` is made of. False when it mixes several; true with
 * *out = nullptr when it holds no data at all. */
bool single_basic(const Datatype *type, const Datatype **out);

/* The same question without the words: whether op_check would say "". */
bool op_defined_on(const Op *op, const Datatype *type);

/* Registers mpi_strict_ops: whether predefined ops refuse MPI_CHAR, as the letter of the standard does. */
int register_op_params();

/* inout[i] = in[i] op inout[i] for `count` elements of `type` (op_check has passed). A derived type
 * is reduced element by element along its type map; a user function gets the type's handle. */
void op_reduce(const Op *op, const void *in, void *inout, std::size_t count, const Datatype *type);

/* The same over `bytes` packed bytes of elements of the predefined `basic` (what one-sided operations
 * carry). op_reduce takes elements laid out by their extent, so the elements of a pair type
 * (MPI_SHORT_INT: 6 bytes of data in an extent of 8) are spread into that layout and packed back. */
void op_reduce_packed(const Op *op, const Datatype *basic, const char *in, char *inout, std::size_t bytes);

} // namespace tessera::ompi

#endif
