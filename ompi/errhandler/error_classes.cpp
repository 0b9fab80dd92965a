#include "ompi/errhandler/error_classes.h"

#include <array>

#include <mpi.h>

#include "ompi/errhandler/user_errors.h"

namespace tessera::ompi {

namespace {

#define TESSERA_ERROR_CLASS(c, text) ErrorClass{c, #c, text}

/* The texts say what the caller did wrong or what failed, in the standard's terms (MPI-4.1 9.4,
 * table 9.1; the MPI_T classes from 15.3.10), so that MPI_Error_string is useful on its own. */
constexpr std::array kClasses{
    TESSERA_ERROR_CLASS(MPI_SUCCESS, "no error"),
    TESSERA_ERROR_CLASS(MPI_ERR_BUFFER, "invalid buffer pointer"),
    TESSERA_ERROR_CLASS(MPI_ERR_COUNT, "invalid count argument (negative or too large)"),
    TESSERA_ERROR_CLASS(MPI_ERR_TYPE, "invalid datatype (null, freed, or not committed)"),
    TESSERA_ERROR_CLASS(MPI_ERR_TAG, "invalid tag (negative, above MPI_TAG_UB, or a wildcard where none is allowed)"),
    TESSERA_ERROR_CLASS(MPI_ERR_COMM, "invalid communicator (null, freed, or not a communicator handle)"),
    TESSERA_ERROR_CLASS(MPI_ERR_RANK, "invalid rank (outside the communicator's group)"),
    TESSERA_ERROR_CLASS(MPI_ERR_REQUEST, "invalid request handle"),
    TESSERA_ERROR_CLASS(MPI_ERR_ROOT, "invalid root rank"),
    TESSERA_ERROR_CLASS(MPI_ERR_GROUP, "invalid group"),
    TESSERA_ERROR_CLASS(MPI_ERR_OP, "invalid reduction operation"),
    TESSERA_ERROR_CLASS(MPI_ERR_TOPOLOGY, "invalid topology (the communicator has none, or another kind)"),
    TESSERA_ERROR_CLASS(MPI_ERR_DIMS, "invalid dimension argument"),
    TESSERA_ERROR_CLASS(MPI_ERR_ARG, "invalid argument (of a kind without a class of its own, e.g. a NULL output pointer)"),
    TESSERA_ERROR_CLASS(MPI_ERR_UNKNOWN, "unknown error"),
    TESSERA_ERROR_CLASS(MPI_ERR_TRUNCATE, "message truncated: the receive buffer is smaller than the message"),
    TESSERA_ERROR_CLASS(MPI_ERR_OTHER, "other error (the message printed with it says what)"),
    TESSERA_ERROR_CLASS(MPI_ERR_INTERN, "internal error in the MPI library"),
    TESSERA_ERROR_CLASS(MPI_ERR_PENDING, "operation pending: the request has not completed"),
    TESSERA_ERROR_CLASS(MPI_ERR_IN_STATUS, "an error occurred in a request: see the MPI_ERROR field of its status"),
    TESSERA_ERROR_CLASS(MPI_ERR_ACCESS, "permission denied"),
    TESSERA_ERROR_CLASS(MPI_ERR_AMODE, "invalid file access mode"),
    TESSERA_ERROR_CLASS(MPI_ERR_ASSERT, "invalid assertion argument for an RMA synchronization call"),
    TESSERA_ERROR_CLASS(MPI_ERR_BAD_FILE, "invalid file name"),
    TESSERA_ERROR_CLASS(MPI_ERR_BASE, "invalid base address for a window or memory call"),
    TESSERA_ERROR_CLASS(MPI_ERR_CONVERSION, "a data representation conversion function failed"),
    TESSERA_ERROR_CLASS(MPI_ERR_DISP, "invalid displacement argument"),
    TESSERA_ERROR_CLASS(MPI_ERR_DUP_DATAREP, "a data representation with this name is already registered"),
    TESSERA_ERROR_CLASS(MPI_ERR_FILE_EXISTS, "the file exists"),
    TESSERA_ERROR_CLASS(MPI_ERR_FILE_IN_USE, "the file is in use by some process"),
    TESSERA_ERROR_CLASS(MPI_ERR_FILE, "invalid file handle"),
    TESSERA_ERROR_CLASS(MPI_ERR_INFO_KEY, "invalid info key (empty, or too long for MPI_MAX_INFO_KEY)"),
    TESSERA_ERROR_CLASS(MPI_ERR_INFO_NOKEY, "the info object has no such key"),
    TESSERA_ERROR_CLASS(MPI_ERR_INFO_VALUE, "invalid info value (longer than MPI_MAX_INFO_VAL, or not one its key takes)"),
    TESSERA_ERROR_CLASS(MPI_ERR_INFO, "invalid info object"),
    TESSERA_ERROR_CLASS(MPI_ERR_IO, "input/output error"),
    TESSERA_ERROR_CLASS(MPI_ERR_KEYVAL, "invalid attribute key (freed, of another object kind, or predefined where it cannot be changed)"),
    TESSERA_ERROR_CLASS(MPI_ERR_LOCKTYPE, "invalid lock type for an RMA passive-target lock"),
    TESSERA_ERROR_CLASS(MPI_ERR_NAME, "invalid service name: nothing is published under it"),
    TESSERA_ERROR_CLASS(MPI_ERR_NO_MEM, "out of memory (MPI_Alloc_mem could not allocate)"),
    TESSERA_ERROR_CLASS(MPI_ERR_NOT_SAME, "the processes did not pass the same arguments to a collective call"),
    TESSERA_ERROR_CLASS(MPI_ERR_NO_SPACE, "not enough space on the file system"),
    TESSERA_ERROR_CLASS(MPI_ERR_NO_SUCH_FILE, "no such file"),
    TESSERA_ERROR_CLASS(MPI_ERR_PORT, "invalid port name"),
    TESSERA_ERROR_CLASS(MPI_ERR_QUOTA, "disk quota exceeded"),
    TESSERA_ERROR_CLASS(MPI_ERR_READ_ONLY, "the file or file system is read-only"),
    TESSERA_ERROR_CLASS(MPI_ERR_RMA_ATTACH, "memory cannot be attached to the dynamic window (overlapping or not allowed)"),
    TESSERA_ERROR_CLASS(MPI_ERR_RMA_CONFLICT, "conflicting accesses to a window"),
    TESSERA_ERROR_CLASS(MPI_ERR_RMA_RANGE, "RMA access outside the target window"),
    TESSERA_ERROR_CLASS(MPI_ERR_RMA_SHARED, "memory cannot be shared between the processes of the window"),
    TESSERA_ERROR_CLASS(MPI_ERR_RMA_SYNC, "wrong synchronization of RMA calls (no access or exposure epoch)"),
    TESSERA_ERROR_CLASS(MPI_ERR_SERVICE, "invalid service name: it cannot be published or unpublished"),
    TESSERA_ERROR_CLASS(MPI_ERR_SIZE, "invalid size argument"),
    TESSERA_ERROR_CLASS(MPI_ERR_SPAWN, "processes could not be spawned"),
    TESSERA_ERROR_CLASS(MPI_ERR_UNSUPPORTED_DATAREP, "unsupported data representation"),
    TESSERA_ERROR_CLASS(MPI_ERR_UNSUPPORTED_OPERATION,
                        "operation not supported (the message printed with it names the function; "
                        "`tessera_info --coverage` lists what Tessera's native engine implements)"),
    TESSERA_ERROR_CLASS(MPI_ERR_WIN, "invalid window"),
    TESSERA_ERROR_CLASS(MPI_ERR_RMA_FLAVOR, "the window's flavor does not support this operation"),
    TESSERA_ERROR_CLASS(MPI_ERR_PROC_ABORTED, "a process this operation depends on has aborted"),
    TESSERA_ERROR_CLASS(MPI_ERR_VALUE_TOO_LARGE, "a value does not fit in the output argument (use the _c variant)"),
    TESSERA_ERROR_CLASS(MPI_ERR_SESSION, "invalid session"),
    TESSERA_ERROR_CLASS(MPI_ERR_ERRHANDLER, "invalid error handler (null, freed, or of another object kind)"),
    TESSERA_ERROR_CLASS(MPI_ERR_ABI, "the application's MPI ABI does not match the library's"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_CANNOT_INIT, "the MPI tool interface cannot be initialized"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_NOT_ACCESSIBLE, "the tool information is not accessible now"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_NOT_INITIALIZED, "the MPI tool interface is not initialized"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_NOT_SUPPORTED, "the requested tool functionality is not supported"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_MEMORY, "out of memory in the MPI tool interface"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_INVALID, "invalid use of the MPI tool interface"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_INVALID_INDEX, "invalid tool variable, category or event index"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_INVALID_ITEM, "invalid item index for a tool enumeration"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_INVALID_SESSION, "invalid performance variable session"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_INVALID_HANDLE, "invalid tool handle"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_INVALID_NAME, "no tool variable, category or event has this name"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_OUT_OF_HANDLES, "no more tool handles available"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_OUT_OF_SESSIONS, "no more performance variable sessions available"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_CVAR_SET_NOT_NOW, "the control variable cannot be set now"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_CVAR_SET_NEVER, "the control variable can never be set"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_PVAR_NO_WRITE, "the performance variable cannot be written or reset"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_PVAR_NO_STARTSTOP, "the performance variable cannot be started or stopped"),
    TESSERA_ERROR_CLASS(MPI_T_ERR_PVAR_NO_ATOMIC, "the performance variable cannot be read and reset atomically"),
};

#undef TESSERA_ERROR_CLASS

} // namespace

std::span<const ErrorClass> error_classes()
{
    return kClasses;
}

const ErrorClass *find_error_class(int code)
{
    for (const ErrorClass &c : kClasses) {
        if (c.code == code) {
            return &c;
        }
    }
    return nullptr;
}

std::string error_name(int code)
{
    if (const ErrorClass *c = find_error_class(code)) {
        return c->name;
    }
    if (const auto user = user_error_find(code)) {
        /* The application's own text, when it gave one (MPI_Add_error_string), says what went wrong. */
        const std::string text = user->text.empty() ? "" : " (" + user->text + ")";
        return user->is_class ? "user-defined error class " + std::to_string(code) + text
                              : "user-defined error code " + std::to_string(code) + text + " of " +
                                    error_name(user->error_class);
    }
    return "unknown error code " + std::to_string(code);
}

int error_class_of(int code)
{
    if (const auto user = user_error_find(code)) {
        return user->error_class;
    }
    return code;
}

} // namespace tessera::ompi
