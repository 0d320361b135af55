#!/usr/bin/env bash
# CTest SlurmLaunchDryRun: what deploy/slurm/launch.sh would submit, without
# a cluster (--dry-run): each role's CPUs follow its threads (the config's,
# or the --*-threads options), the gatekeeper gets --parallel, --set reaches
# every role, a CUDA config picks build-gpu/mushroom, and bad input is an
# error that names it.
# Usage: launch-dry-run-test.sh MUSHROOM_BIN   (run from the repository root)
set -euo pipefail
BIN="$(realpath "${1:?usage: launch-dry-run-test.sh MUSHROOM_BIN}")"
HERE="$(cd "$(dirname "$0")" && pwd)"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() {  # text, needle
  [[ "$1" == *"$2"* ]] || fail "expected '$2' in:"$'\n'"$1"
}

# The CPU config: threads from the config (cpu-small: 2 workers, 2 training threads).
out="$("$HERE/launch.sh" --dir "$W/r1" --config configs/cpu-small.toml --actors 3 --bin "$BIN" --dry-run)"
expect "$out" "MUSHROOM_BIN=$BIN"
actor="$(grep "mushroom-r1-actor" <<< "$out")"
learner="$(grep "mushroom-r1-learner" <<< "$out")"
gatekeeper="$(grep "mushroom-r1-gatekeeper" <<< "$out")"
expect "$actor" "--cpus-per-task=$("$BIN" config --get selfplay.threads configs/cpu-small.toml)"
expect "$actor" "--array=0-2"
expect "$actor" "--set selfplay.threads=$("$BIN" config --get selfplay.threads configs/cpu-small.toml)"
expect "$learner" "--cpus-per-task=$("$BIN" config --get train.threads configs/cpu-small.toml)"
expect "$gatekeeper" "--cpus-per-task=2"
expect "$gatekeeper" "--parallel 2"

# Threads and overrides given: every role gets the --set, each its threads.
out="$("$HERE/launch.sh" --dir "$W/r2" --config configs/cpu-small.toml --actors 1 --bin "$BIN" --dry-run \
  --set selfplay.games=64 --actor-threads 6 --learner-threads 3 --gatekeeper-threads 5)"
for role in actor learner gatekeeper; do expect "$(grep "r2-$role" <<< "$out")" "--set selfplay.games=64"; done
expect "$(grep r2-actor <<< "$out")" "--cpus-per-task=6"
expect "$(grep r2-actor <<< "$out")" "--set selfplay.threads=6"
expect "$(grep r2-learner <<< "$out")" "--cpus-per-task=3"
expect "$(grep r2-learner <<< "$out")" "--set train.threads=3"
expect "$(grep r2-gatekeeper <<< "$out")" "--cpus-per-task=5"
expect "$(grep r2-gatekeeper <<< "$out")" "--parallel 5"

# A CUDA config with no --bin runs the GPU build; without one it says so.
mkdir -p "$W/repo/build" "$W/repo/configs"
ln -s "$BIN" "$W/repo/build/mushroom"
cp configs/gpu.toml "$W/repo/configs/"
if err="$(cd "$W/repo" && "$HERE/launch.sh" --dir "$W/r3" --config configs/gpu.toml --actors 1 --dry-run 2>&1)"; then
  fail "a CUDA config launched without a GPU build: $err"
fi
expect "$err" "no mushroom binary at 'build-gpu/mushroom'"
expect "$err" "self-play on 'cuda'"
mkdir -p "$W/repo/build-gpu"
ln -s "$BIN" "$W/repo/build-gpu/mushroom"
out="$(cd "$W/repo" && "$HERE/launch.sh" --dir "$W/r3" --config configs/gpu.toml --actors 1 --dry-run)"
expect "$(grep r3-actor <<< "$out")" "--cpus-per-task=$("$BIN" config --get selfplay.threads configs/gpu.toml)"
expect "$out" "MUSHROOM_BIN=$(cd "$W/repo/build-gpu" && pwd)/mushroom"

# Bad input names itself.
if err="$("$HERE/launch.sh" --dir "$W/r4" --config configs/cpu-small.toml --actors 1 --bin "$BIN" --dry-run \
  --set selfplay.gamez=3 2>&1)"; then fail "an unknown key was accepted"; fi
expect "$err" "unknown key 'selfplay.gamez'"
if err="$("$HERE/launch.sh" --dir "$W/r4" --config configs/cpu-small.toml --actors 1 --bin "$BIN" --dry-run \
  --actor-threads zero 2>&1)"; then fail "a bad thread count was accepted"; fi
expect "$err" "not 'zero'"
echo "launch.sh dry runs: ok"
