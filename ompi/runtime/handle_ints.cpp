/*
 * MPI_<T>_toint / MPI_<T>_fromint of the native engine (MPI 5.0 ABI), with the integer values of
 * handle_int_blocks.h. An object the application created (a handle that is an address) gets the next
 * free integer from 0x1000 on the first time it is converted, and keeps it: converting it again, or
 * back, gives the same value. The tables grow only with distinct handle values; a new object that
 * reuses a freed object's address has another handle (its generation, runtime/user_handle.h), so it gets
 * a new integer, and the freed object's integer still gives the freed, refused handle. Neither
 * direction takes a lock once an object has its integer.
 */
#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include <mpi.h>

#include "ompi/runtime/handle_int_blocks.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi {

namespace {

using handle_ints::kFirstCreated;

/*
 * The integers of one class's created objects. Converting is lock-free: an object is converted on every
 * call of a Fortran binding layer, so the read path is a few atomic loads; only the first conversion of
 * an object takes the mutex. Both directions only grow: toint's address -> integer map (open
 * addressing) and fromint's integer -> address table (segments that never move). A writer fills an
 * entry before it publishes it with a release store, which a reader's acquire load pairs with; a map
 * replaced by a larger one is kept for readers still probing it (at most the live map's size again).
 */
class CreatedInts {
public:
    CreatedInts()
    {
        maps_.push_back(std::make_unique<Map>(64));
        map_.store(maps_.front().get(), std::memory_order_release);
    }

    int to_int(std::uintptr_t v)
    {
        if (const int i = find(*map_.load(std::memory_order_acquire), v); i != 0) {
            return i;
        }
        const std::lock_guard lock(mutex_);
        Map *map = map_.load(std::memory_order_relaxed);
        if (const int i = find(*map, v); i != 0) {
            return i;
        }
        const std::size_t n = count_.load(std::memory_order_relaxed);
        if (n >= static_cast<std::size_t>(std::numeric_limits<int>::max() - kFirstCreated)) {
            return -1; /* no integer left: never a plausible handle */
        }
        const int i = static_cast<int>(kFirstCreated + n);
        append(n, v);
        if (2 * (n + 1) > map->slots.size()) {
            map = grow(2 * map->slots.size());
        }
        insert(*map, v, i);
        return i;
    }

    /* The address of integer `i` (at least kFirstCreated), or 0. */
    std::uintptr_t from_int(int i) const
    {
        const std::size_t at = static_cast<std::size_t>(i) - kFirstCreated;
        if (at >= count_.load(std::memory_order_acquire)) {
            return 0;
        }
        const Place p = place(at);
        return segments_[p.segment].load(std::memory_order_relaxed)[p.offset].load(std::memory_order_relaxed);
    }

private:
    struct Slot {
        std::atomic<std::uintptr_t> key{0}; /* 0: empty (no created handle is below kFirstCreated) */
        std::atomic<int> value{0};
    };
    struct Map {
        explicit Map(std::size_t n) : slots(n) {}
        std::vector<Slot> slots; /* a power of two */
    };

    /* Addresses differ in their middle bits: mix them into the low ones the mask keeps. */
    static std::size_t hash(std::uintptr_t v)
    {
        std::uint64_t x = v;
        x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15ULL;
        return static_cast<std::size_t>(x ^ (x >> 29));
    }

    static int find(const Map &map, std::uintptr_t v)
    {
        const std::size_t mask = map.slots.size() - 1;
        for (std::size_t at = hash(v) & mask;; at = (at + 1) & mask) {
            const std::uintptr_t k = map.slots[at].key.load(std::memory_order_acquire);
            if (k == v) {
                return map.slots[at].value.load(std::memory_order_relaxed);
            }
            if (k == 0) {
                return 0;
            }
        }
    }

    static void insert(Map &map, std::uintptr_t v, int i)
    {
        const std::size_t mask = map.slots.size() - 1;
        std::size_t at = hash(v) & mask;
        while (map.slots[at].key.load(std::memory_order_relaxed) != 0) {
            at = (at + 1) & mask;
        }
        map.slots[at].value.store(i, std::memory_order_relaxed);
        map.slots[at].key.store(v, std::memory_order_release);
    }

    /* A map of n slots with every integer so far, published; the old one stays for its readers. */
    Map *grow(std::size_t n)
    {
        auto bigger = std::make_unique<Map>(n);
        const std::size_t count = count_.load(std::memory_order_relaxed);
        for (std::size_t at = 0; at < count; ++at) {
            const Place p = place(at);
            insert(*bigger, segments_[p.segment].load(std::memory_order_relaxed)[p.offset].load(std::memory_order_relaxed),
                   static_cast<int>(kFirstCreated + at));
        }
        Map *map = bigger.get();
        maps_.push_back(std::move(bigger));
        map_.store(map, std::memory_order_release);
        return map;
    }

    /* Segment k holds kFirstSegment << k entries, from kFirstSegment * (2^k - 1) on. */
    static constexpr std::size_t kFirstSegment = 64;
    static constexpr int kSegments = 26; /* more than INT_MAX entries in all */
    struct Place {
        int segment;
        std::size_t offset;
    };
    static Place place(std::size_t at)
    {
        const int segment = std::bit_width(at / kFirstSegment + 1) - 1;
        return {segment, at - kFirstSegment * ((std::size_t{1} << segment) - 1)};
    }

    void append(std::size_t at, std::uintptr_t v)
    {
        const Place p = place(at);
        std::atomic<std::uintptr_t> *segment = segments_[p.segment].load(std::memory_order_relaxed);
        if (segment == nullptr) {
            segment = new std::atomic<std::uintptr_t>[kFirstSegment << p.segment]; /* lives with the process */
            segments_[p.segment].store(segment, std::memory_order_relaxed);
        }
        segment[p.offset].store(v, std::memory_order_relaxed);
        count_.store(at + 1, std::memory_order_release);
    }

    std::mutex mutex_;
    std::vector<std::unique_ptr<Map>> maps_;
    std::atomic<Map *> map_{nullptr};
    std::atomic<std::size_t> count_{0};
    std::atomic<std::atomic<std::uintptr_t> *> segments_[kSegments] = {};
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
