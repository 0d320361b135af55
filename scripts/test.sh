#!/usr/bin/env bash
# The whole test suite: installs and builds what is missing, then runs
# every test under CTest. Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir build --output-on-failure -j"$jobs" "$@"
