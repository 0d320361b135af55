# Builds instrumented for finding memory errors and undefined behaviour
# (docs/history/issue-101-fuzzing.md has what they found):
#   MUSHROOM_SANITIZE  every target with AddressSanitizer and UBSan, any
#                      report fatal (scripts/sanitize.sh runs the suite so)
#   MUSHROOM_FUZZ      the same, with clang's libFuzzer coverage, and the
#                      fuzz targets of fuzz/ (scripts/fuzz.sh)
# Each belongs in a build folder of its own (build-asan/, build-fuzz/): the
# instrumentation reaches every object file. The outside libraries
# (LibTorch, HDF5) stay uninstrumented; ASan still checks every access our
# code makes, and their allocations go through its allocator.

option(MUSHROOM_SANITIZE "Build everything with AddressSanitizer and UBSan (scripts/sanitize.sh)" OFF)
option(MUSHROOM_FUZZ "Build the libFuzzer targets of fuzz/, with ASan and UBSan (clang only; scripts/fuzz.sh)" OFF)

if(MUSHROOM_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "MUSHROOM_FUZZ needs clang's libFuzzer: configure with CC=clang CXX=clang++ "
                      "(Debian's clang; scripts/fuzz.sh does this)")
endif()

if(MUSHROOM_SANITIZE OR MUSHROOM_FUZZ)
  # -fno-sanitize-recover: a UBSan report ends the process like an ASan one,
  # so a test or a fuzz input that triggers it fails. Line tables only keep
  # the reports' stacks readable at a small cost in build time.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(-gline-tables-only)
  else()
    add_compile_options(-g1)
  endif()
  add_link_options(-fsanitize=address,undefined)
  if(MUSHROOM_FUZZ)
    # Coverage for libFuzzer in every object; only the fuzz targets link its
    # main (fuzz/CMakeLists.txt).
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
  message(STATUS "mushroom: built with AddressSanitizer and UBSan")
endif()
