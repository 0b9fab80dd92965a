# The feature macros (include/tessera_features.h, which mpi.h includes) and the pkg-config files
# (lib/pkgconfig/tessera.pc, mpi.pc), made by ompi/api/gen_features.py from what the built library
# implements (tessera_info --coverage --parsable with the native engine). Included after the components
# and tools: the coverage is the one a process sees, so every component is built first.
find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter)
get_target_property(api_dir tessera-mpi-header TESSERA_MPI_API_DIR)
get_property(dso_components GLOBAL PROPERTY TESSERA_DSO_COMPONENTS)
set(features_h ${PROJECT_BINARY_DIR}/include/tessera_features.h)
set(pc_files ${PROJECT_BINARY_DIR}/${TESSERA_LIBDIR}/pkgconfig/tessera.pc
             ${PROJECT_BINARY_DIR}/${TESSERA_LIBDIR}/pkgconfig/mpi.pc)
add_custom_command(OUTPUT ${features_h} ${pc_files}
  COMMAND ${Python3_EXECUTABLE} ${api_dir}/gen_features.py
          --api ${api_dir}/mpi_api.txt --constants ${api_dir}/constants.tsv
          --tessera-info $<TARGET_FILE:tessera_info> --version ${PROJECT_VERSION} --outdir ${PROJECT_BINARY_DIR}
  DEPENDS ${api_dir}/gen_features.py ${api_dir}/mpi_api.txt ${api_dir}/constants.tsv ${api_dir}/mpi_api.py
          tessera_info mpi ${dso_components}
  COMMENT "Generating tessera_features.h and the pkg-config files from what the library implements"
  VERBATIM)
add_custom_target(tessera-mpi-features ALL DEPENDS ${features_h} ${pc_files})
install(FILES ${features_h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${pc_files} DESTINATION ${TESSERA_LIBDIR}/pkgconfig)
