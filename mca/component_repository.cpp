#include "mca/component_repository.h"

#include <dlfcn.h>
#include <ltdl.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>

#include "mca/component_check.h"
#include "mca/dso_param_park.h"
#include "mca/report.h"
#include "mca/var.h"
#include "mca/var_store.h"
#include "opal/install_dirs.h"

namespace tessera::mca {

namespace {

constexpr const char *kPathVar = "mca_component_path";
constexpr const char *kShowVar = "mca_component_show_load_errors";

/* Storage of the two parameters; the MCA core owns the strings they point to. */
const char *g_component_path = nullptr;
const char *g_show_load_errors = nullptr;

std::mutex g_errors_mutex;
std::vector<LoadError> g_errors;
std::string g_last_bad_show_value; /* report a bad value once, not at every framework */

std::string trim(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = s.find_last_not_of(" \t");
    return std::string(s.substr(first, last - first + 1));
}

std::vector<std::string> split(std::string_view s, char sep)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        const size_t pos = s.find(sep, start);
        out.emplace_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
        if (pos == std::string_view::npos) {
            return out;
        }
        start = pos + 1;
    }
}

bool is_identifier(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    });
}

struct ShowFilter {
    bool all = false;
    std::vector<std::pair<std::string, std::string>> entries; /* framework, component ("" = any) */
    std::vector<std::string> invalid;
};

ShowFilter parse_show_filter(std::string_view value)
{
    ShowFilter f;
    const std::string whole = trim(value);
    if (whole.empty() || whole == "none") {
        return f;
    }
    const auto items = split(whole, ',');
    for (const auto &raw : items) {
        const std::string item = trim(raw);
        if (item == "all") {
            f.all = true;
            continue;
        }
        if (item == "none") {
            f.invalid.push_back(item); /* "none" together with names contradicts itself */
            continue;
        }
        const auto parts = split(item, '/');
        if (parts.size() > 2 || !is_identifier(parts[0]) || (parts.size() == 2 && !is_identifier(parts[1]))) {
            f.invalid.push_back(item);
            continue;
        }
        f.entries.emplace_back(parts[0], parts.size() == 2 ? parts[1] : std::string());
    }
    return f;
}

std::string show_value()
{
    return g_show_load_errors != nullptr ? g_show_load_errors : "all";
}

void report_bad_show_value()
{
    const std::string value = show_value();
    const ShowFilter f = parse_show_filter(value);
    if (f.invalid.empty() || value == g_last_bad_show_value) {
        return;
    }
    g_last_bad_show_value = value;
    std::string list;
    for (const auto &bad : f.invalid) {
        list += (list.empty() ? "\"" : ", \"") + bad + "\"";
    }
    const auto info = find_var(kShowVar);
    const std::string source = info ? info->source.describe() : "default";
    report(Severity::Error, "bad value \"" + value + "\" for parameter \"" + kShowVar + "\" from " + source +
                                ": ignoring " + list +
                                "; expected all, none, or a comma-separated list of <framework> or "
                                "<framework>/<component>");
}

std::string default_component_path()
{
    return opal::install_dirs().pkglibdir + ":" + opal::home_dir() + "/.tessera/components";
}

bool ltdl_ready(std::string *why)
{
    static std::once_flag once;
    static int status = 0;
    static std::string error;
    std::call_once(once, [] {
        status = lt_dlinit();
        if (status != 0) {
            const char *e = lt_dlerror();
            error = e != nullptr ? e : "unknown error";
        }
    });
    if (status != 0) {
        *why = "libltdl could not be initialized: " + error;
    }
    return status == 0;
}

std::string ltdl_error()
{
    const char *e = lt_dlerror();
    return e != nullptr ? e : "unknown error";
}

/*
 * Opens one DSO. libltdl binds lazily, so a component that calls a function missing from the process
 * would load and then kill the process at its first call ("symbol lookup error"). A probe with RTLD_NOW
 * first makes every unresolved symbol a refusal now; the real handle is still libltdl's.
 */
std::unique_ptr<DsoHandle> open_dso(const std::string &path, const std::string &framework,
                                    const std::string &component, std::string *why)
{
    if (!ltdl_ready(why)) {
        return nullptr;
    }
    dlerror();
    void *probe = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (probe == nullptr) {
        const char *e = dlerror();
        *why = std::string("cannot be loaded: ") + (e != nullptr ? e : "unknown error");
        return nullptr;
    }
    lt_dlhandle handle = lt_dlopen(path.c_str());
    dlclose(probe);
    if (handle == nullptr) {
        *why = "cannot be loaded: " + ltdl_error();
        return nullptr;
    }
    return std::make_unique<DsoHandle>(handle, path, framework, component);
}

void *dso_symbol(void *handle, const std::string &symbol)
{
    return lt_dlsym(static_cast<lt_dlhandle>(handle), symbol.c_str());
}

/* Component name from "mca_<fw>_<comp>.so", or empty when the file is not for this framework. */
std::string component_from_file(const std::string &file, const std::string &fw,
                                const std::vector<std::string> &other_frameworks)
{
    const std::string prefix = "mca_" + fw + "_";
    const std::string suffix = ".so";
    if (file.size() <= prefix.size() + suffix.size() || file.compare(0, prefix.size(), prefix) != 0 ||
        file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) {
        return {};
    }
    for (const auto &other : other_frameworks) {
        if (other.rfind(fw + "_", 0) == 0 && file.rfind("mca_" + other + "_", 0) == 0) {
            return {}; /* belongs to the framework with the longer name */
        }
    }
    return file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
}

} // namespace

DsoHandle::DsoHandle(void *ltdl_handle, std::string path, std::string framework, std::string component)
    : handle_(ltdl_handle), path_(std::move(path)), framework_(std::move(framework)), component_(std::move(component))
{
}

DsoHandle::~DsoHandle()
{
    if (handle_ != nullptr) {
        park_component_params(framework_, component_);
        lt_dlclose(static_cast<lt_dlhandle>(handle_));
    }
}

void repository_register_params()
{
    if (mca_var_find(kPathVar) < 0) {
        static std::string path_default;
        path_default = default_component_path();
        g_component_path = path_default.c_str();
        mca_var_register("mca", "", "component_path",
                         "Colon-separated directories searched, in order, for component DSOs "
                         "(mca_<framework>_<component>.so)",
                         MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                         &g_component_path);
    }
    if (mca_var_find(kShowVar) < 0) {
        g_show_load_errors = "all";
        mca_var_register("mca", "", "component_show_load_errors",
                         "Which component load errors to print: all, none, or a comma-separated list of "
                         "<framework> or <framework>/<component> (tessera_info --show-failed lists them all)",
                         MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                         &g_show_load_errors);
    }
    report_bad_show_value();
}

std::vector<std::string> component_path()
{
    const std::string value = g_component_path != nullptr ? g_component_path : default_component_path();
    std::vector<std::string> dirs;
    for (auto &dir : split(value, ':')) {
        dir = trim(dir);
        if (!dir.empty()) {
            dirs.push_back(dir);
        }
    }
    return dirs;
}

std::vector<FoundComponent> find_components(const mca_base_framework_t &fw,
                                            const std::vector<std::string> &other_frameworks)
{
    std::vector<FoundComponent> found;
    std::set<std::string> accepted;

    for (auto table = fw.static_components; table != nullptr && *table != nullptr; ++table) {
        const mca_base_component_t &c = **table;
        const std::string name = component_field(c.mca_component_name, sizeof c.mca_component_name);
        if (auto why = check_component(c, fw, name)) {
            record_load_error({fw.name, name, "", *why});
            continue;
        }
        if (!accepted.insert(name).second) {
            record_load_error({fw.name, name, "", "listed twice in the static table"});
            continue;
        }
        found.push_back({&c, name, "", nullptr});
    }
    const size_t static_count = found.size();

    for (const auto &dir : component_path()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) {
            continue; /* ~/.tessera/components usually does not exist */
        }
        std::vector<std::pair<std::string, std::string>> files; /* component, path */
        for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
            const std::string file = entry.path().filename().string();
            std::string comp = component_from_file(file, fw.name, other_frameworks);
            if (!comp.empty() && !entry.is_directory(ec)) {
                files.emplace_back(std::move(comp), entry.path().string());
            }
        }
        std::sort(files.begin(), files.end());

        for (const auto &[comp, path] : files) {
            if (accepted.count(comp) != 0) {
                // Clang before 16 cannot capture a structured binding (a C++20 change it lacks).
                const std::string &name = comp;
                const auto first = std::find_if(found.begin(), found.end(),
                                                [&](const FoundComponent &f) { return f.name == name; });
                const bool is_static = (first - found.begin()) < static_cast<ptrdiff_t>(static_count);
                record_load_error({fw.name, comp, path,
                                   is_static ? "duplicate of the static component " + std::string(fw.name) +
                                                   "/" + comp + " built into the library; the file is ignored"
                                             : "duplicate of " + first->path +
                                                   ", which comes earlier in mca_component_path; the file "
                                                   "is ignored"});
                continue;
            }
            std::string why;
            auto dso = open_dso(path, fw.name, comp, &why);
            if (!dso) {
                record_load_error({fw.name, comp, path, why});
                continue;
            }
            const std::string symbol = "mca_" + std::string(fw.name) + "_" + comp + "_component";
            void *sym = dso_symbol(dso->handle(), symbol);
            if (sym == nullptr) {
                record_load_error({fw.name, comp, path, "no symbol " + symbol + ": " + ltdl_error()});
                continue;
            }
            const auto *c = static_cast<const mca_base_component_t *>(sym);
            if (auto reason = check_component(*c, fw, comp)) {
                record_load_error({fw.name, comp, path, *reason});
                continue;
            }
            accepted.insert(comp);
            found.push_back({c, comp, path, std::move(dso)});
        }
    }
    return found;
}

void record_load_error(LoadError error)
{
    {
        std::lock_guard lock(g_errors_mutex);
        for (const auto &e : g_errors) {
            if (e.file == error.file && e.framework == error.framework && e.component == error.component &&
                e.reason == error.reason) {
                return; /* found again when a framework is reopened */
            }
        }
        g_errors.push_back(error);
    }
    if (load_error_shown(error)) {
        report(Severity::Warning, describe_load_error(error));
    }
}

bool load_error_shown(const LoadError &error)
{
    const ShowFilter f = parse_show_filter(show_value());
    if (f.all) {
        return true;
    }
    return std::any_of(f.entries.begin(), f.entries.end(), [&](const auto &entry) {
        return entry.first == error.framework && (entry.second.empty() || entry.second == error.component);
    });
}

std::string describe_load_error(const LoadError &error)
{
    if (error.file.empty()) {
        return "static component " + error.framework + "/" + error.component + ": " + error.reason;
    }
    return error.file + ": " + error.reason;
}

std::vector<LoadError> load_errors_of(const std::string &framework)
{
    std::lock_guard lock(g_errors_mutex);
    std::vector<LoadError> out;
    std::copy_if(g_errors.begin(), g_errors.end(), std::back_inserter(out),
                 [&](const LoadError &e) { return e.framework == framework; });
    return out;
}

std::vector<LoadError> load_errors()
{
    std::lock_guard lock(g_errors_mutex);
    return g_errors;
}

void repository_finalize()
{
    std::lock_guard lock(g_errors_mutex);
    g_errors.clear();
    g_last_bad_show_value.clear();
}

} // namespace tessera::mca
