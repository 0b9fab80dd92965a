/*
 * trace monitor: the counters. Under MPI_THREAD_MULTIPLE every thread counts into a table of its own,
 * so the hot path takes no lock and no atomic read-modify-write: the owner thread is the only writer of
 * its counters (relaxed stores) and inserts a new (communicator, peer) under its table's mutex, which
 * the reader takes only while it merges the tables at finalize. At the lower thread levels MPI calls
 * never overlap, and one table serves every thread without the per-thread lookup.
 */
#ifndef TESSERA_COMPONENTS_TRACE_MONITOR_TRACE_MONITOR_COUNTS_H
#define TESSERA_COMPONENTS_TRACE_MONITOR_TRACE_MONITOR_COUNTS_H

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera::ompi::trace_monitor {

struct PeerKey {
    uint64_t comm_id;
    int peer;
    bool operator==(const PeerKey &o) const { return comm_id == o.comm_id && peer == o.peer; }
    bool operator<(const PeerKey &o) const
    {
        return comm_id != o.comm_id ? comm_id < o.comm_id : peer < o.peer;
    }
};

struct Totals {
    uint64_t messages = 0;
    uint64_t bytes = 0;
};

class Counter {
public:
    /* per_thread: calls to count() may overlap (MPI_THREAD_MULTIPLE). */
    explicit Counter(bool per_thread);
    Counter(const Counter &) = delete;
    Counter &operator=(const Counter &) = delete;
    ~Counter();

    /* One message of `bytes` from this process to `peer` of communicator `comm_id`. Inline for the
     * common case: the same peer as the thread's previous message. */
    void count(uint64_t comm_id, int peer, uint64_t bytes)
    {
        ThreadTable &t = per_thread_ ? table_of_this_thread() : *shared_;
        Cell *cell = t.last;
        if (__builtin_expect(cell == nullptr || t.last_key.comm_id != comm_id || t.last_key.peer != peer, 0)) {
            cell = find_or_add(t, PeerKey{comm_id, peer});
        }
        cell->messages.store(cell->messages.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        cell->bytes.store(cell->bytes.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
    }

    /* The sum over every thread, in (communicator, peer) order. */
    std::map<PeerKey, Totals> totals() const;

private:
    struct Cell {
        std::atomic<uint64_t> messages{0};
        std::atomic<uint64_t> bytes{0};
    };
    struct KeyHash {
        size_t operator()(const PeerKey &k) const
        {
            return std::hash<uint64_t>()(k.comm_id * 0x9e3779b97f4a7c15ull ^ static_cast<uint32_t>(k.peer));
        }
    };
    struct ThreadTable {
        std::mutex insert_mutex;
        std::unordered_map<PeerKey, Cell, KeyHash> cells; /* node-based: a Cell never moves */
        PeerKey last_key{~uint64_t{0}, -1};
        Cell *last = nullptr;
    };

    ThreadTable &table_of_this_thread();
    /* The cell of `key` in `t`, made when new; it becomes t's last. */
    static Cell *find_or_add(ThreadTable &t, const PeerKey &key);

    const uint64_t generation_; /* tells this counter's thread tables from an earlier one's */
    const bool per_thread_;
    mutable std::mutex tables_mutex_;
    std::vector<std::unique_ptr<ThreadTable>> tables_;
    ThreadTable *shared_ = nullptr; /* below MPI_THREAD_MULTIPLE: the one table */
};

} // namespace tessera::ompi::trace_monitor

#endif
