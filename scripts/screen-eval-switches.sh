#!/usr/bin/env bash
# Screens the learned evaluation's [evalnet] switches (issue 44): trains a
# baseline and one variant per switch on the same frozen shards, the same
# steps and seed, then plays each variant against the baseline at a fixed
# depth without the endgame solver, so that only the evaluation differs.
# Prints one line per variant (score, Elo, paired margin) and leaves every
# model, log and games.csv under OUT. Resumable: a finished model or match
# is not redone. docs/history/issue-44-learned-evaluation-at-scale.md, "The switches, first screen", was made this
# way by hand.
#
#   scripts/screen-eval-switches.sh --data runs/scale/data --out /tmp/screen [--config FILE] \
#       [--boards N] [--depth D] [--seed S] [--steps N] [--train-seed N] [--heldout DIR] [--only NAME,NAME]
#
# --train-seed sets run.seed (the training's order and starting weights)
# for the baseline and every variant: two seeds, two folders. --heldout
# names shards none of them trains on (self-play from another seed): each
# training measures its fit to them (`mushroom train --heldout`), and each
# line ends with the held-out search-score loss, the variant's and the
# baseline's.
#
# --data is read once into OUT/data as hard links (a run may keep writing
# its own folder). Variants, by name:
#   margin   evalnet.target=margin
#   buckets  evalnet.phase_buckets=4, evalnet.seat_buckets=2
#   blend    target=margin, search_weight=0.7, seat_buckets=2 (the result as a second label)
#   wide     evalnet.scale=20
#   contra   evalnet.drop_contradicting=3
#   gain     evalnet.skip_gain_at_least=10
#   balance  evalnet.phase_balance=true
#   mobility evalnet.mobility=true (the leaf's count of legal rectangles as inputs)
#   focus    evalnet.focus_weight=2 (positions at 95-130 mushrooms left drawn twice as often; issue 100, item 4)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${MUSHROOM:-build/mushroom}
data="" out="" config=configs/eval-scale.toml boards=200 depth=5 seed=4401 steps="" only="" train_seed="" heldout=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --data) data=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --boards) boards=$2; shift 2 ;;
    --depth) depth=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --train-seed) train_seed=$2; shift 2 ;;
    --heldout) heldout=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "screen-eval-switches: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -n $data && -n $out ]] || { echo "screen-eval-switches: --data and --out are required (see --help)" >&2; exit 2; }
[[ -d $data ]] || { echo "screen-eval-switches: --data $data is not a folder" >&2; exit 2; }
[[ -x $B ]] || { echo "screen-eval-switches: $B is not built (cmake --build build)" >&2; exit 2; }
# The bots are started from a copy, so that a rebuild meanwhile cannot swap them mid-match.
mkdir -p "$out"
cp "$B" "$out/mushroom"
B=$out/mushroom
[[ -d $out/data ]] || cp -al "$data" "$out/data"

declare -A sets=(
  [margin]="--set evalnet.target=margin"
  [buckets]="--set evalnet.phase_buckets=4 --set evalnet.seat_buckets=2"
  [blend]="--set evalnet.target=margin --set evalnet.search_weight=0.7 --set evalnet.seat_buckets=2"
  [wide]="--set evalnet.scale=20"
  [contra]="--set evalnet.drop_contradicting=3"
  [gain]="--set evalnet.skip_gain_at_least=10"
  [balance]="--set evalnet.phase_balance=true"
  [mobility]="--set evalnet.mobility=true"
  [focus]="--set evalnet.focus_weight=2"
)
names=(margin buckets blend wide contra gain balance mobility focus)
if [[ -n $only ]]; then
  IFS=, read -r -a names <<< "$only"
  for n in "${names[@]}"; do [[ -n ${sets[$n]+x} ]] || { echo "screen-eval-switches: no variant '$n'" >&2; exit 2; }; done
fi

train() {  # NAME [--set ...]
  local name=$1; shift
  [[ -f $out/$name/eval.bin ]] && return 0
  # shellcheck disable=SC2086
  "$B" train --config "$config" --data "$out/data" --dir "$out/$name" ${steps:+--steps $steps} \
    ${train_seed:+--set run.seed=$train_seed} ${heldout:+--heldout "$heldout"} "$@" \
    > "$out/$name.log" 2>&1 || { echo "screen-eval-switches: training $name failed, see $out/$name.log" >&2; exit 1; }
  echo "trained $name: $(tail -1 "$out/$name.log")"
}
spec() { echo "builtin:alphabeta:depth=$depth,eval=$out/$1/eval.bin,solver=0"; }
# A training made before --heldout was given has no fit: "none".
heldout_loss() {
  if [[ -f $out/$1/heldout.json ]]; then sed -n 's/.*"learned_search_loss": *\([0-9.e+-]*\).*/\1/p' "$out/$1/heldout.json"
  else echo none; fi
}

train base
for n in "${names[@]}"; do
  # shellcheck disable=SC2086
  train "$n" ${sets[$n]}
  if [[ ! -f $out/match-$n.txt ]] || ! grep -q "^$n total" "$out/match-$n.txt"; then
    "$B" arena -a "$(spec "$n")" --a-name "$n" -b "$(spec base)" --b-name base --boards "$boards" --seed "$seed" \
      --parallel 2 --log-dir "$out/match-$n" > "$out/match-$n.txt" 2>&1
  fi
  fit=""
  [[ -n $heldout ]] && fit=" | held-out search-score loss $(heldout_loss "$n") (base $(heldout_loss base))"
  printf '%-8s %s | %s | %s%s\n' "$n" "$(grep "^$n total" "$out/match-$n.txt" | sed 's/.*score //')" \
    "$(grep '^Elo' "$out/match-$n.txt" | sed 's/ (pentanomial.*//')" "$(grep '^paired margin' "$out/match-$n.txt")" "$fit"
done
