#!/bin/sh
# Test bot: exits with status 3 when asked for a move.
while read -r cmd rest; do
  case "$cmd" in
    READY) echo OK ;;
    TIME) exit 3 ;;
    FINISH) exit 0 ;;
  esac
done
