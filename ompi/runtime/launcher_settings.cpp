#include "ompi/runtime/launcher_settings.h"

#include <cstdlib>
#include <mutex>
#include <string_view>

#include "mca/var_store.h"
#include "orte/runtime/launch_env.h"

namespace tessera::ompi {

namespace {

std::string apply_once()
{
    if (const char *text = std::getenv(orte::kEnvCmdlineMca); text != nullptr && *text != '\0') {
        auto settings = orte::decode_cmdline_mca(text);
        if (!settings) {
            return std::string("the environment variable ") + orte::kEnvCmdlineMca + " that mpirun sets is malformed";
        }
        for (const auto &[name, value] : *settings) {
            mca::set_command_line(name, value);
        }
    }
    if (const char *text = std::getenv(orte::kEnvCmdlineTune); text != nullptr && *text != '\0') {
        std::string_view files(text);
        while (!files.empty()) {
            size_t colon = files.find(':');
            std::string_view file = files.substr(0, colon);
            if (!file.empty()) {
                mca::add_tune_file(file);
            }
            files = colon == std::string_view::npos ? std::string_view() : files.substr(colon + 1);
        }
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
