# Install tree: bin/, lib/, lib/tessera/, include/tessera/, etc/, lib/cmake/Tessera/ — the same shape as
# the build tree, so that the run-time prefix lookup (opal/install_dirs) works in both.
include(CMakePackageConfigHelpers)

set_target_properties(tessera-headers PROPERTIES EXPORT_NAME headers)
set_target_properties(tessera-opal PROPERTIES EXPORT_NAME opal)
set_target_properties(tessera-orte PROPERTIES EXPORT_NAME orte)
set_target_properties(mpi PROPERTIES EXPORT_NAME mpi)
install(TARGETS tessera-headers tessera-opal tessera-orte mpi EXPORT TesseraTargets
  LIBRARY DESTINATION ${TESSERA_LIBDIR}
  RUNTIME DESTINATION bin)

# The SDK: what an out-of-tree component includes. With every framework's public headers (below), what a
# component calls: parameters, diagnostics, the job and the card exchange, endpoints. All plain C
# (docs/components.md).
set(sdk_headers
  mca/component.h mca/constants.h mca/framework.h mca/var.h mca/report.h
  ompi/proc/proc.h ompi/proc/endpoint_registry.h ompi/proc/modex.h)
foreach(h IN LISTS sdk_headers)
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera/${dir})
endforeach()
get_property(frameworks GLOBAL PROPERTY TESSERA_FRAMEWORKS)
# A framework's public headers are those at the top of frameworks/<fw>/ (<fw>.h, and the services its
# components call, such as coll_services.h); base/ is the framework's own.
foreach(fw IN LISTS frameworks)
  file(GLOB fw_headers ${PROJECT_SOURCE_DIR}/frameworks/${fw}/*.h)
  install(FILES ${fw_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera/frameworks/${fw})
endforeach()
install(FILES ${TESSERA_GENERATED_DIR}/tessera_config.h ${TESSERA_GENERATED_DIR}/tessera_build_id.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera)
install(FILES ${TESSERA_GENERATED_DIR}/ompi/proc/endpoint_tags.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera/ompi/proc)

# The default component directory exists in every install, also when TESSERA_DSO=OFF linked every
# built-in component into its library: third-party DSOs still load from there (the libraries are always
# shared), and the package configuration points to it.
install(DIRECTORY DESTINATION ${TESSERA_PKGLIBDIR})

# System parameter file: present (commented) in both trees.
configure_file(${PROJECT_SOURCE_DIR}/tools/tessera-mca-params.conf
               ${PROJECT_BINARY_DIR}/etc/tessera-mca-params.conf COPYONLY)
install(FILES ${PROJECT_SOURCE_DIR}/tools/tessera-mca-params.conf DESTINATION etc)

set(cmakedir ${TESSERA_LIBDIR}/cmake/Tessera)
install(EXPORT TesseraTargets NAMESPACE Tessera:: DESTINATION ${cmakedir})
set(TESSERA_PKGLIBDIR_ABS ${TESSERA_PKGLIBDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TesseraConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TesseraConfig.cmake INSTALL_DESTINATION ${cmakedir}
  PATH_VARS TESSERA_PKGLIBDIR_ABS)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/TesseraConfig.cmake ${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake
  DESTINATION ${cmakedir})
