#!/usr/bin/env bash
# A `mushroom` whose help breaks every rule scripts/check_cli_help.py holds
# (CTest cli_help_catches_breaks): a name as long as its column, a job twice,
# and a command the guide (testdata/cli_help/cli.md) puts elsewhere.
case "$1" in
  --version) echo "mushroom 0000000 (Release), LibTorch 1.13.0, CUDA: not available" ;;
  --help) printf '%s\n' "usage: mushroom <command> [options]" "" "train:" "  run          the loop" \
            "  probcut-fit the fit" "" "evaluate:" "  arena        matches" "" "train:" "  config       keys" ;;
  *) exit 2 ;;
esac
