# Sanitizer builds: TESSERA_SANITIZE = "" (none) | address | thread.
#
#   address  AddressSanitizer + UndefinedBehaviorSanitizer; undefined behaviour aborts the process
#            (-fno-sanitize-recover), so a test cannot pass with a report in its log.
#   thread   ThreadSanitizer (tools/test-tsan); the first report ends the process. Third-party code's
#            reports are suppressed in tools/sanitizers/tsan.supp, each with its reason.
#
# The flags go to every target (layer libraries, component DSOs, tools, test programs), because ASan
# must see both sides of an allocation and its runtime has to be loaded before anything else.
# TESSERA_SANITIZER_TEST_ENV holds the runtime options every test runs with (tests/CMakeLists.txt).
set(TESSERA_SANITIZE "" CACHE STRING "Sanitizers for every target: empty, address (ASan+UBSan) or thread")
set_property(CACHE TESSERA_SANITIZE PROPERTY STRINGS "" address thread)

set(TESSERA_SANITIZER_TEST_ENV "")
if(TESSERA_SANITIZE STREQUAL "")
  return()
elseif(TESSERA_SANITIZE STREQUAL "address")
  set(_san_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  set(_san_runtime asan)
  set(TESSERA_LSAN_SUPPRESSIONS ${PROJECT_SOURCE_DIR}/tools/sanitizers/lsan.supp)
  # halt_on_error: the first report ends the test. detect_leaks: at exit, every block nobody points to
  # is a failure, except the third-party ones listed (with reasons) in the suppression file.
  set(TESSERA_SANITIZER_TEST_ENV
    "ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0"
    "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"
    "LSAN_OPTIONS=suppressions=${TESSERA_LSAN_SUPPRESSIONS}:print_suppressions=0")
elseif(TESSERA_SANITIZE STREQUAL "thread")
  set(_san_flags -fsanitize=thread)
  set(_san_runtime tsan)
  set(TESSERA_TSAN_SUPPRESSIONS ${PROJECT_SOURCE_DIR}/tools/sanitizers/tsan.supp)
  set(TESSERA_SANITIZER_TEST_ENV
    "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=${TESSERA_TSAN_SUPPRESSIONS}")
else()
  message(FATAL_ERROR "TESSERA_SANITIZE='${TESSERA_SANITIZE}' (from the CMake cache or -D): expected "
                      "an empty string, 'address' (ASan + UBSan) or 'thread' (TSan)")
endif()

# The same options as a shell file that tools/test-sanitize sources before ctest: gtest_discover_tests
# passes a list-valued ENVIRONMENT property on as separate arguments, so a discovered test keeps only
# the first of several variables (and lost the leak suppressions).
set(_san_env_sh "# Written by cmake/TesseraSanitize.cmake: the sanitizer runtime options of this build.\n")
foreach(_san_var IN LISTS TESSERA_SANITIZER_TEST_ENV)
  string(APPEND _san_env_sh "export ${_san_var}\n")
endforeach()
file(WRITE ${PROJECT_BINARY_DIR}/sanitizer_env.sh "${_san_env_sh}")

list(APPEND _san_flags -fno-omit-frame-pointer)
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  # Clang links its sanitizer runtime statically into executables only, which leaves every shared
  # library (all linked with --no-undefined) with unresolved __asan_* symbols. The shared runtime is
  # what GCC uses anyway; it sits outside the default search path, hence the run path.
  list(APPEND _san_flags -shared-libsan)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.${_san_runtime}-${CMAKE_SYSTEM_PROCESSOR}.so
    OUTPUT_VARIABLE _san_lib OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${_san_lib}" OR NOT EXISTS "${_san_lib}")
    message(FATAL_ERROR "TESSERA_SANITIZE=${TESSERA_SANITIZE}: ${CMAKE_CXX_COMPILER} does not know where its "
                        "${_san_runtime} runtime is (-print-file-name gave '${_san_lib}')")
  endif()
  get_filename_component(_san_dir "${_san_lib}" DIRECTORY)
  add_link_options(-Wl,-rpath,${_san_dir})
endif()
add_compile_options(${_san_flags})
add_link_options(${_san_flags})
message(STATUS "Sanitizers: ${TESSERA_SANITIZE} (${_san_flags})")
