# Sourced first by the scripts' CTest wrappers (scripts/*-test.sh): strict
# mode, a scratch folder $work removed on exit, and `fail MESSAGE`, which
# names the failure on stderr and exits 1.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
