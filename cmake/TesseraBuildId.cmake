# The build identifier: a plugin must have been compiled against headers with the same ABI-relevant
# configuration (version, compiler ABI, options that change struct layouts). It is a hash so that it is
# stable for the same configuration and an out-of-tree plugin built against the installed SDK gets it
# from the installed header.
#
# The endpoint tags change the Proc layout, but they are known only after every component has been
# added; they are folded in by TesseraComponents (tessera_generate_endpoint_tags), which writes the
# final header. Here only the inputs known up front are collected.
set(TESSERA_BUILD_ID_INPUTS
    "tessera-${PROJECT_VERSION}"
    "${CMAKE_CXX_COMPILER_ID}-${CMAKE_CXX_COMPILER_VERSION}"
    "${CMAKE_SYSTEM_PROCESSOR}-${CMAKE_SIZEOF_VOID_P}"
    "dynamic-endpoints=${TESSERA_DYNAMIC_ENDPOINTS}")
