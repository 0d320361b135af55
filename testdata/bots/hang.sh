#!/bin/sh
# Test bot: never answers a move; its child sleep must be killed too.
while read -r cmd rest; do
  case "$cmd" in
    READY) echo OK ;;
    TIME) sleep 600 ;;
    FINISH) exit 0 ;;
  esac
done
