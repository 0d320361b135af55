#!/usr/bin/env bash
# Issue 102's "Done when", in a fresh Debian 12 root with nothing but apt:
# `apt install ./mushroom_*.deb`, then, from /tmp, `mushroom --version`, a
# game of the default bot against greedy, `export-bot` built with the judge's
# line and answering OK, `man mushroom` (man-db is not in a minimal root:
# installed first) and the bash completion. Prints each step with its
# wall-clock seconds (docs/history/issue-102-install.md records a run).
#
# Usage: debian-root-check.sh ROOT DEB   (as root)
#   ROOT  made with: debootstrap --variant=minbase bookworm ROOT
#   DEB   build/mushroom_<version>_amd64.deb (cd build && cpack -G DEB)
set -euo pipefail
root=$(realpath "${1:?usage: debian-root-check.sh ROOT DEB}")
deb=$(realpath "${2:?usage: debian-root-check.sh ROOT DEB}")
[[ -x $root/bin/bash && -f $root/etc/debian_version ]] ||
  { echo "debian-root-check: $root is not a Debian root (debootstrap --variant=minbase bookworm $root)" >&2; exit 2; }
[[ -f $deb ]] || { echo "debian-root-check: no package $deb" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "debian-root-check: needs root (chroot)" >&2; exit 2; }

# The root sees this machine's /proc, /sys and /dev, and its name servers.
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
for fs in sys dev; do
  mountpoint -q "$root/$fs" || { mount --rbind "/$fs" "$root/$fs"; mount --make-rslave "$root/$fs"; }
done
trap 'umount -R "$root/dev" "$root/sys" 2>/dev/null; umount "$root/proc" 2>/dev/null || true' EXIT
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
package=/tmp/$(basename "$deb")

# step NAME COMMAND: runs COMMAND in the root from /tmp, with a clean environment.
step() {
  local start=$SECONDS
  echo "== $1"
  echo "\$ $2"
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    TERM=dumb bash -c "cd /tmp && $2"
  echo "-- $1: $((SECONDS - start)) s"
}

step "the package" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $package > /tmp/apt.log && dpkg -s mushroom | grep -E '^(Version|Depends|Recommends):'"
step "where the defaults come from" "mushroom --version"
step "the default bot against greedy" "mushroom play --first alphabeta:eval=models/eval.bin,probcut=models/eval.probcut --second greedy --seed 7 | tail -n 1"
step "export-bot" "rm -rf sub && mkdir sub && mushroom export-bot --out sub/main.cpp"
step "the judge's build" "cd sub && g++ -std=gnu++20 -O2 -DONLINE_JUDGE -DNYPC -Wall -Wextra -march=native -mtune=native -o main main.cpp"
step "./main NYPC" "cd sub && printf 'READY FIRST\\nFINISH\\n' | ./main NYPC"
step "man mushroom" "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq man-db > /dev/null && MANWIDTH=80 man mushroom 2>/dev/null | head -n 12"
step "the completion" "source /usr/share/bash-completion/bash_completion && __load_completion mushroom && complete -p mushroom && COMP_WORDS=(mushroom exp) COMP_CWORD=1 && _mushroom && echo \"mushroom exp<TAB>: \${COMPREPLY[*]}\" && COMP_WORDS=(mushroom export-bot --pr) COMP_CWORD=2 && _mushroom && echo \"mushroom export-bot --pr<TAB>: \${COMPREPLY[*]}\""
