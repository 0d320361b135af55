#!/usr/bin/env bash
# Installs what the main job needs from Debian (root, or sudo), then builds
# only what scripts/demo.sh runs: the `mushroom` binary. scripts/test.sh
# adds the test tools and builds the rest. Safe to run again: it installs
# only what is missing and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh

packages=(
  build-essential cmake pkg-config python3
  libgtest-dev libbenchmark-dev        # configured with the build; the suites build in test.sh
  libcxxopts-dev libtomlplusplus-dev   # CLI and configs
  nlohmann-json3-dev                   # run records (JSON)
  libfmt-dev                           # log time stamps (header-only use)
  libeigen3-dev                        # CPU inference
  libhdf5-dev                          # training data and model files
  libtorch-dev                         # training (LibTorch 1.13, CPU)
  gnuplot-nox                          # run plots
  libjs-chart.js                       # the pages' charts (inlined at build time)
  help2man                             # the man page, made from the commands' help (cmake --build, cmake --install)
)
install_packages setup "${packages[@]}"

jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${MUSHROOM_CMAKE_ARGS:-} > build/configure.log 2>&1 || {
  cat build/configure.log >&2
  echo "setup: error: cmake could not configure the build (its output is above and in build/configure.log)" >&2
  exit 1
}
grep -E "^-- mushroom:" build/configure.log || true
echo "setup: building build/mushroom on $jobs cores (a fresh build takes a few minutes)"
start=$SECONDS
cmake --build build -j"$jobs" --target mushroom
echo "setup: build/mushroom is ready ($((SECONDS - start)) s); scripts/test.sh builds and runs the test suite"
