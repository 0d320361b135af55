#!/usr/bin/env bash
# CTest ReadmeJobs: runs the command blocks of README.md's "The three jobs"
# as written, at toy size, in a scratch folder that sees the repository's
# configs/, models/, testdata/ and deploy/ and the binary under test as
# build/mushroom. The only rewrites (printed as they apply):
#   - the run keeps the README's own config (configs/eval-cpu.toml, gate on)
#     and shrinks it with --set to one small generation (kToySettings), its
#     fit stage ([probcut]) to 4 games searched to depth 4;
#   - matches play one board with a 1,000 ms bank (--boards N --time-ms 1000);
#   - analyze searches 100 ms a position;
#   - launch.sh only prints its sbatch commands (--dry-run: no cluster here);
#   - the GPU box's line is skipped (no CUDA build here).
# Each command must exit 0, but for the export of a run whose toy generation
# was not promoted: then it must fail naming the newest candidate, and the
# export of that file, as README.md says, must work. Then the files each job
# promises are checked.
# Usage: readme-jobs-test.sh MUSHROOM
source "$(dirname "$0")/lib/script-test.sh"
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:?usage: readme-jobs-test.sh MUSHROOM}")
mkdir -p "$work/build"
ln -s "$bin" "$work/build/mushroom"
for d in configs models testdata deploy scripts; do ln -s "$repo/$d" "$work/$d"; done

# The indented lines between "## The three jobs" and the next top heading,
# a trailing backslash joining a line to the next.
commands=$(awk '/^## The three jobs/ {on = 1; next} on && /^#+ / {exit} on && /^    / {print substr($0, 5)}' \
               "$repo/README.md" | sed -e ':a' -e '/\\$/N; s/\\\n */ /; ta')
[[ -n $commands ]] || fail "README.md has no command blocks under '## The three jobs'"
toy_settings="--set run.generations=1 --set selfplay.games=60 --set evalplay.label_depth=2 \
--set evalplay.heldout_games=10 --set train.steps=60 --set train.batch_size=256 --set evalnet.match_depth=2 \
--set gate.boards=2 --set eval.boards=2 --set probcut.games=4 --set probcut.max_depth=4 --set probcut.exact_max_left=0"
candidate=runs/eval/models/gen-0001.eval
count=0
cd "$work"
while IFS= read -r line; do
  [[ -z $line ]] && continue
  toy=$(sed -E 's/ {2,}# .*$//' <<< "$line")  # the README's trailing comments
  if [[ $toy == build-gpu/* ]]; then echo "skipped (needs the CUDA build): $line"; continue; fi
  if [[ $toy == deploy/slurm/launch.sh* ]]; then
    toy="$toy --generations 1 --dry-run"
  elif [[ $toy == "build/mushroom run "* ]]; then
    toy="$toy $toy_settings"
  fi
  toy=$(sed -E 's/--boards [0-9]+/--boards 1 --time-ms 1000/g' <<< "$toy")
  [[ $toy == "build/mushroom analyze "* ]] && toy="$toy --ms 100"
  [[ $toy != "$(sed -E 's/ {2,}# .*$//' <<< "$line")" ]] && echo "toy size: $toy" || echo "as written: $line"
  if ! out=$(bash -c "set -eo pipefail; $toy" 2>&1); then
    if [[ $toy == *"export-bot --eval runs/eval "* && ! -e runs/eval/models/promoted.txt ]]; then
      # The toy generation lost its gate: the export must say so and name the candidate.
      grep -q "has promoted no model yet" <<< "$out" || { echo "$out"; fail "the export did not say nothing was promoted"; }
      grep -q "its newest candidate is $candidate, which exports as well" <<< "$out" ||
        { echo "$out"; fail "the export did not name the candidate"; }
      grep -q -- "--eval $candidate" "$repo/README.md" || fail "README.md no longer says to export $candidate"
      toy=${toy//--eval runs\/eval /--eval $candidate }
      echo "not promoted at toy size, as README.md warns; exporting the candidate: $toy"
      out=$(bash -c "set -eo pipefail; $toy" 2>&1) || { echo "$out" | tail -30; fail "exit $? from: $toy"; }
    else
      echo "$out" | tail -30
      fail "exit from: $toy"
    fi
  fi
  if [[ $line == *"| sub/main NYPC"* ]]; then
    grep -qx OK <<< "$out" || fail "the exported bot did not answer OK: $out"
  fi
  count=$((count + 1))
done <<< "$commands"
(( count >= 8 )) || fail "only $count commands ran: did README.md's blocks move?"

# What the jobs promise.
[[ -s runs/eval/dashboard.html ]] || fail "the training job wrote no dashboard"
grep -Eq '"gate_games": *[1-9]' runs/eval/metrics/gen-0001.json || fail "the README's config played no gate games"
[[ -s runs/eval/models/gen-0001.probcut ]] || fail "the README's config made no fit of its candidate ([probcut])"
[[ -s sub/main.cpp && -x sub/main ]] || fail "the export job left no built bot in sub/"  # data.bin only when the weights do not fit
[[ -s matches/new-vs-committed/games.csv ]] || fail "the rating job's match wrote no games.csv"
[[ $(wc -l < matches/new-vs-committed/games.csv) -ge 3 ]] || fail "the match played fewer than 2 games"
[[ -s ladders/mine/ratings.txt ]] || fail "the ladder wrote no ratings"
grep -q '<canvas id="eval-graph"' lost.html && grep -q 'Chart.js v' lost.html ||
  fail "analyze wrote no page with the graph and its chart library"
echo "ReadmeJobs: $count commands ran"
