#!/usr/bin/env bash
# The fuzz targets of fuzz/ (fuzz/README.md): builds them with clang's
# libFuzzer, AddressSanitizer and UBSan in their own build folder, runs one
# or all for a given time each, and prints for each its executions, its
# executions a second, its coverage (edges, features), its corpus and its
# findings. Corpora grow in the work folder; the seeds in fuzz/corpus/ are
# read, never written. Each run's row is added to WORK/results.tsv.
#
#   scripts/fuzz.sh [--time S] [--keep-going] [--seed N] [--build-dir DIR] [--work DIR] [--no-build]
#                   [TARGET... | all]
#
#   --time S       seconds each target runs (default 60)
#   --keep-going   fuzz on past a finding (libFuzzer's fork mode), keeping each
#   --seed N       libFuzzer's random seed (default: a new one each run)
#   --build-dir    the fuzz build (default build-fuzz; configured here when new)
#   --work DIR     corpora, findings and logs (default fuzz-work), one folder a target
#   --no-build     run what is built
#
# Exits 1 when a target has a finding (a crash, a sanitizer report, a
# broken reader promise, a timeout, running out of memory); each is kept in
# WORK/TARGET/findings/, with the run's log in WORK/TARGET/log.txt, and
# replays with BUILD/fuzz/fuzz_TARGET FILE.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60 build=build-fuzz work=fuzz-work do_build=1 targets=() modes=()
while (($#)); do
  case "$1" in
    --time) seconds=$2; shift 2 ;;
    --keep-going) modes+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); shift ;;
    --seed) modes+=(-seed="$2"); shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h | --help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz: --time takes whole seconds, not '$seconds'" >&2; exit 2; }

# Every target has a folder of seeds.
known=$(cd fuzz/corpus && ls)
for t in "${targets[@]}"; do
  [ "$t" = all ] || [ -d "fuzz/corpus/$t" ] || { echo "fuzz: no target '$t'; the targets:" $known >&2; exit 2; }
done
if ((${#targets[@]} == 0)) || [[ " ${targets[*]} " == *" all "* ]]; then all=1; else all=0; fi

if ((do_build)); then
  command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing: install Debian's clang (scripts/test.sh does)" >&2; exit 1; }
  if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang CXX=clang++ cmake -S . -B "$build" -DMUSHROOM_FUZZ=ON -DMUSHROOM_BUILD_TESTS=OFF >/dev/null
  fi
  if ((all)); then wanted=fuzz_all; else wanted=$(printf 'fuzz_%s ' "${targets[@]}"); fi
  echo "fuzz: building $wanted in $build"
  cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target $wanted
fi
# All: what the build holds (fuzz_run_config needs LibTorch).
if ((all)); then
  targets=()
  for t in $known; do [ -x "$build/fuzz/fuzz_$t" ] && targets+=("$t"); done
fi
for t in "${targets[@]}"; do
  [ -x "$build/fuzz/fuzz_$t" ] || { echo "fuzz: $build/fuzz/fuzz_$t is not built (drop --no-build)" >&2; exit 1; }
done

# A value from libFuzzer's log: the last "NAME: N" (coverage lines) or
# "stat::NAME: N" (final stats).
value_of() { grep -oE "$1 +[0-9]+" "$2" | tail -1 | awk '{print $NF}' || true; }

mkdir -p "$work"
[ -f "$work/results.tsv" ] || printf 'date\ttarget\tseconds\texecutions\texec_per_s\tcov\tft\tcorpus\tfindings\n' >"$work/results.tsv"
printf '%-17s %11s %8s %6s %7s %7s  %s\n' target executions exec/s cov ft corpus findings
failed=0
for t in "${targets[@]}"; do
  dir=$work/$t
  mkdir -p "$dir/corpus" "$dir/findings"
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  before=$(ls "$dir/findings" | wc -l)
  # -timeout: an input running 10 s is a hang; -rss_limit_mb also caps any
  # one allocation, so a size read from a file that asks for gigabytes is a
  # finding. The first corpus folder is the one libFuzzer writes to.
  # LeakSanitizer skips only the leaks scripts/lsan-suppressions.txt names
  # (libhdf5's own, each with its reason), as scripts/sanitize.sh does.
  status=0
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
    "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/findings/" "${dict[@]}" "${modes[@]}" "$dir/corpus" "fuzz/corpus/$t" >"$dir/log.txt" 2>&1 ||
    status=$?
  found=$(($(ls "$dir/findings" | wc -l) - before))
  # Fork mode prints no final stats: then its last progress line's.
  execs=$(value_of 'stat::number_of_executed_units:' "$dir/log.txt")
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$dir/log.txt" | tail -1 | tr -d '#' || true)
  rate=$(value_of 'stat::average_exec_per_sec:' "$dir/log.txt")
  [ -n "$rate" ] || rate=$(value_of 'exec/s:' "$dir/log.txt")
  cov=$(value_of 'cov:' "$dir/log.txt")
  ft=$(value_of 'ft:' "$dir/log.txt")
  corpus=$(value_of 'corp:' "$dir/log.txt")
  note=$found
  if ((status != 0)); then
    failed=1
    note="$found (exit $status; $dir/log.txt)"
    ((found > 0)) && note="$note: $(ls -t "$dir/findings" | head -1)"
  fi
  printf '%-17s %11s %8s %6s %7s %7s  %s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" "${ft:--}" "${corpus:--}" "$note"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$seconds" "${execs:--}" "${rate:--}" \
    "${cov:--}" "${ft:--}" "${corpus:--}" "$found" >>"$work/results.tsv"
  if ((status != 0)); then grep -m1 -E 'ERROR|FINDING|runtime error|deadly signal|timeout|out-of-memory' "$dir/log.txt" || true; fi
done
exit $failed
