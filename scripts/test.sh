#!/usr/bin/env bash
# The whole test suite: installs and builds what is missing (scripts/setup.sh
# builds the `mushroom` binary; this adds the test tools and builds every
# test binary), then runs every test under CTest, then the fuzz targets'
# smoke runs (each target 10 s over its seeds and every finding's
# reproducer, under ASan and UBSan: a clang build in build-fuzz/,
# fuzz/README.md). Exits non-zero when any test fails. CTest arguments
# (e.g. -R Shard) select tests of the suite and skip the smoke runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh
bash scripts/setup.sh

# The judge-exact tests build the submission with other compilers and check
# its includes; each skips, naming the package, where one is missing.
install_packages test clang libc++-14-dev libc++abi-14-dev iwyu
# README.md's jobs read a match's report.json with jq (CTest ReadmeJobs).
install_packages test jq

# Optional: the viewer's browser test (CTest viewer_browser) drives Debian's
# Chromium through the playwright-core npm package. Without them that one
# test is skipped with a message; nothing else needs them.
optional=()
[ -x /usr/bin/chromium ] || optional+=(chromium)
command -v npm >/dev/null || optional+=(nodejs npm)
if ((${#optional[@]})); then
  (install_packages test "${optional[@]}") ||
    echo "test: warning: could not install ${optional[*]}; the browser test will be skipped"
fi
if command -v npm >/dev/null && [ ! -d view/browser_test/node_modules/playwright-core ]; then
  npm ci --prefix view/browser_test --no-audit --no-fund --loglevel=error ||
    echo "test: warning: npm ci failed in view/browser_test; the browser test will be skipped"
fi

jobs=$(nproc 2>/dev/null || echo 2)
echo "test: building the test binaries on $jobs cores"
start=$SECONDS
cmake --build build -j"$jobs"
echo "test: built ($((SECONDS - start)) s); running the suite"
status=0
ctest --test-dir build --output-on-failure -j"$jobs" "$@" || status=$?
(($# == 0)) || exit $status

# The fuzz targets keep building and replay their seeds (issue 101).
echo "test: building the fuzz targets with clang in build-fuzz"
start=$SECONDS
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DMUSHROOM_FUZZ=ON -DMUSHROOM_BUILD_TESTS=OFF >/dev/null
fi
cmake --build build-fuzz -j"$jobs" --target fuzz_all
echo "test: fuzz targets built ($((SECONDS - start)) s); their smoke runs"
ctest --test-dir build-fuzz --output-on-failure -j"$jobs" -L fuzz_smoke || status=$?
exit $status
