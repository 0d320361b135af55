#!/usr/bin/env bash
# Times exported bots' alpha-beta as the judge builds them: each DIR holds a
# main.cpp and its data.bin (export-bot's output); each is compiled with the
# judge's command line inside bench/submission_speed.cpp and searches the
# same bench positions to a fixed depth, one after another on one core.
# Usage: submission-speed.sh DIR... [--depth 7] [--positions 40] [--core 0] [--rounds 2]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
depth=7 count=40 core=0 rounds=2 dirs=()
while (($#)); do
  case $1 in
    --depth) depth=$2; shift 2 ;;
    --positions) count=$2; shift 2 ;;
    --core) core=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    -*) echo "submission-speed: unknown option $1" >&2; exit 2 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
((${#dirs[@]})) || { echo "submission-speed: name at least one folder holding main.cpp and data.bin" >&2; exit 2; }
for d in "${dirs[@]}"; do
  for f in main.cpp data.bin; do [[ -f $d/$f ]] || { echo "submission-speed: $d/$f is missing" >&2; exit 2; }; done
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in "${!dirs[@]}"; do
  g++ -std=gnu++20 -O2 -DONLINE_JUDGE -DNYPC -Wall -Wextra -march=native -mtune=native \
    -DMUSHROOM_SUBMISSION="\"$(realpath "${dirs[$i]}")/main.cpp\"" -o "$work/speed-$i" "$root/bench/submission_speed.cpp"
done
for ((r = 1; r <= rounds; ++r)); do
  for i in "${!dirs[@]}"; do
    printf '%s round %d: ' "${dirs[$i]}" "$r"
    taskset -c "$core" "$work/speed-$i" "${dirs[$i]}/data.bin" "$root/bench/movegen_positions.txt" "$depth" "$count"
  done
done
