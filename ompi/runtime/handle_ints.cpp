/*
 * MPI_<T>_toint / MPI_<T>_fromint of the native engine (MPI 5.0 ABI), with the integer values of
 * handle_int_blocks.h. An object the application created (a handle that is an address) gets the next
 * free integer from 0x1000 on the first time it is converted, and keeps it: converting it again, or
 * back, gives the same value. The tables grow only with distinct addresses; a freed object's address
 * that a new object reuses keeps its integer, which then names the new object, as a stale C handle
 * would.
 */
#include <cstdint>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <mpi.h>

#include "ompi/runtime/handle_int_blocks.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi {

namespace {

using handle_ints::kFirstCreated;

class CreatedInts {
public:
    int to_int(std::uintptr_t v)
    {
        const std::lock_guard lock(mutex_);
        if (auto it = ints_.find(v); it != ints_.end()) {
            return it->second;
        }
        if (handles_.size() >= static_cast<size_t>(std::numeric_limits<int>::max() - kFirstCreated)) {
            return -1; /* no integer left: never a plausible handle */
        }
        const int i = static_cast<int>(kFirstCreated + handles_.size());
        handles_.push_back(v);
        ints_.emplace(v, i);
        return i;
    }

    /* The address of integer `i` (at least kFirstCreated), or 0. */
    std::uintptr_t from_int(int i)
    {
        const std::lock_guard lock(mutex_);
        const size_t at = static_cast<size_t>(i) - kFirstCreated;
        return at < handles_.size() ? handles_[at] : 0;
    }

private:
    std::mutex mutex_;
    std::unordered_map<std::uintptr_t, int> ints_;
    std::vector<std::uintptr_t> handles_;
};

template <class Handle>
CreatedInts &created()
{
    static CreatedInts table;
    return table;
}

template <class Handle>
int to_int(Handle h)
{
    const auto v = reinterpret_cast<std::uintptr_t>(h);
    return handle_ints::predefined(h) ? static_cast<int>(v) : created<Handle>().to_int(v);
}

template <class Handle>
Handle from_int(int i, Handle null)
{
    if (i < 0) {
        return null;
    }
    if (static_cast<std::uint32_t>(i) < kFirstCreated) {
        return handle_ints::predefined_from_int(i, null);
    }
    const std::uintptr_t v = created<Handle>().from_int(i);
    return v != 0 ? reinterpret_cast<Handle>(v) : null;
}

} // namespace

namespace native {

int comm_toint(MPI_Comm comm) { return to_int(comm); }
MPI_Comm comm_fromint(int comm) { return from_int(comm, MPI_COMM_NULL); }
int group_toint(MPI_Group group) { return to_int(group); }
MPI_Group group_fromint(int group) { return from_int(group, MPI_GROUP_NULL); }
int win_toint(MPI_Win win) { return to_int(win); }
MPI_Win win_fromint(int win) { return from_int(win, MPI_WIN_NULL); }
int file_toint(MPI_File file) { return to_int(file); }
MPI_File file_fromint(int file) { return from_int(file, MPI_FILE_NULL); }
int session_toint(MPI_Session session) { return to_int(session); }
MPI_Session session_fromint(int session) { return from_int(session, MPI_SESSION_NULL); }
int message_toint(MPI_Message message) { return to_int(message); }
MPI_Message message_fromint(int message) { return from_int(message, MPI_MESSAGE_NULL); }
int info_toint(MPI_Info info) { return to_int(info); }
MPI_Info info_fromint(int info) { return from_int(info, MPI_INFO_NULL); }
int errhandler_toint(MPI_Errhandler errhandler) { return to_int(errhandler); }
MPI_Errhandler errhandler_fromint(int errhandler) { return from_int(errhandler, MPI_ERRHANDLER_NULL); }
int request_toint(MPI_Request request) { return to_int(request); }
MPI_Request request_fromint(int request) { return from_int(request, MPI_REQUEST_NULL); }
int type_toint(MPI_Datatype datatype) { return to_int(datatype); }
MPI_Datatype type_fromint(int datatype) { return from_int(datatype, MPI_DATATYPE_NULL); }
int op_toint(MPI_Op op) { return to_int(op); }
MPI_Op op_fromint(int op) { return from_int(op, MPI_OP_NULL); }

} // namespace native

} // namespace tessera::ompi
