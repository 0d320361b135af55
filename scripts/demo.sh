#!/usr/bin/env bash
# The main job: a short self-play training run from the default model (one
# generation of configs/demo.toml, about two minutes on two cores), then one
# demonstration game of the default bot against greedy.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/mushroom ] || bash scripts/setup.sh
build/mushroom run --config configs/demo.toml --dir runs/demo --init models/default.h5
echo
echo "demonstration game: the default bot (alphabeta with the learned evaluation models/eval.bin and its ProbCut fit, 10 s bank) against greedy"
build/mushroom play --first alphabeta:eval=models/eval.bin,probcut=models/eval.probcut --second greedy --seed "${SEED:-7}"
