# Sourced by local-cluster-test.sh and bench-local.sh: a one-node Slurm
# cluster on this machine (two CPUs, four jobs may share them), in a temp
# folder, with munge on its own socket and key. Needs root, slurm-wlm and
# munge. The caller defines skip() (the machine cannot run a cluster: say why
# and exit) and fail().
#   local_cluster_up       starts it; sets T (the folder) and exports SLURM_CONF
#   local_cluster_down     cancels every job and stops the daemons
#   local_cluster_logs     prints the daemons' and the run's last log lines

local_cluster_logs() {
  for f in "$T"/*.log "$T"/run*/slurm/*.log; do
    [[ -f "$f" ]] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
  done
}

local_cluster_down() {
  scancel --user=root > /dev/null 2>&1
  for daemon in slurmd slurmctld munged; do
    [[ -f "$T/$daemon.pid" ]] && kill "$(cat "$T/$daemon.pid")" 2> /dev/null
  done
  # Wait for them to go, so the next cluster finds the ports free.
  for _ in $(seq 1 20); do
    pgrep -f "$T/" > /dev/null || break
    sleep 0.5
  done
  pkill -9 -f "$T/" 2> /dev/null
  return 0
}

local_cluster_up() {
  [[ $(id -u) == 0 ]] || skip "slurmd must run as root to start jobs as the submitting user; not root"
  T="$(mktemp -d /tmp/mushroom-slurm.XXXXXX)"
  local host port
  host="$(hostname -s)"
  port=$((17000 + RANDOM % 2000))
  mkdir -p "$T/state" "$T/spool" "$T/munge"
  export SLURM_CONF="$T/slurm.conf"
  dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$T/munge/munge.key"
  munged --key-file="$T/munge/munge.key" --socket="$T/munge/socket" --pid-file="$T/munged.pid" \
    --log-file="$T/munged.log" --seed-file="$T/munge/seed" --force > "$T/munged.start.log" 2>&1 ||
    skip "munged does not start here: $(tail -n 2 "$T/munged.start.log" "$T/munged.log" 2> /dev/null | tr '\n' ' ')"
  cat > "$SLURM_CONF" <<CONF
# One node with two CPUs (deploy/slurm/local-cluster.sh).
ClusterName=mushroomtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
# Four jobs share the two CPUs: actors never finish before the run does.
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
  slurmctld -f "$SLURM_CONF" > "$T/slurmctld.start.log" 2>&1 ||
    skip "slurmctld does not start here: $(tail -n 3 "$T/slurmctld.log" 2> /dev/null | tr '\n' ' ')"
  slurmd -f "$SLURM_CONF" > "$T/slurmd.start.log" 2>&1 ||
    skip "slurmd does not start here: $(tail -n 3 "$T/slurmd.log" 2> /dev/null | tr '\n' ' ')"
  for _ in $(seq 1 60); do
    sinfo -h -o "%t" 2> /dev/null | grep -qE "idle|mix|alloc" && break
    sleep 1
  done
  sinfo -h -o "%t" 2> /dev/null | grep -qE "idle|mix|alloc" ||
    skip "the node never came up: $(sinfo 2>&1 | tail -n 2 | tr '\n' ' ') $(tail -n 3 "$T/slurmd.log" 2> /dev/null | tr '\n' ' ')"
  echo "cluster up: $(sinfo -h -o '%P %D nodes, %c CPUs, %t')"
}
