#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and UBSan: every test binary
# and the `mushroom` binaries the tests start, built with clang in their own
# folder (build-asan/, MUSHROOM_SANITIZE: cmake/Sanitizers.cmake), then
# every test under CTest. Each sanitizer report, whether in a test binary or
# in a program a test starts, is written to build-asan/sanitizer-reports/;
# the run passes when every test passes and that folder stays empty.
#
#   scripts/sanitize.sh [CTEST ARGUMENTS...]     e.g. -R Shard, or -E JudgeExact
#
# It needs what scripts/test.sh installs (the libraries, clang and the test
# tools). CC and CXX pick another compiler (g++ 12 works too);
# MUSHROOM_SANITIZE_BUILD another folder. Run it before landing a C++ change
# (docs/history/issue-101-fuzzing.md has its times on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh
install_packages sanitize clang libc++-14-dev libc++abi-14-dev iwyu

build=${MUSHROOM_SANITIZE_BUILD:-build-asan}
jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S . -B "$build" -DMUSHROOM_SANITIZE=ON >/dev/null
fi
echo "sanitize: building every test with ASan and UBSan in $build on $jobs cores"
start=$SECONDS
cmake --build "$build" -j"$jobs"
echo "sanitize: built ($((SECONDS - start)) s); running the suite"

reports=$PWD/$build/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
# Reports go to files (one per process), so that one in a program whose
# stderr a test swallows is still counted. LibTorch and HDF5 are not
# instrumented; their memory is checked where our code touches it.
export ASAN_OPTIONS="log_path=$reports/asan:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
start=$SECONDS
ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@" || status=$?
echo "sanitize: the suite ran in $((SECONDS - start)) s"
count=$(find "$reports" -type f | wc -l)
if ((count > 0)); then
  echo "sanitize: $count sanitizer reports:" >&2
  for f in "$reports"/*; do
    echo "== $f" >&2
    head -40 "$f" >&2
  done
  exit 1
fi
echo "sanitize: 0 sanitizer reports"
exit $status
