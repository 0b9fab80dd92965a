#include "opal/install_dirs.h"

#include <dlfcn.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "tessera_config.h"

namespace tessera::opal {

namespace {

std::string find_prefix()
{
    if (const char *env = std::getenv("TESSERA_PREFIX"); env != nullptr && *env != '\0') {
        return env;
    }
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&find_prefix), &info) != 0 && info.dli_fname != nullptr) {
        std::error_code ec;
        auto lib = std::filesystem::canonical(info.dli_fname, ec);
        if (!ec) {
            return lib.parent_path().parent_path().string();
        }
    }
    return TESSERA_CONFIGURE_PREFIX;
}

InstallDirs make_dirs()
{
    InstallDirs d;
    d.prefix = find_prefix();
    d.bindir = d.prefix + "/" TESSERA_REL_BINDIR;
    d.libdir = d.prefix + "/" TESSERA_REL_LIBDIR;
    d.pkglibdir = d.prefix + "/" TESSERA_REL_PKGLIBDIR;
    d.sysconfdir = d.prefix + "/" TESSERA_REL_SYSCONFDIR;
    d.includedir = d.prefix + "/" TESSERA_REL_INCLUDEDIR;
    return d;
}

} // namespace

const InstallDirs &install_dirs()
{
    static const InstallDirs dirs = make_dirs();
    return dirs;
}

std::string home_dir()
{
    if (const char *home = std::getenv("HOME"); home != nullptr && *home != '\0') {
        return home;
    }
    if (const passwd *pw = getpwuid(getuid()); pw != nullptr && pw->pw_dir != nullptr) {
        return pw->pw_dir;
    }
    return "/";
}

} // namespace tessera::opal
