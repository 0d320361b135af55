#!/usr/bin/env bash
# Where a fresh build's time goes: configures this checkout in a new build
# folder with every compile and link timed (wall clock, at the build's own
# parallelism), builds it, and lists the slowest. The full list is kept in
# the build folder as compile-times.txt (milliseconds, then the output file).
#
# Usage: compile-times.sh [--top N] [--jobs J] [--target T] [--build DIR] [-- CMAKE_ARGS...]
#   --top N      how many to list (default 10)
#   --jobs J     parallel jobs (default: the number of cores)
#   --target T   build only T (default: everything)
#   --build DIR  the build folder, which must not exist (default: a new one under /tmp)
set -euo pipefail

# As the compiler launcher: time one command and append it to the log.
if [[ ${1:-} == --time-one ]]; then
  log=$2; shift 2
  out="" prev=""
  for arg in "$@"; do [[ $prev == -o ]] && out=$arg; prev=$arg; done
  start=$(date +%s%N)
  status=0
  "$@" || status=$?
  echo "$(( ($(date +%s%N) - start) / 1000000 )) $out" >> "$log"
  exit $status
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
self=$repo/scripts/compile-times.sh
top=10 jobs=$(nproc 2>/dev/null || echo 2) target="" build=""
while (($#)); do
  case $1 in
    --top) top=${2:?--top needs a number}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --target) target=${2:?--target needs a target}; shift 2 ;;
    --build) build=${2:?--build needs a folder}; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compile-times: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$top" "$jobs"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "compile-times: --top and --jobs take a positive whole number, not '$n'" >&2; exit 2; }
done
if [[ -z $build ]]; then
  build=$(mktemp -d /tmp/compile-times.XXXXXX)
  rmdir "$build"
fi
[[ ! -e $build ]] || { echo "compile-times: $build exists; give a new folder, so that every file is compiled" >&2; exit 2; }
log=$build/compile-times.txt
mkdir -p "$build"
: > "$log"

start=$SECONDS
# ccache would time cache hits, not compiles.
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DMUSHROOM_CCACHE=OFF \
  "-DCMAKE_CXX_COMPILER_LAUNCHER=$self;--time-one;$log" "-DCMAKE_CXX_LINKER_LAUNCHER=$self;--time-one;$log" "$@" \
  > "$build/configure.log"
cmake --build "$build" -j"$jobs" ${target:+--target "$target"}
total=$((SECONDS - start))

sort -nr "$log" -o "$log"
count=$(wc -l < "$log")
sum=$(awk '{s += $1} END {printf "%.0f", s / 1000}' "$log")
echo
echo "compile-times: $count compiles and links, $sum s in all, $total s of wall clock on $jobs jobs ($(git -C "$repo" rev-parse --short HEAD))"
echo
echo "| seconds | output |"
echo "|---:|---|"
head -n "$top" "$log" | awk '{printf "| %.1f | %s |\n", $1 / 1000, $2}'
echo
echo "compile-times: the full list is $log"
