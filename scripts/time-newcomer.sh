#!/usr/bin/env bash
# Times the README's two commands as a newcomer runs them. Each trial clones
# the repository afresh, then times
#     bash scripts/setup.sh && bash scripts/demo.sh     (the first command)
#     bash scripts/test.sh                               (the second)
# and prints a Markdown table of the wall-clock times with the machine's CPU.
# Each trial's output is kept in the work folder (setup-demo.log, test.log).
#
# Usage: time-newcomer.sh [--commit REV] [--trials N] [--first-only]
#                         [--work DIR] [--root DIR]
#   --commit REV   what to clone (default: HEAD of this checkout)
#   --trials N     how many fresh clones to time (default 3)
#   --first-only   time only the first command
#   --work DIR     where the clones go (default: a new folder under /tmp)
#   --root DIR     run inside DIR, a Debian 12 root with nothing installed
#                  (made with: debootstrap --variant=minbase --include=git,ca-certificates bookworm DIR);
#                  needs root. setup.sh installs into that root, so only the
#                  first trial in a fresh root times the install.
# The packages this machine has installed are used as they are: to time a
# machine with nothing installed, use --root.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=HEAD trials=3 first_only=0 work="" root=""
while (($#)); do
  case $1 in
    --commit) commit=${2:?--commit needs a revision}; shift 2 ;;
    --trials) trials=${2:?--trials needs a number}; shift 2 ;;
    --first-only) first_only=1; shift ;;
    --work) work=${2:?--work needs a folder}; shift 2 ;;
    --root) root=$(realpath "${2:?--root needs a folder}"); shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "time-newcomer: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $trials =~ ^[1-9][0-9]*$ ]] || { echo "time-newcomer: --trials must be a positive whole number, not '$trials'" >&2; exit 2; }
rev=$(git -C "$repo" rev-parse --verify "$commit^{commit}" 2>/dev/null) ||
  { echo "time-newcomer: '$commit' is not a commit of $repo" >&2; exit 2; }
if [[ -n $root ]]; then
  [[ -x $root/bin/bash && -f $root/etc/debian_version ]] ||
    { echo "time-newcomer: $root is not a Debian root (make one with debootstrap; see --help)" >&2; exit 2; }
  [[ $(id -u) == 0 ]] || { echo "time-newcomer: --root needs root (chroot)" >&2; exit 2; }
fi
[[ -n $work ]] || work=$(mktemp -d /tmp/time-newcomer.XXXXXX)
mkdir -p "$work"

# Runs a command in the clone, on this machine or inside the root.
in_clone() {
  local clone=$1; shift
  if [[ -n $root ]]; then
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
      bash -c "cd /newcomer/$(basename "$clone") && $*"
  else
    (cd "$clone" && env -u MAKEFLAGS bash -c "$*")
  fi
}

# time_in_clone CLONE LOG COMMAND: runs the command in the clone, its output
# into LOG; sets `status` (ok or FAILED) and `seconds` (wall clock).
time_in_clone() {
  local start
  start=$(date +%s%N)
  if in_clone "$1" "$3" > "$2" 2>&1; then status=ok; else status=FAILED; fi
  seconds=$(( ($(date +%s%N) - start) / 1000000000 ))
}

# "M min SS s", or "-" for a command that did not run.
minutes() { [[ -z $1 ]] && { echo "-"; return; }; printf "%d min %02d s" $(($1 / 60)) $(($1 % 60)); }

if [[ -n $root ]]; then
  # The root sees this machine's /proc, /sys, /dev (with /dev/shm) and name
  # servers; its mounts are slaves, so that unmounting them leaves ours.
  mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
  for fs in sys dev; do
    if ! mountpoint -q "$root/$fs"; then
      mount --rbind "/$fs" "$root/$fs"
      mount --make-rslave "$root/$fs"
    fi
  done
  cp -L /etc/resolv.conf "$root/etc/resolv.conf"
  trap 'umount -R "$root/dev" "$root/sys" 2>/dev/null; umount "$root/proc" 2>/dev/null || true' EXIT
  mkdir -p "$root/newcomer"
fi

cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
echo "time-newcomer: $rev, $trials trial(s), $(nproc) cores ($cpu), work in $work"
rows=()
for ((t = 1; t <= trials; t++)); do
  name=clone-$t
  if [[ -n $root ]]; then clone=$root/newcomer/$name; else clone=$work/$name; fi
  rm -rf "$clone"
  git clone -q "$repo" "$clone"
  git -C "$clone" checkout -q "$rev"
  echo "trial $t: bash scripts/setup.sh && bash scripts/demo.sh"
  time_in_clone "$clone" "$work/trial-$t-setup-demo.log" "bash scripts/setup.sh && bash scripts/demo.sh"
  first=$status first_s=$seconds
  second="" second_s=""
  if ((!first_only)) && [[ $first == ok ]]; then
    echo "trial $t: bash scripts/test.sh"
    time_in_clone "$clone" "$work/trial-$t-test.log" "bash scripts/test.sh"
    second=$status second_s=$seconds
  fi
  row="| $t | $(minutes "$first_s") ($first) | $(minutes "$second_s")${second:+ ($second)} |"
  echo "$row"
  rows+=("$row")
done
echo
echo "Commit $rev; $(nproc) cores, $cpu; $( [[ -n $root ]] && echo "inside $root (nothing installed)" || echo "packages as installed on $(hostname)")."
echo
echo "| trial | setup.sh && demo.sh | test.sh |"
echo "|---|---|---|"
printf '%s\n' "${rows[@]}"
