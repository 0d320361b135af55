# What keeps a fresh build short (docs/history/issue-73-newcomer.md has the
# measurements): LibTorch's headers precompiled once for every translation
# unit that includes them, cxxopts's for the CLI, and ccache when Debian's
# ccache is installed.
# Neither touches the engine, the bot or the exported submission.

option(MUSHROOM_PCH "Precompile the outside headers that cost most (LibTorch's, cxxopts's)" ON)
option(MUSHROOM_CCACHE "Compile through ccache when it is installed" ON)

if(MUSHROOM_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(MUSHROOM_CCACHE_PROGRAM ccache)
  if(MUSHROOM_CCACHE_PROGRAM)
    # ccache caches a compile that loads a precompiled header only with this
    # sloppiness (ccache's manual, "Precompiled headers").
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${MUSHROOM_CCACHE_PROGRAM})
    message(STATUS "mushroom: compiling through ${MUSHROOM_CCACHE_PROGRAM}")
  else()
    message(STATUS "mushroom: ccache is not installed; with Debian's ccache, rebuilds are cached")
  endif()
endif()

# <torch/torch.h> costs 10 to 12 s of parsing in every translation unit that
# includes it (torch_info.cpp, which holds nothing else, took 11.9 s). It is
# compiled once, by mushroom_torch_pch, and loaded by each source that
# includes LibTorch, directly or through the project's headers; the other
# sources of the same target are compiled as before, so nothing sees LibTorch
# that did not include it.
if(MUSHROOM_WITH_TORCH AND MUSHROOM_PCH)
  add_library(mushroom_torch_pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/torch_pch.cpp)
  target_link_libraries(mushroom_torch_pch PRIVATE ${TORCH_LIBRARIES})
  target_compile_options(mushroom_torch_pch PRIVATE ${MUSHROOM_TORCH_FLAGS})
  target_precompile_headers(mushroom_torch_pch PRIVATE <torch/torch.h>)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set_target_properties(mushroom_torch_pch PROPERTIES CXX_STANDARD 17)  # as its users (mushroom_use_torch_pch)
  endif()
  message(STATUS "mushroom: LibTorch's headers are precompiled once (MUSHROOM_PCH)")
endif()

# Sets OUT to ON when FILE includes <torch/...>, directly or through the
# project's own headers (found beside FILE, from the root or from engine/).
# Each file is read once per configure. An include added later is seen at the
# next configure; until then that source parses LibTorch itself, which is
# slower but compiles the same.
function(mushroom_includes_torch file out)
  get_property(known GLOBAL PROPERTY "mushroom_includes_torch:${file}" SET)
  if(known)
    get_property(result GLOBAL PROPERTY "mushroom_includes_torch:${file}")
    set(${out} ${result} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "mushroom_includes_torch:${file}" OFF)  # an include cycle ends here
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  get_filename_component(dir ${file} DIRECTORY)
  set(result OFF)
  foreach(line IN LISTS includes)
    if(line MATCHES "<torch/")
      set(result ON)
      break()
    endif()
    if(NOT line MATCHES "\"([^\"]+)\"")
      continue()
    endif()
    set(header ${CMAKE_MATCH_1})
    foreach(root ${dir} ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/engine)
      if(EXISTS ${root}/${header})
        get_filename_component(path ${root}/${header} ABSOLUTE)
        mushroom_includes_torch(${path} through)
        if(through)
          set(result ON)
        endif()
        break()
      endif()
    endforeach()
    if(result)
      break()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "mushroom_includes_torch:${file}" ${result})
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# mushroom_use_torch_pch(TARGET): the target's sources that include LibTorch
# load the precompiled header; its other sources are compiled without it.
# With clang (the fuzz and sanitizer builds: cmake/Sanitizers.cmake) those
# sources are compiled as C++17: LibTorch 1.13's headers do not compile as
# C++20 with clang 14 and libstdc++ 12 (a std::vector<c10::IValue> while
# IValue is incomplete, which C++20's constexpr vector refuses), and our
# LibTorch sources use nothing of C++20 that clang lacks in C++17.
function(mushroom_use_torch_pch target)
  if(NOT MUSHROOM_WITH_TORCH)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  set(users)
  set(others)
  foreach(source IN LISTS sources)
    get_filename_component(path ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    set(uses OFF)
    if(path MATCHES "\\.cpp$" AND EXISTS ${path})
      mushroom_includes_torch(${path} uses)
    endif()
    if(uses)
      list(APPEND users ${source})
    else()
      list(APPEND others ${source})
    endif()
  endforeach()
  if(NOT users)
    return()
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set_property(SOURCE ${users} TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS -std=gnu++17)
  endif()
  if(NOT TARGET mushroom_torch_pch)
    return()
  endif()
  target_precompile_headers(${target} REUSE_FROM mushroom_torch_pch)
  if(others)
    set_source_files_properties(${others} TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()

# mushroom_precompile(TARGET HEADER...): the target's own precompiled headers
# (outside headers only, so that an edit of ours never rebuilds them).
function(mushroom_precompile target)
  if(MUSHROOM_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
