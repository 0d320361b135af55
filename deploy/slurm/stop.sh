#!/usr/bin/env bash
# Stops a Slurm run started by deploy/slurm/launch.sh: writes RUN/stop, which
# every role reads before its next chunk or look (the learner and gatekeeper
# finish the stage they are in; nothing is lost). With --cancel, also cancels
# the run's jobs at once (still safe: every file is written atomically).
#   deploy/slurm/stop.sh RUN [--cancel]
set -euo pipefail
DIR="${1:?usage: stop.sh RUN [--cancel]}"
[[ -d "$DIR" ]] || { echo "stop.sh: no run directory '$DIR'" >&2; exit 2; }
touch "$DIR/stop"
echo "wrote $DIR/stop"
if [[ "${2:-}" == --cancel && -f "$DIR/slurm/jobs.txt" ]]; then
  while read -r role id; do scancel "$id" && echo "cancelled $role (job $id)"; done < "$DIR/slurm/jobs.txt"
fi
