#!/bin/sh
# Test bot: never says OK.
while read -r cmd rest; do
  case "$cmd" in
    READY) : ;;
    TIME) echo "-1 -1 -1 -1" ;;
    FINISH) exit 0 ;;
  esac
done
