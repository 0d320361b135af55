#!/usr/bin/env bash
# Self-play throughput under Slurm on this machine (docs/history/issue-31-slurm-roles.md, "Slurm"):
# `mushroom run`'s own self-play, then 1 and 2 actors as a Slurm job array
# on a local one-node cluster (local-cluster.sh), all on the same config.
#   deploy/slurm/bench-local.sh BIN CONFIG [SECONDS]
# Needs root, slurm-wlm and munge. The actors' rate is the sum over actors
# of games / seconds of their finished chunks ("generation 1: N games in S
# s" lines), measured while all of them run; `mushroom run`'s is its
# self-play's final progress line. The config's selfplay.games is raised so
# that the learner waits and only actors run.
set -uo pipefail
BIN="${1:?usage: bench-local.sh BIN CONFIG [SECONDS]}"
CONFIG="${2:?usage: bench-local.sh BIN CONFIG [SECONDS]}"
SECONDS_PER_SETUP="${3:-120}"
HERE="$(cd "$(dirname "$0")" && pwd)"
skip() { echo "cannot run: $*"; exit 77; }
fail() { echo "FAILED: $*"; local_cluster_logs; exit 1; }
source "$HERE/local-cluster.sh"

W="$(mktemp -d /tmp/mushroom-slurm-bench.XXXXXX)"
# A copy of the config whose generation never fills, and one that fills in about the same time.
sed 's/^games = .*/games = 1000000/' "$CONFIG" > "$W/actors.toml"
"$BIN" config --check "$W/actors.toml" > /dev/null || fail "the config copy does not load"

echo "== mushroom run (its own self-play, $SECONDS_PER_SETUP s)"
"$BIN" run --config "$W/actors.toml" --dir "$W/base" --generations 1 > "$W/base.log" 2>&1 &
PID=$!
sleep "$SECONDS_PER_SETUP"
kill "$PID"; wait "$PID" 2> /dev/null
BASE=$(grep -o 'selfplay: [0-9]*/[0-9]* games, [0-9.]* games/min' "$W/base.log" | tail -n 1 | awk '{print $4}')
echo "mushroom run: $BASE games/min"

trap local_cluster_down EXIT
local_cluster_up
for ACTORS in 1 2; do
  echo "== $ACTORS actor(s) under Slurm ($SECONDS_PER_SETUP s)"
  RUN="$W/actors-$ACTORS"
  "$HERE/launch.sh" --dir "$RUN" --config "$W/actors.toml" --actors "$ACTORS" --bin "$BIN" --chunk-games 100 --gatekeeper-threads 1 > /dev/null ||
    fail "launch.sh failed"
  sleep "$SECONDS_PER_SETUP"
  "$HERE/stop.sh" "$RUN" --cancel > /dev/null
  sleep 2
  RATE=$(cat "$RUN"/slurm/actor-*.log | awk '
    /generation 1: [0-9]+ games in/ { tag = $2; games[tag] += $5; secs[tag] += $8 }
    END { total = 0; for (t in games) if (secs[t] > 0) total += games[t] * 60 / secs[t]; printf "%.1f", total }')
  echo "$ACTORS actor(s): $RATE games/min"
done
local_cluster_down
trap - EXIT
rm -rf "$T"
echo "work folder: $W"
