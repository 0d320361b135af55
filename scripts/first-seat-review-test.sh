#!/usr/bin/env bash
# CTest FirstSeatReview: scripts/first_seat_review.py on a small match of
# greedy against random, where on every board greedy wins moving first and
# random does not: each board is one failed first seat (random's) and one
# that won (greedy's). The table counts exactly the first seat's moves of
# those games, by band of mushrooms left, with the cells lost and the
# positions proved that analyze's reports give; a second run searches
# nothing again, and bad input (a missing match, --ms 0, a failing analyze,
# a missing log) is named.
# Usage: first-seat-review-test.sh MUSHROOM
source "$(dirname "$0")/lib/script-test.sh"
cd "$(dirname "$0")/.."
B=${1:?usage: first-seat-review-test.sh MUSHROOM}
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
  want=$(cd "$work/match" && awk '$1 == "FIRST" && NF == 6 {n++} END {print n + 0}' $logs)
  col=$([[ $who == random ]] && echo 3 || echo 8)
  got=$(grep -E '^\| [0-9]' <<< "$out" | awk -F'|' -v c=$col '{s += $c} END {print s}')
  [[ $got -eq $want ]] || fail "$who: the table counts $got first-seat moves, the logs hold $want"
  # The same moves by band of mushrooms left before them (the logs replayed here, boards of 170).
  want_bands=$(cd "$work/match" && awk 'FNR == 1 {delete taken; n = 0}
      NF == 6 && ($1 == "FIRST" || $1 == "SECOND") {
        l = 170 - n
        if ($1 == "FIRST") c[l >= 160 ? 0 : l >= 90 ? int((159 - l) / 10) + 1 : 8]++
        if ($2 >= 0) for (r = $2; r <= $4; r++) for (k = $3; k <= $5; k++) if (!((r, k) in taken)) { taken[r, k] = 1; n++ }
      }
      END { for (b = 0; b < 9; b++) printf "%d ", c[b] + 0 }' $logs)
  got_bands=$(grep -E '^\| [0-9]' <<< "$out" | awk -F'|' -v c=$col '{printf "%d ", $c}')
  [[ $got_bands == "$want_bands" ]] || fail "$who: first-seat moves by band $got_bands, the logs give $want_bands"
  # The cells lost and the proved positions: the first seat's rows of analyze's reports added up.
  read -r want_loss want_proved < <(cd "$work/match/review" && awk '$1 ~ /^[0-9]+$/ && $2 == "FIRST" {s += $7; p += $10 == "yes"}
      END {printf "%.2f %d\n", s, p}' $(for l in $logs; do echo "$l.20ms.txt"; done))
  got_loss=$(grep -E '^\| [0-9]' <<< "$out" | awk -F'|' -v c=$((col + 1)) '{s += $c} END {printf "%.2f", s}')
  got_proved=$(grep -E '^\| [0-9]' <<< "$out" | awk -F'|' -v c=$((col + 4)) '{s += $c} END {print s}')
  [[ $got_loss == "$want_loss" ]] || fail "$who: the table's cells lost $got_loss, the reports' $want_loss"
  [[ $got_proved -eq $want_proved ]] || fail "$who: the table's proved $got_proved, the reports' $want_proved"
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
msg=$(python3 scripts/first_seat_review.py "$work/match" --ms 20 --mushroom /bin/false 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"/bin/false analyze"*"failed (1)"* ]] || fail "a failing analyze gave rc $rc: $msg"
[[ -z $(ls "$work/match/review") ]] || fail "a failing analyze left reports: $(ls "$work/match/review")"
first_log=$(awk -F, 'NR == 2 {print $10}' "$work/match/games.csv")
mv "$work/match/$first_log" "$work/moved.log"
msg=$(python3 scripts/first_seat_review.py "$work/match" --ms 20 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"$first_log: the games file names it, but it is missing"* ]] || fail "a missing log gave rc $rc: $msg"
echo "ok"
