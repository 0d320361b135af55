#!/usr/bin/env bash
# Installs what the project needs from Debian (root, or sudo), then builds.
# Safe to run again: it installs only what is missing and rebuilds
# incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake pkg-config python3
  libgtest-dev libbenchmark-dev        # tests and benchmarks
  libcxxopts-dev libtomlplusplus-dev   # CLI and configs
  nlohmann-json3-dev                   # run records (JSON)
  libfmt-dev                           # log time stamps (header-only use)
  libeigen3-dev                        # CPU inference
  libhdf5-dev                          # training data and model files
  libtorch-dev                         # training (LibTorch 1.13, CPU)
  gnuplot-nox                          # run plots
  libjs-chart.js                       # the pages' charts (inlined at build time)
  clang libc++-14-dev libc++abi-14-dev iwyu  # the judge-exact test: other compilers, include hygiene
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Optional: the viewer's browser test (CTest viewer_browser) drives Debian's
# Chromium through the playwright-core npm package. Without them that one
# test is skipped with a message; nothing else needs them.
optional=()
[ -x /usr/bin/chromium ] || optional+=(chromium)
command -v npm >/dev/null || optional+=(nodejs npm)
if ((${#optional[@]})); then
  echo "setup: installing (optional) ${optional[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${optional[@]}"; } ||
    echo "setup: warning: could not install ${optional[*]}; the browser test will be skipped"
fi
if command -v npm >/dev/null && [ ! -d view/browser_test/node_modules/playwright-core ]; then
  npm ci --prefix view/browser_test --no-audit --no-fund --loglevel=error ||
    echo "setup: warning: npm ci failed in view/browser_test; the browser test will be skipped"
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${MUSHROOM_CMAKE_ARGS:-}
cmake --build build -j"$jobs"
