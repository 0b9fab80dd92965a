# How each layer library (tessera-opal, tessera-orte, mpi) is linked.
#
#   tessera_link_layer(<target>)
#
# --no-undefined: a lower layer never calls up, so a reference to a higher layer's symbol fails the
# link. -Bsymbolic-functions: a call from one of a library's functions to another of its own goes
# straight instead of through the PLT (libmpi: 543 PLT entries before, 122 after; docs/mca.md). Nothing
# in the libraries calls an MPI function by name, so tools interposing MPI_* still see every
# application call. Link-time optimization inlines across the files of a library (a send's checks,
# request and datatype bookkeeping live in different files): MPI_Send + MPI_Recv to itself 84.5-86.4 ->
# 81.6-83.0 ns a pair on the AMD EPYC of stop 19 (trace_percall.c, 6 alternations).
function(tessera_link_layer target)
  target_link_options(${target} PRIVATE -Wl,--no-undefined -Wl,-Bsymbolic-functions)
  # A sanitizer build is for finding bugs, not for speed: it skips the slow link-time optimization.
  if(NOT TESSERA_SANITIZE)
    set_target_properties(${target} PROPERTIES INTERPROCEDURAL_OPTIMIZATION ON)
  endif()
endfunction()
