#!/usr/bin/env bash
# CTest ScreenEvalSwitches: scripts/screen-eval-switches.sh on a few games of
# data at test size: it trains the baseline and the variants asked for,
# plays each against the baseline, prints one line each, redoes nothing when
# run again, and names bad arguments. Usage: screen-eval-switches-test.sh MUSHROOM
source "$(dirname "$0")/lib/script-test.sh"
cd "$(dirname "$0")/.."
B=${1:?usage: screen-eval-switches-test.sh MUSHROOM}
"$B" bench labels --config testdata/configs/eval-ci.toml --games 6 --dir "$work/data" > /dev/null
export MUSHROOM=$B
out=$(scripts/screen-eval-switches.sh --data "$work/data" --out "$work/screen" --config testdata/configs/eval-ci.toml \
      --steps 10 --boards 1 --depth 2 --only margin,buckets,focus --train-seed 7 --heldout "$work/data")
echo "$out"
for name in base margin buckets focus; do [[ -f $work/screen/$name/eval.bin ]] || fail "no $name/eval.bin"; done
grep -q '^margin .*/2 = .*Elo (margin - base)' <<< "$out" || fail "no result line for margin"
grep -q '^buckets .*/2 = .*paired margin' <<< "$out" || fail "no result line for buckets"
grep -q 'phase_buckets\|4 phase x 2 seat' "$work/screen/buckets.log" || fail "buckets trained without buckets"
grep -q 'drawn 2\.00 times as often ([1-9]' "$work/screen/focus.log" || fail "focus trained without the focus weight"
grep -q 'times as often' "$work/screen/base.log" && fail "base trained with a focus weight"
grep -q '^focus .*/2 = .*held-out search-score loss 0\.[0-9]* (base 0\.[0-9]*)' <<< "$out" || fail "no result line for focus"
[[ -f $work/screen/focus/heldout.json ]] || fail "no focus/heldout.json"
again=$(scripts/screen-eval-switches.sh --data "$work/data" --out "$work/screen" --config testdata/configs/eval-ci.toml \
        --steps 10 --boards 1 --depth 2 --only margin,buckets,focus --train-seed 7)
grep -q '^trained' <<< "$again" && fail "a second call trained again"
grep -q '^margin ' <<< "$again" || fail "a second call did not report margin"
set +e
msg=$(scripts/screen-eval-switches.sh --data "$work/data" --out "$work/screen" --only nope 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"no variant 'nope'"* ]] || fail "an unknown variant gave rc $rc: $msg"
msg=$(scripts/screen-eval-switches.sh --out "$work/screen" 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"--data and --out are required"* ]] || fail "a missing --data gave rc $rc: $msg"
msg=$(scripts/screen-eval-switches.sh --data "$work/data" --out "$work/screen" --bogus 2>&1); rc=$?
[[ $rc -eq 2 && $msg == *"unknown argument '--bogus'"* ]] || fail "an unknown argument gave rc $rc: $msg"
echo "ok"
