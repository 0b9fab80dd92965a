/*
 * The C++ owner of the procs of a process: each proc lives until the table is cleared or destroyed,
 * which frees its hostname and dynamic endpoint slots. Components see only tessera_proc_t (proc.h);
 * the pointers the table hands out stay valid while the table holds the proc.
 */
#ifndef TESSERA_OMPI_PROC_PROC_TABLE_H
#define TESSERA_OMPI_PROC_PROC_TABLE_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ompi/proc/proc.h"

namespace tessera::ompi {

struct ProcDeleter {
    void operator()(tessera_proc_t *proc) const noexcept { tessera_proc_destroy(proc); }
};
using ProcPtr = std::unique_ptr<tessera_proc_t, ProcDeleter>;

/* A proc of its own; throws std::bad_alloc when out of memory. */
ProcPtr make_proc(tessera_proc_name_t name, std::string_view hostname, std::uint32_t flags = 0);

class ProcTable {
public:
    ProcTable() = default;
    ProcTable(const ProcTable &) = delete;
    ProcTable &operator=(const ProcTable &) = delete;
    ProcTable(ProcTable &&) noexcept = default;
    ProcTable &operator=(ProcTable &&) noexcept = default;
    ~ProcTable() = default;

    /* The new proc, or nullptr when the table already holds a proc of that name. */
    tessera_proc_t *add(tessera_proc_name_t name, std::string_view hostname, std::uint32_t flags = 0);

    /* nullptr when the table has no proc of that name. */
    tessera_proc_t *find(tessera_proc_name_t name) const noexcept;

    std::size_t size() const noexcept { return procs_.size(); }
    /* In the order they were added. */
    tessera_proc_t *at(std::size_t index) const noexcept
    {
        return index < procs_.size() ? procs_[index].get() : nullptr;
    }

    void clear() noexcept;

private:
    static std::uint64_t key(tessera_proc_name_t name) noexcept
    {
        return (std::uint64_t{name.jobid} << 32) | name.rank;
    }

    /* One allocation per proc, so that growing the table never moves a proc a component points to. */
    std::vector<ProcPtr> procs_;
    std::unordered_map<std::uint64_t, std::size_t> index_;
};

} // namespace tessera::ompi

#endif
