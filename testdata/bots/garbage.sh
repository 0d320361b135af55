#!/bin/sh
# Test bot: answers a move with text that is not a move.
while read -r cmd rest; do
  case "$cmd" in
    READY) echo OK ;;
    TIME) echo "hello world" ;;
    FINISH) exit 0 ;;
  esac
done
