/*
 * Where this installation lives. Found at run time from the location of libtessera-opal, so that the
 * build tree (build/lib/libtessera-opal.so) and any install prefix (relocated or not) both work:
 * <prefix>/lib/libtessera-opal.so -> <prefix>. TESSERA_PREFIX in the environment overrides it.
 */
#ifndef TESSERA_OPAL_INSTALL_DIRS_H
#define TESSERA_OPAL_INSTALL_DIRS_H

#include <string>

namespace tessera::opal {

struct InstallDirs {
    std::string prefix;
    std::string bindir;
    std::string libdir;
    std::string pkglibdir;  /* component DSOs */
    std::string sysconfdir; /* tessera-mca-params.conf */
    std::string includedir;
};

const InstallDirs &install_dirs();

/* $HOME, or the password database's home directory when HOME is unset. */
std::string home_dir();

} // namespace tessera::opal

#endif
