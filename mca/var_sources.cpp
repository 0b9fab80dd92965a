#include "mca/var_sources.h"

#include <cstdlib>
#include <filesystem>
#include <tuple>

#include "mca/param_file.h"
#include "opal/install_dirs.h"
#include "tessera_config.h"

extern char **environ;

namespace tessera::mca {

std::string Source::describe() const
{
    switch (kind) {
    case SourceKind::Default: return "default";
    case SourceKind::SystemFile:
    case SourceKind::UserFile:
    case SourceKind::TuneFile: return "file:" + file + ":" + std::to_string(line);
    case SourceKind::Environment: return "environment";
    case SourceKind::CommandLine: return "command line";
    case SourceKind::Tool: return "MPI_T";
    }
    return "unknown";
}

namespace detail {

std::string Setting::where() const
{
    switch (source.kind) {
    case SourceKind::Environment: return "environment (" + std::string(kEnvPrefix) + name + ")";
    case SourceKind::CommandLine: return "command line (--mca " + name + ")";
    default: return source.describe();
    }
}

bool outranks(const Setting &a, bool a_real, const Setting &b, bool b_real)
{
    auto key = [](const Setting &s, bool real) {
        return std::make_tuple(static_cast<int>(s.source.kind), s.file_order, real ? 1 : 0, s.seq);
    };
    return key(a, a_real) > key(b, b_real);
}

void SettingsTable::set(std::string_view name, std::string_view value, const Source &source, int file_order)
{
    auto it = by_name_.find(name);
    if (it == by_name_.end()) {
        it = by_name_.emplace(std::string(name), std::vector<Setting>{}).first;
    }
    Setting s{std::string(name), std::string(value), source, file_order, next_seq_++};
    for (Setting &old : it->second) {
        if (old.source.kind == source.kind && old.source.file == source.file) {
            old = std::move(s);
            return;
        }
    }
    it->second.push_back(std::move(s));
}

void SettingsTable::remove(std::string_view name, SourceKind kind)
{
    auto it = by_name_.find(name);
    if (it == by_name_.end()) {
        return;
    }
    std::erase_if(it->second, [kind](const Setting &s) { return s.source.kind == kind; });
    if (it->second.empty()) {
        by_name_.erase(it);
    }
}

const std::vector<Setting> *SettingsTable::find(std::string_view name) const
{
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : &it->second;
}

void SettingsTable::clear()
{
    by_name_.clear();
    next_seq_ = 0;
}

std::string system_param_file()
{
    /* install_dirs() caches the prefix for the life of the process; TESSERA_PREFIX is looked at
     * here again so that a process (a test) can point the system file elsewhere after start-up. */
    std::string sysconfdir;
    if (const char *prefix = std::getenv("TESSERA_PREFIX"); prefix != nullptr && *prefix != '\0') {
        sysconfdir = std::string(prefix) + "/" TESSERA_REL_SYSCONFDIR;
    } else {
        sysconfdir = opal::install_dirs().sysconfdir;
    }
    return sysconfdir + "/tessera-mca-params.conf";
}

std::string user_param_file()
{
    return opal::home_dir() + "/.tessera/mca-params.conf";
}

std::vector<std::pair<std::string, std::string>> environment_settings()
{
    std::vector<std::pair<std::string, std::string>> out;
    for (char **e = environ; e != nullptr && *e != nullptr; ++e) {
        std::string_view entry(*e);
        if (!entry.starts_with(kEnvPrefix)) {
            continue;
        }
        entry.remove_prefix(kEnvPrefix.size());
        const size_t eq = entry.find('=');
        if (eq == 0 || eq == std::string_view::npos) {
            continue;
        }
        out.emplace_back(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
    }
    return out;
}

void SourceReader::read_file(SettingsTable &table, SourceKind kind, const std::string &path, bool required,
                             int file_order, const ErrorFn &on_error)
{
    ParamFile file = read_param_file(path);
    if (file.missing && !required) {
        return;
    }
    for (const auto &e : file.errors) {
        on_error(e);
    }
    for (const auto &s : file.settings) {
        table.set(s.name, s.value, Source{kind, path, s.line}, file_order);
    }
}

void SourceReader::read_base(SettingsTable &table, const ErrorFn &on_error)
{
    if (base_read_) {
        return;
    }
    base_read_ = true;
    read_file(table, SourceKind::SystemFile, system_param_file(), false, 0, on_error);
    read_file(table, SourceKind::UserFile, user_param_file(), false, 0, on_error);
    for (const auto &[name, value] : environment_settings()) {
        table.set(name, value, Source{SourceKind::Environment, {}, 0});
    }
}

void SourceReader::queue_tune_file(const std::string &path)
{
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(path, ec).string();
    if (ec || key.empty()) {
        key = path;
    }
    if (seen_.insert(key).second) {
        queued_.push_back(path);
    }
}

bool SourceReader::read_queued(SettingsTable &table, const ErrorFn &on_error)
{
    bool any = false;
    while (!queued_.empty()) {
        const std::string path = queued_.front();
        queued_.erase(queued_.begin());
        read_file(table, SourceKind::TuneFile, path, true, next_file_order_++, on_error);
        any = true;
    }
    return any;
}

void SourceReader::clear()
{
    base_read_ = false;
    queued_.clear();
    seen_.clear();
    next_file_order_ = 1;
}

} // namespace detail
} // namespace tessera::mca
