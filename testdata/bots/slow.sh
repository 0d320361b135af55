#!/bin/sh
# Test bot: takes 2 s per move (too slow for a 1 s bank), then passes.
while read -r cmd rest; do
  case "$cmd" in
    READY) echo OK ;;
    TIME) sleep 2; echo "-1 -1 -1 -1" ;;
    FINISH) exit 0 ;;
  esac
done
