/*
 * Where parameter values come from: the settings users made in files, the environment and on the
 * command line, kept by name whether or not a variable of that name is registered yet (components
 * register late, and unknown names are warned about at the end). Private to the MCA core.
 */
#ifndef TESSERA_MCA_VAR_SOURCES_H
#define TESSERA_MCA_VAR_SOURCES_H

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "mca/var_store.h"

namespace tessera::mca::detail {

/* Prefix of the environment variables that set parameters: TESSERA_MCA_<name>=<value>. */
inline constexpr std::string_view kEnvPrefix = "TESSERA_MCA_";

struct Setting {
    std::string name;
    std::string value;
    Source source;
    int file_order = 0; /* --tune / mca_param_files files: a file read later overrides an earlier one */
    uint64_t seq = 0;   /* order of arrival */

    /* "environment (TESSERA_MCA_x)", "command line (--mca x)", "file:/p:3": for messages. */
    std::string where() const;
};

/*
 * True when setting `a` (made under the variable's real name when `a_real`, else a synonym) takes
 * precedence over `b`: the higher source kind wins, then the later tune file, then at the same source
 * the real name, then the later setting.
 */
bool outranks(const Setting &a, bool a_real, const Setting &b, bool b_real);

class SettingsTable {
public:
    using Map = std::map<std::string, std::vector<Setting>, std::less<>>;

    /* One setting per name and source (same file): setting again replaces, as a later line would. */
    void set(std::string_view name, std::string_view value, const Source &source, int file_order = 0);
    const std::vector<Setting> *find(std::string_view name) const;
    /* Drops the setting of `name` from `kind` (a refused MPI_T write that had none before). */
    void remove(std::string_view name, SourceKind kind);
    const Map &all() const { return by_name_; }
    void clear();

private:
    Map by_name_;
    uint64_t next_seq_ = 0;
};

/* The system file: <prefix>/etc/tessera-mca-params.conf, TESSERA_PREFIX taken as the prefix when set. */
std::string system_param_file();
/* The user file: ~/.tessera/mca-params.conf */
std::string user_param_file();

/* Every TESSERA_MCA_<name> of the environment, as (name, value). */
std::vector<std::pair<std::string, std::string>> environment_settings();

/*
 * The reading side: which files were read, which are waiting. Errors go to `on_error` as full
 * messages ("file:/p:3: ...").
 */
class SourceReader {
public:
    using ErrorFn = std::function<void(const std::string &)>;

    /* System file, user file and environment, once (until clear()). */
    void read_base(SettingsTable &table, const ErrorFn &on_error);
    bool base_read() const { return base_read_; }

    /* Queues a --tune or mca_param_files file unless it was read or queued already. */
    void queue_tune_file(const std::string &path);
    /* Reads the queued files in order; returns whether any was read. */
    bool read_queued(SettingsTable &table, const ErrorFn &on_error);
    bool has_queued() const { return !queued_.empty(); }

    void clear();

private:
    void read_file(SettingsTable &table, SourceKind kind, const std::string &path, bool required,
                   int file_order, const ErrorFn &on_error);

    bool base_read_ = false;
    std::vector<std::string> queued_;
    std::set<std::string> seen_; /* read or queued, by normalized path */
    int next_file_order_ = 1;
};

} // namespace tessera::mca::detail

#endif
