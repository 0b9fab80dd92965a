# cmake -DTESSERA_ENDPOINTS_MODULE=<cmake/TesseraEndpoints.cmake> -DWORK_DIR=<scratch dir> -P this file
#
# Drives tessera_endpoint_tag() / tessera_generate_endpoint_tags() the way the build does: three
# components claim A; B and A (shared); and c. The generated header must number the tags in the order
# they were first claimed, count A once, and end with the dynamic slot only when
# TESSERA_DYNAMIC_ENDPOINTS is ON. The build identifier must follow the tags.
cmake_minimum_required(VERSION 3.22)

if(NOT TESSERA_ENDPOINTS_MODULE OR NOT WORK_DIR)
  message(FATAL_ERROR "usage: cmake -DTESSERA_ENDPOINTS_MODULE=<file> -DWORK_DIR=<dir> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
include(${TESSERA_ENDPOINTS_MODULE})

set(failures "")
macro(expect condition_text)
  if(NOT (${ARGN}))
    string(APPEND failures "  ${condition_text}\n")
  endif()
endmacro()

# The #define value of TESSERA_ENDPOINT_<what> in <header>, or NOTFOUND; also the number of definitions.
function(read_define header what out_value out_count)
  file(STRINGS ${header} lines REGEX "^#define TESSERA_ENDPOINT_${what} ")
  list(LENGTH lines count)
  set(value NOTFOUND)
  if(count GREATER 0)
    list(GET lines 0 line)
    string(REGEX REPLACE "^#define TESSERA_ENDPOINT_${what} (.*)$" "\\1" value "${line}")
  endif()
  set(${out_value} "${value}" PARENT_SCOPE)
  set(${out_count} ${count} PARENT_SCOPE)
endfunction()

function(expect_define header what expected)
  read_define(${header} ${what} value count)
  if(NOT count EQUAL 1 OR NOT value STREQUAL "${expected}")
    set(failures "${failures}  ${header}: TESSERA_ENDPOINT_${what} is \"${value}\" (defined ${count} times), expected \"${expected}\" (once)\n" PARENT_SCOPE)
  endif()
endfunction()

# Each component's CMakeLists runs in its own scope; only the global property connects them.
function(component_one)
  tessera_endpoint_tag(A)
endfunction()
function(component_two)
  tessera_endpoint_tag(B)
  tessera_endpoint_tag(A)
endfunction()
function(component_three)
  tessera_endpoint_tag(c) # lower case: still the C tag
endfunction()
component_one()
component_two()
component_three()

set(PROJECT_VERSION 9.8.7)
set(TESSERA_BUILD_ID_INPUTS "endpoint-tags-test")
set(TESSERA_GENERATED_DIR ${WORK_DIR}/generated)

set(TESSERA_DYNAMIC_ENDPOINTS ON)
tessera_generate_endpoint_tags(${WORK_DIR}/on/endpoint_tags.h)
set(build_id_abc "${TESSERA_BUILD_ID}")
set(TESSERA_DYNAMIC_ENDPOINTS OFF)
tessera_generate_endpoint_tags(${WORK_DIR}/off/endpoint_tags.h)

foreach(mode on off)
  set(header ${WORK_DIR}/${mode}/endpoint_tags.h)
  if(NOT EXISTS ${header})
    message(FATAL_ERROR "tessera_generate_endpoint_tags did not write ${header}")
  endif()
  expect_define(${header} TAG_A 0)
  expect_define(${header} TAG_B 1)
  expect_define(${header} TAG_C 2)
  expect_define(${header} TAG_STATIC_COUNT 3)
  expect_define(${header} TAG_NAMES "{ \"A\", \"B\", \"C\", 0 }")
endforeach()

set(on ${WORK_DIR}/on/endpoint_tags.h)
expect_define(${on} DYNAMIC_SLOT 3)
expect_define(${on} SLOTS 4)
file(STRINGS ${on} dynamic REGEX "^#define TESSERA_DYNAMIC_ENDPOINTS ")
expect("ON: TESSERA_DYNAMIC_ENDPOINTS is 1 (got \"${dynamic}\")" dynamic STREQUAL "#define TESSERA_DYNAMIC_ENDPOINTS 1")

set(off ${WORK_DIR}/off/endpoint_tags.h)
expect_define(${off} SLOTS 3)
file(STRINGS ${off} dynamic REGEX "^#define TESSERA_DYNAMIC_ENDPOINTS ")
expect("OFF: TESSERA_DYNAMIC_ENDPOINTS is 0 (got \"${dynamic}\")" dynamic STREQUAL "#define TESSERA_DYNAMIC_ENDPOINTS 0")

# The build identifier: stable for the same tags, different once a component claims one more.
file(STRINGS ${TESSERA_GENERATED_DIR}/tessera_build_id.h id_line REGEX "^#define TESSERA_BUILD_ID ")
expect("tessera_build_id.h defines TESSERA_BUILD_ID (got \"${id_line}\")" id_line MATCHES "^#define TESSERA_BUILD_ID \"9\\.8\\.7-[0-9a-f]+\"$")
set(TESSERA_DYNAMIC_ENDPOINTS ON)
tessera_generate_endpoint_tags(${WORK_DIR}/again/endpoint_tags.h)
expect("the same tags give the same build id (${build_id_abc} then ${TESSERA_BUILD_ID})" TESSERA_BUILD_ID STREQUAL build_id_abc)
tessera_endpoint_tag(D)
tessera_generate_endpoint_tags(${WORK_DIR}/abcd/endpoint_tags.h)
expect("one more tag changes the build id (still ${TESSERA_BUILD_ID})" NOT TESSERA_BUILD_ID STREQUAL build_id_abc)
expect_define(${WORK_DIR}/abcd/endpoint_tags.h TAG_D 3)
expect_define(${WORK_DIR}/abcd/endpoint_tags.h SLOTS 5)

# A name that is not a C identifier stops the configuration and says why.
file(WRITE ${WORK_DIR}/bad_name.cmake "cmake_minimum_required(VERSION 3.22)\ninclude(${TESSERA_ENDPOINTS_MODULE})\ntessera_endpoint_tag(bad-name)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -P ${WORK_DIR}/bad_name.cmake
  RESULT_VARIABLE bad_result ERROR_VARIABLE bad_error OUTPUT_QUIET)
expect("tessera_endpoint_tag(bad-name) fails (exit ${bad_result})" NOT bad_result EQUAL 0)
expect("tessera_endpoint_tag(bad-name) names the tag and the rule (said: ${bad_error})" bad_error MATCHES "BAD-NAME.*C identifiers")

if(failures)
  message(FATAL_ERROR "endpoint tag generation:\n${failures}")
endif()
message(STATUS "endpoint tags: A=0 B=1 C=2 (A shared), static count 3, dynamic slot only when ON, build id follows the tags")
