#!/usr/bin/env bash
# CTest InstallStaging: `cmake --install` into a staging prefix, then, from an
# empty folder, what an installed mushroom must do with nothing but its prefix:
# `mushroom --version` names the prefix's share/mushroom as where the defaults
# come from; one game of the default bot (the shipped evaluation and its fit)
# against greedy; `export-bot` with the shipped evaluation, compiled with the
# judge's line and started as `./main NYPC`, answers OK; `--config NAME` finds
# a shipped config; and a missing default names every place looked and
# $MUSHROOM_DATA. Each step's seconds are printed.
# Usage: install-staging-test.sh BUILD_DIR
source "$(dirname "$0")/lib/script-test.sh"
build=$(realpath "${1:?usage: install-staging-test.sh BUILD_DIR}")
prefix=$(realpath -m "$work/prefix")  # as /proc/self/exe names it
step() { echo "== $* ($SECONDS s)"; }

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || { cat "$work/install.log"; fail "the install failed"; }
for f in bin/mushroom bin/mushroom-bot share/mushroom/models/eval.bin share/mushroom/models/eval.probcut \
         share/mushroom/models/default.h5 share/mushroom/models/submission.cpp share/mushroom/models/data.bin \
         share/mushroom/configs/eval-cpu.toml share/doc/mushroom/README.md share/doc/mushroom/copyright \
         share/man/man1/mushroom.1.gz share/bash-completion/completions/mushroom; do
  [ -e "$prefix/$f" ] || fail "the install has no $f"
done
mushroom=$prefix/bin/mushroom
mkdir "$work/empty"
cd "$work/empty"
unset MUSHROOM_DATA MUSHROOM_EVAL MUSHROOM_PROBCUT MUSHROOM_MODEL

step "mushroom --version"
version=$("$mushroom" --version)
echo "$version"
[[ $version == *"defaults: $prefix/share/mushroom/models/eval.bin (this executable's prefix)"* ]] ||
  fail "--version does not name $prefix/share/mushroom as where the defaults come from"

step "mushroom play: the default bot against greedy"
game=$("$mushroom" play --first alphabeta:eval=models/eval.bin,probcut=models/eval.probcut --second greedy --seed 7)
tail -n 2 <<< "$game"
grep -q "^result: " <<< "$game" || fail "the game did not finish"
grep -q "^result: first (alphabeta) wins" <<< "$game" || fail "the default bot did not beat greedy"

step "mushroom export-bot with the shipped evaluation"
mkdir sub
"$mushroom" export-bot --out sub/main.cpp | tee "$work/export.log"
grep -q "exporting the shipped evaluation $prefix/share/mushroom/models/eval.bin with its fit" "$work/export.log" ||
  fail "export-bot did not export the shipped evaluation with its fit"

step "the judge's build of the exported bot"
(cd sub && g++ -std=gnu++20 -O2 -DONLINE_JUDGE -DNYPC -Wall -Wextra -march=native -mtune=native -o main main.cpp) ||
  fail "the exported bot does not compile with the judge's line"
step "./main NYPC"
answer=$(cd sub && printf 'READY FIRST\nFINISH\n' | ./main NYPC)
[[ $answer == OK ]] || fail "the exported bot answered '$answer', not OK"

step "--config NAME and a missing default"
set +e
if [[ $version != *"without LibTorch"* ]]; then  # `run` is a LibTorch command
  # The config is loaded before --generations is checked: this error says it was found.
  msg=$("$mushroom" run --config eval-cpu --dir runs/x --generations -1 2>&1)
  [[ $msg == *"--generations must be positive"* ]] || fail "--config eval-cpu was not found in the prefix: $msg"
  msg=$("$mushroom" run --config no-such-config --dir runs/x 2>&1)
  [[ $msg == *"nor a shipped config of that name: looked for configs/no-such-config.toml in the working folder, \$MUSHROOM_DATA (not set), $prefix/share/mushroom/configs/no-such-config.toml (this executable's prefix)"* ]] ||
    fail "a missing config is not named with every place looked: $msg"
fi
mkdir "$work/data"
mv "$prefix/share/mushroom/models/eval.bin" "$work/eval.bin"
msg=$(MUSHROOM_DATA=$work/data "$mushroom" bot < /dev/null 2>&1); rc=$?
mv "$work/eval.bin" "$prefix/share/mushroom/models/eval.bin"
[[ $rc -ne 0 && $msg == *"no models/eval.bin: looked for \$MUSHROOM_EVAL (not set), models/eval.bin in the working folder, $work/data/models/eval.bin (\$MUSHROOM_DATA), $prefix/share/mushroom/models/eval.bin (this executable's prefix); set MUSHROOM_DATA"* ]] ||
  fail "a missing default does not name every place looked (rc $rc): $msg"
echo "PASS ($SECONDS s)"
