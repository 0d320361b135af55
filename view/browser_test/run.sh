#!/usr/bin/env bash
# CTest's viewer_browser: skips (exit 77) with the reason when Node, the
# playwright-core package (scripts/test.sh runs npm ci here) or Chromium is
# missing; otherwise runs the browser test on the sample logs.
# Usage: run.sh MUSHROOM_BIN LOG...
here=$(cd "$(dirname "$0")" && pwd)
chromium=${CHROMIUM:-/usr/bin/chromium}
skip() { echo "viewer_browser: SKIPPED: $*"; exit 77; }
command -v node >/dev/null || skip "node is not installed"
[ -d "$here/node_modules/playwright-core" ] || skip "playwright-core is missing (npm ci --prefix $here)"
[ -x "$chromium" ] || skip "Chromium is not installed at $chromium (apt-get install chromium)"
exec node "$here/viewer_browser_test.mjs" "$@"
