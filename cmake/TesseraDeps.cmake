# Third-party libraries the core needs. tools/install-deps installs them on Debian.
find_package(PkgConfig REQUIRED)
pkg_check_modules(INIH REQUIRED IMPORTED_TARGET inih)
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)

find_path(LTDL_INCLUDE_DIR ltdl.h)
find_library(LTDL_LIBRARY ltdl)
if(NOT LTDL_INCLUDE_DIR OR NOT LTDL_LIBRARY)
  message(FATAL_ERROR "libltdl not found: run tools/install-deps (Debian package libltdl-dev)")
endif()
add_library(Tessera::ltdl UNKNOWN IMPORTED)
set_target_properties(Tessera::ltdl PROPERTIES IMPORTED_LOCATION ${LTDL_LIBRARY}
                      INTERFACE_INCLUDE_DIRECTORIES ${LTDL_INCLUDE_DIR})

find_package(Threads REQUIRED)

# OTF2 3 (Debian libotf2-trace-dev) for the otf2 trace component and tools/trace. Optional: with
# TESSERA_WITH_OTF2 off, or the library missing, both are left out of the build.
if(TESSERA_WITH_OTF2 AND NOT TARGET PkgConfig::OTF2)
  pkg_check_modules(OTF2 IMPORTED_TARGET otf2>=3)
  if(NOT OTF2_FOUND)
    message(STATUS "OTF2 3 not found (Debian libotf2-trace-dev): no otf2 trace component, no tessera-trace")
  endif()
endif()
