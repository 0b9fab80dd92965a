#include "ompi/runtime/launcher_settings.h"

#include <mutex>
#include <optional>

#include "mca/var_store.h"
#include "orte/runtime/launch_env.h"

namespace tessera::ompi {

namespace {

std::string apply_once()
{
    std::string error;
    const std::optional<orte::LauncherSettings> settings = orte::read_launcher_settings(&error);
    if (!settings) {
        return "the settings mpirun passed are malformed: " + error;
    }
    for (const auto &[name, value] : settings->mca) {
        mca::set_command_line(name, value);
    }
    for (const std::string &file : settings->tune_files) {
        mca::add_tune_file(file);
    }
    return {};
}

} // namespace

std::string apply_launcher_settings()
{
    static std::once_flag once;
    static std::string outcome;
    std::call_once(once, [] { outcome = apply_once(); });
    return outcome;
}

} // namespace tessera::ompi
