#!/usr/bin/env bash
# Launches a training run on a Slurm cluster: a job array of actors
# (self-play), one learner (training, best on a GPU node) and one gatekeeper
# (gating, evaluation, the promoted pointer), all sharing one run directory
# on a filesystem every node sees. The jobs are the stages of `mushroom run`
# as separate processes (run/roles.h); they meet only through the run
# directory, so any of them can be killed, requeued or started again.
#
#   deploy/slurm/launch.sh --dir /shared/runs/r1 --config configs/gpu.toml --actors 8 \
#       --learner-sbatch "--partition=gpu --gres=gpu:1" --actor-sbatch "--partition=gpu --gres=gpu:1"
#
# Each job asks for the CPUs its role uses (--cpus-per-task): an actor its
# self-play workers (selfplay.threads), the learner its training threads
# (train.threads), the gatekeeper its games at once (--parallel); set them
# with --actor-threads, --learner-threads and --gatekeeper-threads. A config
# that puts self-play or training on CUDA runs build-gpu/mushroom (docs/training.md,
# "The GPU box") unless --bin names another.
#
# Stop:   deploy/slurm/stop.sh /shared/runs/r1            (every role exits at its next look)
# Resume: the same launch command again (it clears the stop file; every
#         role resumes from the files the run directory holds).
set -euo pipefail

usage() {
  sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
  cat <<'TEXT'
Options:
  --dir DIR               run directory, on a filesystem all nodes share (required)
  --config FILE           run config (TOML) (required)
  --actors N              actors in the job array (required, 1..9999)
  --bin FILE              the mushroom binary, built with LibTorch (default: build-gpu/mushroom when the
                          config asks for CUDA, else build/mushroom)
  --set KEY=VALUE         override a config key for every role (mushroom run --set; repeatable)
  --actor-threads N       each actor's self-play workers and CPUs (default: the config's selfplay.threads)
  --learner-threads N     the learner's training threads and CPUs (default: the config's train.threads, 1 if 0)
  --gatekeeper-threads N  the gatekeeper's match threads and CPUs (default: 2)
  --generations N         stop after this many generations (default: the config's)
  --init MODEL            start from this model instead of from nothing
  --chunk-games N         games an actor plays between looks for a new model
  --actor-sbatch ARGS     extra sbatch arguments for the actors (e.g. "--partition=cpu --cpus-per-task=16")
  --learner-sbatch ARGS   ... for the learner (e.g. "--partition=gpu --gres=gpu:1")
  --gatekeeper-sbatch ARGS ... for the gatekeeper
  --dry-run               print the sbatch commands without submitting
  -h, --help              this help
TEXT
}

die() { echo "launch.sh: $*" >&2; exit 2; }

DIR="" CONFIG="" ACTORS="" BIN="" GENERATIONS="" INIT="" CHUNK="" SETS=()
ACTOR_THREADS="" LEARNER_THREADS="" GATEKEEPER_THREADS=2
ACTOR_SBATCH="" LEARNER_SBATCH="" GATEKEEPER_SBATCH="" DRY_RUN=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir) DIR="${2:?--dir needs a value}"; shift 2 ;;
    --config) CONFIG="${2:?--config needs a value}"; shift 2 ;;
    --actors) ACTORS="${2:?--actors needs a value}"; shift 2 ;;
    --bin) BIN="${2:?--bin needs a value}"; shift 2 ;;
    --generations) GENERATIONS="${2:?--generations needs a value}"; shift 2 ;;
    --init) INIT="${2:?--init needs a value}"; shift 2 ;;
    --chunk-games) CHUNK="${2:?--chunk-games needs a value}"; shift 2 ;;
    --set) SETS+=(--set "${2:?--set needs KEY=VALUE}"); shift 2 ;;
    --actor-threads) ACTOR_THREADS="${2:?--actor-threads needs a value}"; shift 2 ;;
    --learner-threads) LEARNER_THREADS="${2:?--learner-threads needs a value}"; shift 2 ;;
    --gatekeeper-threads) GATEKEEPER_THREADS="${2:?--gatekeeper-threads needs a value}"; shift 2 ;;
    --actor-sbatch) ACTOR_SBATCH="${2?}"; shift 2 ;;
    --learner-sbatch) LEARNER_SBATCH="${2?}"; shift 2 ;;
    --gatekeeper-sbatch) GATEKEEPER_SBATCH="${2?}"; shift 2 ;;
    --dry-run) DRY_RUN=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
[[ -n "$DIR" ]] || die "--dir is required"
[[ -n "$CONFIG" ]] || die "--config is required"
[[ "$ACTORS" =~ ^[0-9]+$ && "$ACTORS" -ge 1 && "$ACTORS" -le 9999 ]] || die "--actors must be a whole number in 1..9999, not '$ACTORS'"
[[ -f "$CONFIG" ]] || die "no config file '$CONFIG'"
for t in "$ACTOR_THREADS" "$LEARNER_THREADS" "$GATEKEEPER_THREADS"; do
  [[ -z "$t" || ( "$t" =~ ^[0-9]+$ && "$t" -ge 1 && "$t" -le 1024 ) ]] || die "threads must be a whole number in 1..1024, not '$t'"
done
[[ -z "$INIT" || -f "$INIT" ]] || die "no model file '$INIT'"
[[ $DRY_RUN == 1 ]] || command -v sbatch > /dev/null || die "sbatch is not on PATH (is this a Slurm login node?)"

# Any built mushroom reads the config; the one that runs it depends on it.
READER=""
for b in "$BIN" build/mushroom build-gpu/mushroom; do
  if [[ -n "$b" && -x "$b" ]]; then READER="$b"; break; fi
done
[[ -n "$READER" ]] || die "no mushroom binary at ${BIN:-build/mushroom or build-gpu/mushroom} (build it, or pass --bin)"
checked="$("$READER" config --check "$CONFIG" "${SETS[@]}")" || { echo "$checked" >&2; die "the config does not load (above)"; }
get() { "$READER" config --get "$1" "$CONFIG" "${SETS[@]}" | tr -d '"'; }
SELFPLAY_DEVICE="$(get selfplay.device)" TRAIN_DEVICE="$(get train.device)"
if [[ -z "$BIN" ]]; then
  BIN=build/mushroom
  [[ "$SELFPLAY_DEVICE$TRAIN_DEVICE" != *cuda* ]] || BIN=build-gpu/mushroom
fi
[[ -x "$BIN" ]] || die "no mushroom binary at '$BIN' (the config puts self-play on '$SELFPLAY_DEVICE' and training on '$TRAIN_DEVICE'; build it, docs/training.md \"The GPU box\", or pass --bin)"
[[ -n "$ACTOR_THREADS" ]] || ACTOR_THREADS="$(get selfplay.threads)"
if [[ -z "$LEARNER_THREADS" ]]; then
  LEARNER_THREADS="$(get train.threads)"
  [[ "$LEARNER_THREADS" != 0 ]] || LEARNER_THREADS=1
fi

HERE="$(cd "$(dirname "$0")" && pwd)"
if (( DRY_RUN )); then
  DIR="$(realpath -m "$DIR")"  # a dry run creates and removes nothing
else
  mkdir -p "$DIR/slurm"
  DIR="$(cd "$DIR" && pwd)"
fi
CONFIG="$(cd "$(dirname "$CONFIG")" && pwd)/$(basename "$CONFIG")"
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
[[ -z "$INIT" ]] || INIT="$(cd "$(dirname "$INIT")" && pwd)/$(basename "$INIT")"
(( DRY_RUN )) || rm -f "$DIR/stop"

ARGS=("${SETS[@]}")
[[ -z "$GENERATIONS" ]] || ARGS+=(--generations "$GENERATIONS")
[[ -z "$INIT" ]] || ARGS+=(--init "$INIT")
ACTOR_ARGS=("${ARGS[@]}" --set "selfplay.threads=$ACTOR_THREADS")
[[ -z "$CHUNK" ]] || ACTOR_ARGS+=(--chunk-games "$CHUNK")
LEARNER_ARGS=("${ARGS[@]}" --set "train.threads=$LEARNER_THREADS")
GATEKEEPER_ARGS=("${ARGS[@]}" --parallel "$GATEKEEPER_THREADS")
NAME="mushroom-$(basename "$DIR")"
export MUSHROOM_BIN="$BIN" MUSHROOM_CONFIG="$CONFIG" MUSHROOM_DIR="$DIR"

submit() {  # role, its CPUs, extra sbatch args (one string), role args...
  local role="$1" cpus="$2" extra="$3"; shift 3
  local -a cmd=(sbatch --parsable --job-name="$NAME-$role" --chdir="$(pwd)" --export=ALL --cpus-per-task="$cpus")
  # shellcheck disable=SC2206  # the extra arguments are split on purpose
  [[ -z "$extra" ]] || cmd+=($extra)
  if [[ $role == actor ]]; then
    cmd+=(--array="0-$((ACTORS - 1))" --output="$DIR/slurm/actor-%a.log")
  else
    cmd+=(--output="$DIR/slurm/$role.log")
  fi
  cmd+=("$HERE/$role.sbatch" "$@")
  if [[ $DRY_RUN == 1 ]]; then echo "${cmd[*]}"; return; fi
  local id
  id="$("${cmd[@]}")"
  echo "$role $id" >> "$DIR/slurm/jobs.txt"
  echo "submitted $role: job $id"
}

if [[ $DRY_RUN == 1 ]]; then echo "# MUSHROOM_BIN=$BIN MUSHROOM_CONFIG=$CONFIG MUSHROOM_DIR=$DIR"; else : > "$DIR/slurm/jobs.txt"; fi
submit actor "$ACTOR_THREADS" "$ACTOR_SBATCH" "${ACTOR_ARGS[@]}"
submit learner "$LEARNER_THREADS" "$LEARNER_SBATCH" "${LEARNER_ARGS[@]}"
submit gatekeeper "$GATEKEEPER_THREADS" "$GATEKEEPER_SBATCH" "${GATEKEEPER_ARGS[@]}"
[[ $DRY_RUN == 1 ]] || echo "logs: $DIR/slurm/; progress: $DIR/dashboard.html; stop: $HERE/stop.sh $DIR"
