#!/usr/bin/env bash
# Builds the `mushroom` tool on a GPU box against the LibTorch inside
# PyTorch's Python package, with the kit from make-gpu-kit.sh for whatever the
# box lacks. Tests are not built (GoogleTest may be missing there).
# Usage: build-gpu-box.sh KIT BUILD_DIR [extra cmake arguments]
# Run the result with LD_LIBRARY_PATH=KIT/lib (HDF5 and its libraries).
set -euo pipefail
kit=$(realpath "${1:?usage: build-gpu-box.sh KIT BUILD_DIR}")
build=${2:?usage: build-gpu-box.sh KIT BUILD_DIR}
shift 2
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
export LD_LIBRARY_PATH="$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cmake -S "$(dirname "$0")/.." -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DMUSHROOM_BUILD_TESTS=OFF \
  -DCMAKE_PREFIX_PATH="$torch_prefix" \
  -DHDF5_ROOT="$kit" -DHDF5_NO_FIND_PACKAGE_CONFIG_FILE=ON \
  -DEigen3_DIR="$kit/share/eigen3/cmake" \
  -DMUSHROOM_CHART_JS="$kit/share/chart.js/chart.min.js" \
  -DCMAKE_INCLUDE_PATH="$kit/include" \
  -DCMAKE_CXX_FLAGS="-isystem $kit/include" "$@"
cmake --build "$build" -j"$(nproc)" --target mushroom
echo "build-gpu-box: $build/mushroom (run with LD_LIBRARY_PATH=$kit/lib)"
