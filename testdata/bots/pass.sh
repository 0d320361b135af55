#!/bin/sh
# Test bot: always passes.
while read -r cmd rest; do
  case "$cmd" in
    READY) echo OK ;;
    TIME) echo "-1 -1 -1 -1" ;;
    FINISH) exit 0 ;;
  esac
done
