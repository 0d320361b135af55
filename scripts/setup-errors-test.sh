#!/usr/bin/env bash
# CTest SetupErrors: what a newcomer sees when something is missing.
#   1. scripts/lib/packages.sh lists only the packages dpkg lacks, and when
#      apt-get cannot install them, stops naming each one and the command.
#   2. The configure stops naming the Debian package of a missing library
#      (cmake/Dependencies.cmake), tried for each library in turn.
#   3. The timing scripts refuse a bad argument by name.
# Usage: setup-errors-test.sh
source "$(dirname "$0")/lib/script-test.sh"
repo=$(cd "$(dirname "$0")/.." && pwd)
expect() {  # expect NAME EXPECTED_TEXT COMMAND...: the command fails and prints the text
  local name=$1 text=$2; shift 2
  local out status=0
  out=$("$@" 2>&1) || status=$?
  ((status != 0)) || fail "$name: exited 0; output: $out"
  grep -qF -- "$text" <<< "$out" || fail "$name: output lacks '$text': $out"
  echo "ok: $name"
}

# 1. The package helper, with an apt-get that always fails.
source "$repo/scripts/lib/packages.sh"
out=$(missing_packages bash no-such-package-mushroom)
[[ $out == no-such-package-mushroom ]] || fail "missing_packages listed '$out', not only the missing package"
echo "ok: missing_packages lists only what dpkg lacks"
mkdir -p "$work/bin"
printf '#!/bin/sh\necho "E: unable to locate package" >&2\nexit 100\n' > "$work/bin/apt-get"
printf '#!/bin/sh\nexec "$@"\n' > "$work/bin/sudo"
chmod +x "$work/bin/apt-get" "$work/bin/sudo"
expect "a failed install names the package" \
  "could not install the Debian packages no-such-package-mushroom" \
  env PATH="$work/bin:$PATH" bash -c "source '$repo/scripts/lib/packages.sh'; install_packages setup bash no-such-package-mushroom"
expect "a failed install says how to install it by hand" \
  "apt-get install no-such-package-mushroom" \
  env PATH="$work/bin:$PATH" bash -c "source '$repo/scripts/lib/packages.sh'; install_packages setup no-such-package-mushroom"

# 2. The configure, with one library hidden at a time.
configure() { cmake -S "$repo" -B "$work/build-$1" -DCMAKE_BUILD_TYPE=Release "${@:2}"; }
expect "missing LibTorch names libtorch-dev" "install Debian's libtorch-dev" \
  configure torch -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON
expect "missing HDF5 names libhdf5-dev" "install Debian's libhdf5-dev" \
  configure hdf5 -DCMAKE_DISABLE_FIND_PACKAGE_HDF5=ON
expect "missing Eigen names libeigen3-dev" "install Debian's libeigen3-dev" \
  configure eigen -DCMAKE_DISABLE_FIND_PACKAGE_Eigen3=ON
expect "missing GoogleTest names libgtest-dev" "install Debian's libgtest-dev" \
  configure gtest -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON
for pair in CXXOPTS_INCLUDE_DIR:libcxxopts-dev NLOHMANN_JSON_INCLUDE_DIR:nlohmann-json3-dev \
            TOMLPLUSPLUS_INCLUDE_DIR:libtomlplusplus-dev FMT_INCLUDE_DIR:libfmt-dev; do
  var=${pair%%:*} package=${pair#*:}
  # A folder that holds nothing stands for the header being absent.
  mkdir -p "$work/empty"
  expect "missing $var names $package" "install Debian's $package" configure "$var" "-D$var=$work/empty"
done

# 3. The timing scripts' arguments.
expect "time-newcomer refuses a bad trial count" "--trials must be a positive whole number, not 'x'" \
  bash "$repo/scripts/time-newcomer.sh" --trials x
expect "time-newcomer refuses an unknown commit" "'no-such-rev' is not a commit" \
  bash "$repo/scripts/time-newcomer.sh" --commit no-such-rev
expect "time-newcomer refuses an unknown argument" "unknown argument '--fast'" \
  bash "$repo/scripts/time-newcomer.sh" --fast
expect "compile-times refuses a bad count" "positive whole number, not '0'" \
  bash "$repo/scripts/compile-times.sh" --top 0
mkdir -p "$work/exists"
expect "compile-times refuses a build folder that exists" "exists; give a new folder" \
  bash "$repo/scripts/compile-times.sh" --build "$work/exists"
echo "setup-errors: all passed"
