/*
 * Attributes and their keys (MPI-4.1 7.7): values the application caches on communicators, datatypes
 * and windows under keys (keyvals) that carry a copy callback (called when the object is duplicated)
 * and a delete callback (called when a value goes: deleted, replaced, or its object freed).
 *
 * The store is kept here, keyed by (object kind, the object's handle), so that an object needs no
 * field of its own and predefined objects (MPI_COMM_WORLD, MPI_INT) take attributes like any other.
 * Whoever frees an object calls attr_delete_all first and whoever duplicates one calls attr_copy_all
 * (MPI_Type_dup and MPI_Type_free do; MPI_Comm_dup/_free and the window calls will).
 *
 * Keyvals count their uses: MPI_*_free_keyval invalidates the application's handle, but the key lives
 * on, with its callbacks, until the last attribute under it is deleted (MPI-4.1 7.7.2).
 *
 * Callbacks run without any lock held: they may call attribute functions themselves.
 */
#ifndef TESSERA_OMPI_ATTRIBUTE_ATTRIBUTE_H
#define TESSERA_OMPI_ATTRIBUTE_ATTRIBUTE_H

#include <string>

#include <mpi.h>

namespace tessera::ompi {

enum class AttrKind { Comm, Type, Win };

/* "communicator", for messages */
const char *attr_kind_name(AttrKind kind);

/*
 * A new keyval of `kind`. `copy` and `del` are the application's functions of that kind's callback
 * types (MPI_Copy_function and MPI_Delete_function for MPI_Keyval_create, which have the
 * communicator's signature), or the ABI's predefined values: 0 for MPI_*_NULL_COPY_FN and
 * MPI_*_NULL_DELETE_FN, 1 for MPI_*_DUP_FN.
 */
int keyval_create(AttrKind kind, void (*copy)(), void (*del)(), void *extra_state);

/*
 * Every call below returns MPI_SUCCESS, MPI_ERR_KEYVAL (with *error saying what is wrong with the key)
 * or the error code a callback returned.
 */

/* Invalidates the application's keyval (it may not be used again); the key stays while values use it. */
int keyval_free(AttrKind kind, int keyval, std::string *error);

/* Sets a value; a value already there is deleted first (its delete callback runs). */
int attr_set(AttrKind kind, const void *object, int keyval, void *value, std::string *error);
/* *value and *flag as MPI_Comm_get_attr gives them: for predefined keys, *value points to an int. */
int attr_get(AttrKind kind, const void *object, int keyval, void **value, int *flag, std::string *error);
/* Deletes a value (its delete callback runs); a callback's error leaves the value in place. */
int attr_delete(AttrKind kind, const void *object, int keyval, std::string *error);

/* Runs the copy callback of each attribute of `from` and sets on `to` the values they choose to copy.
 * A callback's error undoes the copies made (their delete callbacks run) and is returned: the
 * duplicate must then not be made. */
int attr_copy_all(AttrKind kind, const void *from, const void *to, std::string *error);
/* Deletes every attribute of `object`, the last set first (the order MPI_Finalize must follow for
 * MPI_COMM_SELF, MPI-4.1 11.2.2); stops at a callback's error, which is returned. */
int attr_delete_all(AttrKind kind, const void *object, std::string *error);

/* How many keyvals exist (for tests: a freed keyval goes when its last attribute does). */
std::size_t keyval_count();

} // namespace tessera::ompi

#endif
