#!/usr/bin/env bash
# CTest FirstSeatReview: scripts/first_seat_review.py on a small match of
# greedy against random, where on every board greedy wins moving first and
# random does not: each board is one failed first seat (random's) and one
# that won (greedy's). The table counts exactly the first seat's moves of
# those games, a second run searches nothing again, and bad input is named.
# Usage: first-seat-review-test.sh MUSHROOM
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:?usage: first-seat-review-test.sh MUSHROOM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$B" arena --a builtin:greedy --a-name greedy --b builtin:random --b-name random --boards 2 --seed 5 \
    --time-ms 2000 --log-dir "$work/match" > /dev/null
out=$(MUSHROOM=$B python3 scripts/first_seat_review.py "$work/match" --ms 20 2> "$work/err")
echo "$out"
# The boards where greedy won moving first and random did not, counted from games.csv here.
boards=$(awk -F, 'NR > 1 && $1 == "random" && $5 <= $6' "$work/match/games.csv" | wc -l)
[[ $boards -eq 2 ]] || fail "random won or drew moving first on $((2 - boards)) of 2 boards; pick another seed"
grep -q "^2 boards on which one first seat won and the other did not" <<< "$out" || fail "not 2 boards"
[[ $(ls "$work/match/review" | wc -l) -eq 4 ]] || fail "not 4 analyze reports: $(ls "$work/match/review")"
# The failed games are random's as first; the table's moves are theirs, and the won games' are greedy's.
for who in random greedy; do
  logs=$(awk -F, -v w=$who 'NR > 1 && $1 == w {print $10}' "$work/match/games.csv")
  want=$(for l in $logs; do grep -c '^FIRST ' "$work/match/$l"; done | paste -sd+ | bc)
  col=$([[ $who == random ]] && echo 3 || echo 8)
  got=$(grep -E '^\| [0-9]' <<< "$out" | awk -F'|' -v c=$col '{s += $c} END {print s}')
  [[ $got -eq $want ]] || fail "$who: the table counts $got first-seat moves, the logs hold $want"
done
grep -q '^| all | | [0-9.]* |' <<< "$out" || fail "no total line"
again=$(MUSHROOM=$B python3 scripts/first_seat_review.py "$work/match" --ms 20 2>&1)
grep -q '^analyzed' <<< "$again" && fail "a second run searched again"
[[ $(grep -v '^analyzed' <<< "$again") == "$out" ]] || fail "a second run printed another table"
set +e
msg=$(python3 scripts/first_seat_review.py "$work/none" 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"no games file $work/none/games.csv"* ]] || fail "a missing match gave rc $rc: $msg"
msg=$(python3 scripts/first_seat_review.py "$work/match" --ms 0 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"--ms 0"* ]] || fail "--ms 0 gave rc $rc: $msg"
rm -rf "$work/match/review"
first_log=$(awk -F, 'NR == 2 {print $10}' "$work/match/games.csv")
mv "$work/match/$first_log" "$work/moved.log"
msg=$(python3 scripts/first_seat_review.py "$work/match" --ms 20 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"$first_log: the games file names it, but it is missing"* ]] || fail "a missing log gave rc $rc: $msg"
echo "ok"
