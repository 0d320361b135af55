#!/usr/bin/env bash
# A shared core (issue 101, item 6): the submission (models/submission.cpp
# and models/data.bin) against the 011172d submission at the real clock,
# both built with the judge's line, every game on ONE core that a busy
# neighbour process shares with them, the CPU clock counted as the judge
# counts it (`mushroom arena --clock cpu`: a move costs the CPU time of the
# program's process tree). Done when the games have 0 forfeits: a bot that
# budgets wall time, or reads the clock wrongly when it gets half a core,
# forfeits here.
#
#   scripts/shared_core_match.sh [--name NAME] [--games N] [--seed S] [--core C] [--neighbour spin|yes]
#                                [--old REV] [--mushroom BIN] [--work DIR]
#
#   --name NAME      the match's folder, bench/matches/shared-core-NAME/ (default: the date, e.g. 20261206)
#   --games N        games, an even number: N/2 boards, each played twice (default 200)
#   --seed S         board seed (default 10101)
#   --core C         the core (default: the last this process may run on)
#   --neighbour      spin: a shell loop burning the core (default); yes: `yes > /dev/null`
#   --old REV        the commit whose models/submission.cpp and models/data.bin are the opponent (default 011172d)
#   --mushroom BIN   the arena (default build/mushroom)
#   --work DIR       the programs, the logs and the arena's folder (default build-test-tmp/shared-core-NAME);
#                    the same command again resumes the match from DIR/RC/games.csv
#
# It builds new/ (the working tree's submission) and old/ (REV's) in DIR
# with the judge's line, starts the neighbour pinned to the core (taskset),
# plays the match with the arena itself pinned there (`taskset -c C mushroom
# arena --parallel 1 --pin`: the game's core is the first of the arena's
# mask), stops the neighbour, and copies games.csv, arena.txt,
# fingerprints.txt and report.txt into bench/matches/shared-core-NAME/
# (bench/matches/README.md: the logs and the programs' stderr stay out),
# with a README.md of the commands, the machine, the dates and the
# forfeits. Exits 1 when any game was forfeited (each is listed with its
# reason). Nothing else should run on the machine meanwhile: the neighbour
# is the only load the match means to have.
set -euo pipefail
cd "$(dirname "$0")/.."

name=$(date -u +%Y%m%d) games=200 seed=10101 core= neighbour=spin old=011172d mushroom=build/mushroom work=
while (($#)); do
  case "$1" in
    --name) name=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --core) core=$2; shift 2 ;;
    --neighbour) neighbour=$2; shift 2 ;;
    --old) old=$2; shift 2 ;;
    --mushroom) mushroom=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h | --help) sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "shared-core: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $games =~ ^[0-9]+$ ]] && ((games > 0 && games % 2 == 0)) ||
  { echo "shared-core: --games takes an even number, not '$games'" >&2; exit 2; }
[[ $seed =~ ^[0-9]+$ ]] || { echo "shared-core: --seed takes a whole number, not '$seed'" >&2; exit 2; }
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || { echo "shared-core: --name takes letters, digits, '.', '_' and '-'" >&2; exit 2; }
case "$neighbour" in spin | yes) ;; *) echo "shared-core: --neighbour is spin or yes, not '$neighbour'" >&2; exit 2 ;; esac
for tool in taskset g++ python3 git; do
  command -v "$tool" >/dev/null || { echo "shared-core: $tool is missing" >&2; exit 2; }
done
[ -x "$mushroom" ] || { echo "shared-core: $mushroom is not built (cmake --build build --target mushroom)" >&2; exit 2; }
git cat-file -e "$old:models/submission.cpp" 2>/dev/null ||
  { echo "shared-core: $old has no models/submission.cpp" >&2; exit 2; }
if [ -z "$core" ]; then
  # The last core of this process's mask ("0-1" or "0,2-3" from taskset).
  mask=$(taskset -cp $$ | sed 's/.*: //')
  core=$(python3 -c "
import sys
cores = []
for part in sys.argv[1].split(','):
    lo, _, hi = part.partition('-')
    cores += range(int(lo), int(hi or lo) + 1)
print(cores[-1])" "$mask")
fi
[[ $core =~ ^[0-9]+$ ]] || { echo "shared-core: --core takes a core number, not '$core'" >&2; exit 2; }
work=${work:-build-test-tmp/shared-core-$name}
record=bench/matches/shared-core-$name
mkdir -p "$work"
work=$(cd "$work" && pwd)
mushroom=$(cd "$(dirname "$mushroom")" && pwd)/$(basename "$mushroom")
judge_line=(g++ -std=gnu++20 -O2 -DONLINE_JUDGE -DNYPC -Wall -Wextra -march=native -mtune=native -o main main.cpp)

# The programs: built once (a resumed match needs the same bytes: the
# arena's fingerprints.txt refuses others).
new_commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- models/submission.cpp models/data.bin || new_commit="$new_commit+changes"
old_commit=$(git rev-parse --short "$old")
if [ ! -x "$work/new/main" ] || [ ! -x "$work/old/main" ]; then
  rm -rf "$work/new" "$work/old"
  mkdir -p "$work/new" "$work/old"
  cp models/submission.cpp "$work/new/main.cpp"
  cp models/data.bin "$work/new/data.bin"
  git cat-file blob "$old:models/submission.cpp" >"$work/old/main.cpp"
  git cat-file blob "$old:models/data.bin" >"$work/old/data.bin"
  for side in new old; do
    echo "shared-core: building $side/ with the judge's line"
    (cd "$work/$side" && "${judge_line[@]}")
  done
fi

# The busy neighbour, on the same core, for the whole match.
if [ "$neighbour" = yes ]; then
  neighbour_command="yes >/dev/null"
  taskset -c "$core" yes >/dev/null &
else
  neighbour_command="bash -c 'while :; do :; done'"
  taskset -c "$core" bash -c 'while :; do :; done' &
fi
neighbour_pid=$!
trap 'kill "$neighbour_pid" 2>/dev/null || true' EXIT
sleep 1
kill -0 "$neighbour_pid" 2>/dev/null || { echo "shared-core: the neighbour did not start" >&2; exit 2; }
echo "shared-core: neighbour $neighbour (pid $neighbour_pid) on $(taskset -cp "$neighbour_pid" | sed 's/.*: /core /')"

started=$(date -u '+%Y-%m-%d %H:%M')
arena=(taskset -c "$core" "$mushroom" arena
  --a "cd $work/new && exec ./main NYPC" --a-name submission
  --b "cd $work/old && exec ./main NYPC" --b-name "sub-$old_commit"
  --boards $((games / 2)) --seed "$seed" --time-ms 10000 --clock cpu --parallel 1 --pin --log-dir "$work/RC")
echo "shared-core: ${arena[*]}"
status=0
"${arena[@]}" || status=$?
ended=$(date -u '+%Y-%m-%d %H:%M')
kill "$neighbour_pid" 2>/dev/null || true
wait "$neighbour_pid" 2>/dev/null || true
trap - EXIT
if ((status != 0)); then
  echo "shared-core: the arena stopped with exit $status; the same command resumes it from $work/RC" >&2
  exit "$status"
fi

mkdir -p "$record"
for f in games.csv arena.txt fingerprints.txt report.txt; do
  [ -f "$work/RC/$f" ] && cp "$work/RC/$f" "$record/"
done
# The forfeits, with their reasons.
forfeit_lines=$(python3 - "$record/games.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bad = [r for r in rows if r["forfeit_by"]]
print(f"{len(bad)} forfeits in {len(rows)} games")
for r in bad:
    print(f"- board {r['board']}: {r['first']} first, {r['second']} second; {r['forfeit_by']} forfeited: "
          f"{r['reason']} ({r['log']})")
EOF
)
forfeits=$(head -1 <<<"$forfeit_lines")
echo "shared-core: $forfeit_lines"
figures=$(python3 scripts/resolution.py "$record/games.csv" submission --sprt 0,15 --sprt-margin 0,0.1 2>&1 || true)
machine="$(uname -n), $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)), $(uname -sr)"
cat >"$record/README.md" <<EOF
# shared-core-$name: the submission against $old's on one core shared with a busy neighbour (issue 101, item 6)

The submission (\`models/submission.cpp\` and \`models/data.bin\` at $new_commit)
against the $old submission (\`git show $old:models/submission.cpp\`, and its
\`data.bin\`), both built with the judge's line, $games games on $((games / 2))
new random boards (seed $seed), sides swapped, at the judge's clock (the
10,000 ms CPU bank, \`--clock cpu\`). Every game ran on core $core, which
the arena, both programs and a busy neighbour (\`$neighbour\`, pinned there
with taskset for the whole match) shared: each program got about half a
core, and is charged only its own CPU time, as the judge charges it. Made
by \`scripts/shared_core_match.sh --name $name --games $games --seed $seed --core $core --neighbour $neighbour --old $old\`.

Machine: $machine.
Played $started to $ended UTC.

    mkdir -p new old && cp models/submission.cpp new/main.cpp && cp models/data.bin new/
    git cat-file blob $old:models/submission.cpp >old/main.cpp && git cat-file blob $old:models/data.bin >old/data.bin
    for d in new old; do (cd \$d && ${judge_line[*]}); done
    taskset -c $core $neighbour_command &    # the busy neighbour
    taskset -c $core build/mushroom arena --a "cd new && exec ./main NYPC" --a-name submission \\
        --b "cd old && exec ./main NYPC" --b-name sub-$old_commit --boards $((games / 2)) --seed $seed \\
        --time-ms 10000 --clock cpu --parallel 1 --pin --log-dir RC
    python3 scripts/resolution.py RC/games.csv submission --sprt 0,15 --sprt-margin 0,0.1

**$forfeits.**
$(tail -n +2 <<<"$forfeit_lines")

\`\`\`
$figures
\`\`\`
EOF
echo "shared-core: wrote $record (add its row to bench/matches/README.md)"
case "$forfeits" in
  "0 forfeits"*) exit 0 ;;
  *) exit 1 ;;
esac
