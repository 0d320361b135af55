#!/usr/bin/env bash
# A real Slurm cluster on this machine, for the tests (CTest
# SlurmLocalCluster): one node with two CPUs, munge for authentication,
# slurmctld and slurmd with a configuration generated in a temp folder.
# It launches a tiny run with deploy/slurm/launch.sh (an array of two
# actors, a learner and a gatekeeper), waits for it, and checks that both
# array tasks wrote shards, that candidates were trained and gated, and that
# the promoted pointer moved. Then it shuts the daemons down.
#
#   deploy/slurm/local-cluster-test.sh BIN [--install]
#
# --install installs Debian's slurm-wlm and munge first when missing (needs
# root and the Debian registry); CTest passes it when CI=true, so a
# developer's machine is never changed by the tests. Exits 77 (CTest's "skipped") with the reason
# when the machine cannot run a cluster: not root, no packages, or daemons
# that do not start here.
set -uo pipefail
BIN="${1:?usage: local-cluster-test.sh BIN [--install]}"
INSTALL="${2:-}"
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*"; local_cluster_logs; exit 1; }

if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null || ! command -v munged > /dev/null; then
  [[ "$INSTALL" == --install ]] || skip "slurm-wlm and munge are not installed (run with --install, as root)"
  echo "installing slurm-wlm and munge (Debian packages)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge > /tmp/mushroom-slurm-apt.log 2>&1 ||
    skip "apt-get install slurm-wlm munge failed (see /tmp/mushroom-slurm-apt.log)"
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
[[ -x "$BIN" ]] || fail "no mushroom binary at $BIN"

source "$HERE/local-cluster.sh"
trap local_cluster_down EXIT
local_cluster_up

RUN="$T/run"
cd "$ROOT"
"$HERE/launch.sh" --dir "$RUN" --config testdata/configs/roles-ci.toml --actors 2 --bin "$BIN" --chunk-games 20 --gatekeeper-threads 1 ||
  fail "launch.sh failed"
START=$(date +%s)
while [[ ! -f "$RUN/metrics/gen-0002.json" ]]; do
  (( $(date +%s) - START < 900 )) || fail "the run did not finish in 15 minutes: $(squeue -h 2>&1 | tr '\n' ';')"
  sleep 2
done
echo "run finished in $(( $(date +%s) - START )) s"
for _ in $(seq 1 60); do [[ -z "$(squeue -h 2> /dev/null)" ]] && break; sleep 1; done
[[ -z "$(squeue -h 2> /dev/null)" ]] || fail "jobs still queued or running after the run finished: $(squeue -h | tr '\n' ';')"

for gen in gen-0001 gen-0002; do
  for task in a000 a001; do
    n=$(find "$RUN/data/$gen" -name "shard-*.$task-w*.h5" | wc -l)
    (( n > 0 )) || fail "array task $task wrote no shard in $gen"
    echo "$gen: array task $task wrote $n shards"
  done
  [[ -f "$RUN/models/$gen.eval" ]] || fail "no candidate $gen.eval"
  grep -q '"promoted":1' "$RUN/metrics/$gen.json" || fail "$gen was not gated and promoted"
done
[[ "$(cat "$RUN/models/promoted.txt")" == gen-0002.eval ]] || fail "the pointer is '$(cat "$RUN/models/promoted.txt")', not gen-0002.eval"
grep -q "self-play with $RUN/models/gen-0001.eval" "$RUN"/slurm/actor-*.log || fail "no actor picked up the promoted gen-0001"
grep -q "every generation's candidate is trained" "$RUN/slurm/learner.log" || fail "the learner did not finish"
grep -q "every generation is recorded" "$RUN/slurm/gatekeeper.log" || fail "the gatekeeper did not finish"
echo "PASSED: 2 actors, a learner and a gatekeeper on Slurm; candidates gated; the pointer moved to gen-0002.eval"
local_cluster_down
trap - EXIT
rm -rf "$T"
