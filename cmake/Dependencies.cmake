# Every outside library the build uses, found here once, each beside the
# Debian package that provides it (scripts/setup.sh installs them). A missing
# one stops the configure with an error that names its package.

macro(mushroom_missing what package)
  message(FATAL_ERROR "${what} not found: install Debian's ${package} "
                      "(scripts/setup.sh installs everything the build needs)")
endmacro()

# A macro, so that what find_package sets reaches the caller.
macro(mushroom_find_package name package)
  find_package(${name} QUIET ${ARGN})
  if(NOT ${name}_FOUND)
    mushroom_missing("${name}" ${package})
  endif()
endmacro()

find_package(Threads REQUIRED)

if(MUSHROOM_BUILD_TESTS)
  mushroom_find_package(GTest libgtest-dev)
endif()

# Header-only libraries: a path is all they need. A path given by hand
# (-DVAR=...) that lacks the header is refused the same way.
function(mushroom_find_header var header package)
  find_path(${var} ${header})
  if(NOT ${var} OR NOT EXISTS "${${var}}/${header}")
    mushroom_missing("${header}" ${package})
  endif()
endfunction()
mushroom_find_header(CXXOPTS_INCLUDE_DIR cxxopts.hpp libcxxopts-dev)
mushroom_find_header(NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp nlohmann-json3-dev)
mushroom_find_header(TOMLPLUSPLUS_INCLUDE_DIR toml++/toml.h libtomlplusplus-dev)
mushroom_find_header(FMT_INCLUDE_DIR fmt/chrono.h libfmt-dev)

mushroom_find_package(HDF5 libhdf5-dev COMPONENTS C)
mushroom_find_package(Eigen3 libeigen3-dev NO_MODULE)

if(MUSHROOM_WITH_TORCH)
  # Debian's libtorch-dev, or the LibTorch inside PyTorch's Python package
  # (-DCMAKE_PREFIX_PATH=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')).
  mushroom_find_package(Torch libtorch-dev)
  # TorchConfig's flags (e.g. the C++ ABI define) apply only to LibTorch users.
  separate_arguments(MUSHROOM_TORCH_FLAGS UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  add_compile_definitions(MUSHROOM_WITH_TORCH=1)
endif()
