/*
 * Info objects (MPI-4.1 10): ordered (key, value) string pairs. Keys keep the order of their first
 * insertion (MPI_Info_get_nthkey); setting a key again replaces its value in place.
 *
 * Limits (MPI_MAX_INFO_KEY = 256, MPI_MAX_INFO_VAL = 1024 in the ABI): a key is 1 to 255 characters,
 * so that it fits MPI_Info_get_nthkey's buffer of MPI_MAX_INFO_KEY bytes with its terminator; a value is
 * at most MPI_MAX_INFO_VAL characters (MPI_Info_get's valuelen counts no terminator).
 *
 * Handles: MPI_INFO_ENV (0x131) is a predefined object found by value, filled from what the runtime
 * knows (info_env.cpp); MPI_INFO_NULL (0x130) names none; a created object's handle is its address
 * and generation (runtime/user_handle.h).
 */
#ifndef TESSERA_OMPI_INFO_INFO_H
#define TESSERA_OMPI_INFO_INFO_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <mpi.h>

#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

/* The pairs of an info object; also what a communicator keeps of MPI_Comm_set_info. */
class InfoEntries {
public:
    /* Adds the key at the end, or replaces its value where it is. */
    void set(std::string_view key, std::string_view value);
    /* set() of each pair of `other`, in its order: what MPI_Comm/Win_set_info do with new hints. */
    void merge(const InfoEntries &other);
    /* Whether the key was there. */
    bool erase(std::string_view key);
    const std::string *find(std::string_view key) const;
    std::size_t size() const { return entries_.size(); }
    const std::pair<std::string, std::string> &at(std::size_t n) const { return entries_[n]; }
    void clear() { entries_.clear(); }

private:
    std::vector<std::pair<std::string, std::string>> entries_;
};

struct Info {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x494e464f; /* "INFO" */
    static void *operator new(std::size_t size) { return handle_slot_new<Info>(size); }
    static void operator delete(void *object) { handle_slot_delete<Info>(object); }

    InfoEntries entries;
};

/* The object of a handle (MPI_INFO_ENV included), or nullptr for MPI_INFO_NULL and handles that name
 * no info object. */
Info *info_lookup(MPI_Info handle);
MPI_Info info_handle(const Info *info);

/* A new info object holding `entries`, and its end. */
MPI_Info info_create(InfoEntries entries);
void info_destroy(Info *info);

/* MPI_INFO_ENV's object (filled on first use, refreshed by info_env_refresh). */
Info *info_env();
/* Fills MPI_INFO_ENV again: MPI_Init learns the job's size, hosts and thread level. */
void info_env_refresh();
/* MPI_INFO_ENV's keys (MPI-4.1 11.2.3) from what the runtime knows; argv (NULL-terminated, may be
 * NULL) gives command and argv, else the process's own command line. */
InfoEntries info_env_entries(char **argv);

/* MPI_SUCCESS, or MPI_ERR_INFO_KEY / MPI_ERR_INFO_VALUE with *error saying what is wrong. */
int info_check_key(const char *key, std::string *error);
int info_check_value(const char *value, std::string *error);

} // namespace tessera::ompi

#endif
