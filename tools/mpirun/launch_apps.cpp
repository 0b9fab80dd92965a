#include "launch_apps.h"

#include <unistd.h>

#include <filesystem>

#include "rank_env.h"

namespace tessera::mpirun {
namespace {

std::string absolute(const std::string &path)
{
    std::error_code ec;
    std::filesystem::path abs = std::filesystem::absolute(path, ec);
    return ec ? path : abs.lexically_normal().string();
}

/* The program's file in one of `dirs` (':'-separated), or "" when none has it. */
std::string find_in(const std::string &dirs, const std::string &name)
{
    size_t start = 0;
    for (;;) {
        const size_t colon = dirs.find(':', start);
        const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!dir.empty()) {
            const std::string file = absolute(dir + "/" + name);
            if (access(file.c_str(), X_OK) == 0 && !std::filesystem::is_directory(file)) {
                return file;
            }
        }
        if (colon == std::string::npos) {
            return "";
        }
        start = colon + 1;
    }
}

} // namespace

std::optional<std::vector<LaunchApp>> launch_apps(const std::vector<AppContext> &apps, std::string *error)
{
    std::vector<LaunchApp> out;
    for (size_t a = 0; a < apps.size(); ++a) {
        const AppContext &app = apps[a];
        LaunchApp launch;
        launch.argv = app.program;
        if (app.path && launch.argv[0].find('/') == std::string::npos) {
            if (std::string found = find_in(*app.path, launch.argv[0]); !found.empty()) {
                launch.argv[0] = found;
            }
        }
        if (app.wdir) {
            launch.working_dir = absolute(*app.wdir);
        }
        std::string why;
        auto env = export_entries(app.env, &why);
        if (!env) {
            *error = (apps.size() > 1 ? "application context " + std::to_string(a + 1) + ": " : std::string()) + why;
            return std::nullopt;
        }
        launch.env = std::move(*env);
        out.push_back(std::move(launch));
    }
    return out;
}

bool reads_stdin(const StdinTarget &target, int rank)
{
    switch (target.kind) {
    case StdinTarget::Kind::All:
        return true;
    case StdinTarget::Kind::None:
        return false;
    case StdinTarget::Kind::Rank:
        return target.rank == rank;
    }
    return false;
}

} // namespace tessera::mpirun
