#!/bin/bash
# Runs a sharded acme-sim sweep as a Slurm job array through a real one-node Slurm on localhost and
# checks that the merged shards give byte-identical results to a local run of the same study.
#
# usage: run_slurm_sweep.sh ACME_SIM STUDY.yaml
#
# Installs Debian's slurm-wlm and munge when missing (needs root, as in CI), starts munged, slurmctld
# and slurmd in a private temp dir on non-default ports (recipe: shared notes "Running a one-node Slurm
# on localhost"), submits the array written by `acme-sim sweep --emit-slurm` (4 shards), polls squeue,
# merges, compares, and stops the daemons it started (trap). If slurmd cannot run here the test FAILS
# with the reason: it never skips.
set -euo pipefail

SHARDS=4
CTLD_PORT=16817            # non-default ports, so the test never talks to another Slurm
SLURMD_PORT=16818
START_TIMEOUT_S=60
JOB_TIMEOUT_S=600
POLL_S=0.2

fail() {
  echo "slurm test FAILED: $*" >&2
  exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

[ $# -eq 2 ] || fail "usage: $0 ACME_SIM STUDY.yaml"
ACME=$(readlink -f "$1")
STUDY=$(readlink -f "$2")
[ -x "$ACME" ] || fail "$1 is not an executable acme-sim"
[ -f "$STUDY" ] || fail "$2 is not a study file"
T0=$(now)

install_slurm() {
  local missing=""
  for tool in munged slurmctld slurmd sbatch squeue sinfo scancel; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
  done
  [ -z "$missing" ] && return 0
  [ "$(id -u)" = 0 ] || fail "Slurm is not installed (missing:$missing) and installing it needs root"
  echo "installing slurm-wlm and munge (missing:$missing)"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends \
    slurm-wlm munge >/dev/null || fail "apt-get install slurm-wlm munge failed"
}

install_slurm
[ "$(id -u)" = 0 ] || fail "slurmd must run as root to launch jobs (running as uid $(id -u))"
T_INSTALLED=$(now)

WORK=$(mktemp -d /tmp/acme-slurm.XXXXXX)
chmod 755 "$WORK" # munged refuses a socket in a 0700 folder
PIDS=()
JOB=""

cleanup() {
  local rc=$?
  set +e
  if [ -n "$JOB" ]; then
    scancel "$JOB" >/dev/null 2>&1
  fi
  if [ -n "${SLURM_CONF:-}" ] && command -v squeue >/dev/null; then
    # shellcheck disable=SC2016 # expanded by the inner shell, on every poll
    timeout 20 bash -c 'while [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 0.2; done'
  fi
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do # slurmd, slurmctld, munged: reverse start order
    kill -TERM "${PIDS[$i]}" 2>/dev/null
    timeout 10 tail --pid="${PIDS[$i]}" -f /dev/null 2>/dev/null || kill -KILL "${PIDS[$i]}" 2>/dev/null
  done
  if [ $rc -ne 0 ]; then
    for log in "$WORK"/*.log "$WORK"/*.out "$WORK"/slurm/logs/*; do
      [ -f "$log" ] && { echo "--- $log (tail)"; tail -n 15 "$log"; }
    done
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

start_munge() {
  head -c 1024 /dev/urandom >"$WORK/munge.key"
  chmod 400 "$WORK/munge.key"
  munged -F --socket="$WORK/munge.sock" --key-file="$WORK/munge.key" --pid-file="$WORK/munged.pid" \
    --log-file="$WORK/munged.log" --seed-file="$WORK/munged.seed" >"$WORK/munged.out" 2>&1 &
  PIDS+=($!)
  timeout 10 bash -c "until [ -S '$WORK/munge.sock' ]; do sleep 0.1; done" ||
    fail "munged did not create its socket (see munged.log)"
}

write_slurm_conf() {
  local cpus mem
  cpus=$(nproc)
  mem=$(($(free -m | awk '/^Mem:/ { print $2 }') / 2)) # below what slurmd measures, or the node stays invalid
  mkdir -p "$WORK/state" "$WORK/spool"
  cat >"$WORK/slurm.conf" <<CONF
ClusterName=acmetest
SlurmctldHost=localhost
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=4
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=acmetest Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$WORK/slurm.conf"
}

start_slurm() {
  slurmctld -D -i >"$WORK/slurmctld.out" 2>&1 &
  PIDS+=($!)
  slurmd -D -N localhost >"$WORK/slurmd.out" 2>&1 &
  PIDS+=($!)
  local deadline=$((SECONDS + START_TIMEOUT_S)) state=""
  while [ $SECONDS -lt $deadline ]; do
    for pid in "${PIDS[@]}"; do
      kill -0 "$pid" 2>/dev/null || fail "a Slurm daemon (pid $pid) exited at start: this machine cannot run slurmd/slurmctld; see the logs below"
    done
    state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1)
    case "$state" in idle*) return 0 ;; esac
    sleep "$POLL_S"
  done
  fail "the localhost node did not become idle within ${START_TIMEOUT_S}s (state: '${state:-none}')"
}

start_munge
write_slurm_conf
start_slurm
echo "munged, slurmctld, slurmd up in $(since "$T_INSTALLED") s (install check $(awk -v a="$T0" -v b="$T_INSTALLED" 'BEGIN{printf "%.1f", b-a}') s)"

OUT="$WORK/out"
"$ACME" sweep "$STUDY" --emit-slurm "$WORK/slurm" --shards "$SHARDS" --slurm-cpus 1 --slurm-time 10 \
  --slurm-partition acmetest -o "$OUT" --quiet
grep -q "sbatch --parsable" "$WORK/slurm/README" || fail "--emit-slurm wrote no submit line in README"
JOB=$(sbatch --parsable "$WORK/slurm/sweep.sbatch") || fail "sbatch refused the array script"
JOB=${JOB%%;*}
T_SUBMIT=$(now)
timeout "$JOB_TIMEOUT_S" bash -c "while [ -n \"\$(squeue -h -j $JOB 2>/dev/null)\" ]; do sleep $POLL_S; done" ||
  fail "the array job $JOB did not finish within ${JOB_TIMEOUT_S}s"
echo "array job $JOB ($SHARDS tasks) ran in $(since "$T_SUBMIT") s"
JOB=""
for k in $(seq 1 "$SHARDS"); do
  [ -f "$OUT/shard-$k/results.csv" ] || fail "array task $k left no $OUT/shard-$k/results.csv"
done

SHARD_DIRS=()
for k in $(seq 1 "$SHARDS"); do SHARD_DIRS+=("$OUT/shard-$k"); done
"$ACME" merge "${SHARD_DIRS[@]}" -o "$OUT" --quiet || fail "acme-sim merge of the shards failed"
T_LOCAL=$(now)
"$ACME" sweep "$STUDY" -o "$WORK/local" -j "$(nproc)" --quiet || fail "the local sweep failed"
echo "local sweep of the same study: $(since "$T_LOCAL") s"
for f in results.csv results.json aggregate.csv; do
  cmp "$OUT/$f" "$WORK/local/$f" || fail "$f of the merged Slurm shards differs from the local run's"
done
rows=$(($(wc -l <"$OUT/results.csv") - 1))
echo "Slurm array of $SHARDS shards merged = local run ($rows points, byte-identical); total $(since "$T0") s"
