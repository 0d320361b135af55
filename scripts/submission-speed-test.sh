#!/usr/bin/env bash
# CTest SubmissionSpeed: scripts/submission-speed.sh on the committed
# submission at test size. It builds the bot with the judge's command line,
# searches the same positions to a fixed depth twice, and reports the same
# node count each time (the tree does not depend on the clock); bad
# arguments and a folder without data.bin are named.
source "$(dirname "$0")/lib/script-test.sh"
cd "$(dirname "$0")/.."
mkdir "$work/sub"
cp models/submission.cpp "$work/sub/main.cpp"
cp models/data.bin "$work/sub/"
out=$(scripts/submission-speed.sh "$work/sub" --depth 3 --positions 3 --rounds 2 --core 0)
echo "$out"
[[ $(grep -c 'positions=3 depth=3 nodes=[1-9][0-9]* .*nodes_per_second=[0-9]' <<< "$out") -eq 2 ]] || fail "not two result lines"
[[ $(grep -o 'nodes=[0-9]*' <<< "$out" | sort -u | wc -l) -eq 1 ]] || fail "the two rounds searched different trees"
set +e
msg=$(scripts/submission-speed.sh "$work" 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"main.cpp is missing"* ]] || fail "a folder without main.cpp gave rc $rc: $msg"
msg=$(scripts/submission-speed.sh "$work/sub" --bogus 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"unknown option --bogus"* ]] || fail "an unknown option gave rc $rc: $msg"
msg=$(scripts/submission-speed.sh 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"name at least one folder"* ]] || fail "no folder gave rc $rc: $msg"
echo "PASS"
