#include "components/trace/monitor/trace_monitor_counts.h"

namespace tessera::ompi::trace_monitor {
namespace {

std::atomic<uint64_t> next_generation{1};

/* This thread's table in the current counter; a new counter (new generation) gets a new one. */
struct ThreadSlot {
    uint64_t generation = 0;
    void *table = nullptr;
};
thread_local ThreadSlot thread_slot;

} // namespace

Counter::Counter(bool per_thread) : generation_(next_generation.fetch_add(1)), per_thread_(per_thread)
{
    if (!per_thread_) {
        tables_.push_back(std::make_unique<ThreadTable>());
        shared_ = tables_.front().get();
    }
}

Counter::~Counter() = default;

Counter::ThreadTable &Counter::table_of_this_thread()
{
    if (thread_slot.generation != generation_) {
        auto table = std::make_unique<ThreadTable>();
        ThreadTable *raw = table.get();
        {
            std::lock_guard lock(tables_mutex_);
            tables_.push_back(std::move(table));
        }
        thread_slot.generation = generation_;
        thread_slot.table = raw;
    }
    return *static_cast<ThreadTable *>(thread_slot.table);
}

Counter::Cell *Counter::find_or_add(ThreadTable &t, const PeerKey &key)
{
    /* Only this thread inserts into its table, so looking up without the lock is safe. */
    auto it = t.cells.find(key);
    if (it == t.cells.end()) {
        std::lock_guard lock(t.insert_mutex);
        it = t.cells.try_emplace(key).first;
    }
    t.last_key = key;
    t.last = &it->second;
    return t.last;
}

std::map<PeerKey, Totals> Counter::totals() const
{
    std::map<PeerKey, Totals> sum;
    std::lock_guard lock(tables_mutex_);
    for (const auto &table : tables_) {
        std::lock_guard insert_lock(table->insert_mutex);
        for (const auto &[key, cell] : table->cells) {
            Totals &t = sum[key];
            t.messages += cell.messages.load(std::memory_order_relaxed);
            t.bytes += cell.bytes.load(std::memory_order_relaxed);
        }
    }
    return sum;
}

} // namespace tessera::ompi::trace_monitor
