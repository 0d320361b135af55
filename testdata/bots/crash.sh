#!/bin/sh
# Test bot: says why on stderr, then exits with status 3, when asked for a move.
while read -r cmd rest; do
  case "$cmd" in
    READY) echo OK ;;
    TIME) echo "crash.sh: asked for a move, exiting with status 3" >&2; exit 3 ;;
    FINISH) exit 0 ;;
  esac
done
