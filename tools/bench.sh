#!/bin/sh
# acme-sim's benchmark (`make bench`): throughput and memory on this machine. It prints figures and
# asserts nothing; targets (DESIGN.md) are printed beside them for the reader.
#
#   1. generating the 183-day synthetic Acme workload (~1.09M jobs) and writing it as AcmeTrace CSV
#   2. replaying that ~1M-row trace with fifo (reading + simulating), with and without jobs.csv
#   3. the same replay with the Python example fifo (policies/python/examples/fifo.py; same bytes as fifo),
#      with easy_backfill (long queues after evaluation batches) and with the Acme-like
#      policies of configs/acme.yaml (priority + pretraining reservation + EASY; Kubernetes-like quotas)
#   4. the full model on the 183-day synthetic workload: failures, async 30-minute checkpoints through the
#      contended storage, automatic recovery, decoupled evaluation of every checkpoint's batch; resilience
#      at scale: one 4,096-node job, failures on vs off, a year of a 16,384-node fleet-like cluster
#   5. cost against workload size at a fixed load (2, 18 and 183 days of the synthetic workload)
#   6. training traffic: the default config with network.model fluid vs none, and a 1,000-node cluster
#      with ~200 concurrent multi-node jobs (fluid vs none)
#   7. load: the default config at workload.scale 1.0, 1.5 and 2.0 (cost per job as the backlog grows)
#   8. a burst of 50k and 200k jobs submitted at one instant on 128 GPUs, per single-queue policy
#   9. the policies alone on a 1M-job stream over a Seren-shaped cluster (acme-policy-bench)
#
# Environment: ACME_BUILD (default build/release), BENCH_DIR (default build/bench), BENCH_RUNS (runs per
# measurement, median printed; default 3), BENCH_JOBS (jobs of the policy micro-benchmark, default
# 1000000). Each simulator command runs on one core (single-threaded).
set -eu
cd "$(dirname "$0")/.."
BUILD=${ACME_BUILD:-build/release}
SIM=$BUILD/sim/cli/acme-sim
POLICY_BENCH=$BUILD/tools/policy_bench/acme-policy-bench
WORK=${BENCH_DIR:-build/bench}
mkdir -p "$WORK"

[ -x "$SIM" ] || { echo "bench: $SIM not found; build it first (make release)" >&2; exit 2; }

# measure LABEL COMMAND...: runs COMMAND BENCH_RUNS times (default 3) and prints the median wall and
# user seconds (by user time) and the peak RSS; with JOBS set, also jobs per user second.
measure() {
  label=$1
  shift
  : >"$WORK/times.txt"
  i=0
  while [ "$i" -lt "${BENCH_RUNS:-3}" ]; do
    /usr/bin/time -f "%e %U %M" -o "$WORK/time.txt" "$@" >"$WORK/last.log" 2>&1 || {
      echo "bench: '$label' failed:" >&2
      tail -5 "$WORK/last.log" >&2
      exit 1
    }
    cat "$WORK/time.txt" >>"$WORK/times.txt"
    i=$((i + 1))
  done
  read -r wall user rss <<EOF2
$(sort -k2 -n "$WORK/times.txt" | awk '{ rows[NR] = $0 } END { print rows[int((NR + 1) / 2)] }')
EOF2
  rate=""
  if [ -n "${JOBS:-}" ]; then
    rate=$(awk -v j="$JOBS" -v u="$user" 'BEGIN { printf "  %9.0f jobs/s", (u > 0 ? j / u : 0) }')
  fi
  printf '%-62s wall %7.2f s  user %7.2f s  peak RSS %5d MB%s\n' "$label" "$wall" "$user" $((rss / 1024)) "$rate"
}

# The replay config: configs/acme.yaml with its workload section replaced by the generated traces.
replay_config() {
  awk '/^workload:/ {skip = 1; next} skip && /^[^ #]/ {skip = 0} !skip' configs/acme.yaml
  cat <<EOF
workload:
  kind: trace
  format: acme
  path: {seren: $PWD/$WORK/trace/trace_seren.csv, kalos: $PWD/$WORK/trace/trace_kalos.csv}
EOF
}

alloc=$(ldd "$SIM" 2>/dev/null | grep -q jemalloc && echo jemalloc || echo "C library malloc")
echo "acme-sim benchmark ($(nproc) cores; $(uname -m); $SIM; allocator: $alloc)"
measure "generate 183-day Acme workload (gen, CSV written)" "$SIM" gen configs/acme.yaml -o "$WORK/trace"
rows=$(cat "$WORK/trace/trace_seren.csv" "$WORK/trace/trace_kalos.csv" | wc -l)
JOBS=$((rows - 2))
echo "  $JOBS jobs generated (target: <= 5 s for ~1.09M jobs; the time above includes writing the CSV)"

replay_config >"$WORK/replay.yaml"
# Both clusters under one scheduler (configs/acme.yaml gives each its own).
F0="clusters[0].policies.scheduler={name: fifo}"
F1="clusters[1].policies.scheduler={name: fifo}"
E0="clusters[0].policies.scheduler={name: easy_backfill}"
E1="clusters[1].policies.scheduler={name: easy_backfill}"
O0="clusters[0].policies.scheduler={name: easy_backfill, estimator: oracle}"
O1="clusters[1].policies.scheduler={name: easy_backfill, estimator: oracle}"
measure "replay the generated trace, fifo" "$SIM" run "$WORK/replay.yaml" -o "$WORK/replay_fifo" \
  --set "$F0" --set "$F1" --quiet
fifo_user=$user
measure "replay, fifo, no jobs.csv (read + simulate)" "$SIM" run "$WORK/replay.yaml" -o "$WORK/replay_nocsv" \
  --set "$F0" --set "$F1" --set output.jobs_csv=false --quiet
PY="{name: python, module: $PWD/policies/python/examples/fifo.py, class: Fifo}"
measure "replay, Python fifo (policies/python/examples/fifo.py)" "$SIM" run "$WORK/replay.yaml" \
  -o "$WORK/replay_pyfifo" --set "clusters[0].policies.scheduler=$PY" --set "clusters[1].policies.scheduler=$PY" --quiet
cmp -s "$WORK/replay_fifo/jobs.csv" "$WORK/replay_pyfifo/jobs.csv" && same="same jobs.csv as fifo" || same="jobs.csv DIFFERS from fifo's"
ratio=$(awk -v p="$user" -v c="$fifo_user" 'BEGIN { printf "%.1f", (c > 0 ? p / c : 0) }')
echo "  Python fifo: ${ratio}x the C++ fifo's user time, $same (target: within 10x)"
measure "replay, easy_backfill" "$SIM" run "$WORK/replay.yaml" -o "$WORK/replay_easy" --set "$E0" --set "$E1" --quiet
measure "replay, easy_backfill (oracle estimates)" "$SIM" run "$WORK/replay.yaml" -o "$WORK/replay_easy_oracle" \
  --set "$O0" --set "$O1" --quiet
measure "replay, Acme-like policies (configs/acme.yaml)" "$SIM" run "$WORK/replay.yaml" -o "$WORK/replay_acme" --quiet
echo "  jobs/s = replayed jobs / user seconds (targets: >= 100,000 jobs/s with EASY; reading 1M rows <= 3 s)"
JOBS=""

FULL="--set failures.enabled=true --set checkpoint.policy.name=fixed --set checkpoint.policy.interval=30min
  --set checkpoint.mode=async --set recovery.policy.name=automatic --set evaluation.catalogue=builtin
  --set evaluation.nodes=4 --set evaluation.dispatch.name=decoupled"
# shellcheck disable=SC2086 # FULL is a list of words without spaces inside them
measure "full model, 183 days: failures, async ckpt, auto recovery, eval" "$SIM" run configs/acme.yaml \
  -o "$WORK/full_model" $FULL --quiet
echo "  $(grep -o '"jobs_submitted": [0-9]*' "$WORK/full_model/summary.json") (evaluation requests become trial and"
echo "  metric jobs); target: <= 30 s on one core"
# shellcheck disable=SC2086
measure "full model, 183 days, with the event trace (output.events)" "$SIM" run configs/acme.yaml \
  -o "$WORK/full_model_events" $FULL --set output.events=true --quiet
echo "  events.csv: $(($(wc -l <"$WORK/full_model_events/events.csv") - 1)) rows, \
$(($(wc -c <"$WORK/full_model_events/events.csv") / 1048576)) MiB"

echo "resilience at scale (configs/bench/one_big_job.yaml):"
measure "  one 4,096-node job, 6,144 h of compute, 1-min checkpoints, failures" "$SIM" run \
  configs/bench/one_big_job.yaml -o "$WORK/one_big_job" --quiet
echo "  $(grep -o '"checkpoints": [0-9]*' "$WORK/one_big_job/summary.json" | head -1), \
$(grep -o '"failures": [0-9]*' "$WORK/one_big_job/summary.json" | head -1); target: <= 2 s on one core"
# shellcheck disable=SC2086
measure "  the default config as committed (Acme's failures on)" "$SIM" run configs/acme.yaml \
  -o "$WORK/default_failures" --quiet
fail_user=$user
measure "  the default config with failures off" "$SIM" run configs/acme.yaml -o "$WORK/default_plain" \
  --set failures.enabled=false --quiet
ratio=$(awk -v f="$fail_user" -v n="$user" 'BEGIN { printf "%.2f", (n > 0 ? f / n : 0) }')
echo "    failures on / off: ${ratio}x user time (target: <= 1.3x)"
python3 tools/bench_fleet_trace.py "$WORK/fleet_year.csv" >/dev/null
measure "  a year of a 16,384-node cluster, ~7,200 jobs a day, failures on" "$SIM" run \
  configs/bench/fleet_year.yaml -o "$WORK/fleet_year" --set "workload.path=$PWD/$WORK/fleet_year.csv" --quiet
echo "  $(grep -o '"jobs": [0-9]*' "$WORK/fleet_year/summary.json" | head -1), \
$(grep -o '"failures": [0-9]*' "$WORK/fleet_year/summary.json" | head -1); target: <= 60 s on one core"

echo "cost against workload size at the same load (default policies, synthetic workload of 2, 18 and 183 days):"
for days in 2 18 183; do
  measure "  $days days" "$SIM" run configs/acme.yaml -o "$WORK/days_$days" --set workload.days=$days --quiet
  echo "    $(grep -o '"jobs_submitted": [0-9]*' "$WORK/days_$days/summary.json")"
done

echo "training traffic (network.model: fluid vs none; configs/acme.yaml, 183 days):"
measure "  default config, network.model none" "$SIM" run configs/acme.yaml -o "$WORK/net_none" --quiet
none_user=$user
measure "  default config, network.model fluid" "$SIM" run configs/acme.yaml -o "$WORK/net_fluid" \
  --set network.model=fluid --quiet
ratio=$(awk -v f="$user" -v n="$none_user" 'BEGIN { printf "%.2f", (n > 0 ? f / n : 0) }')
echo "    fluid / none: ${ratio}x user time (target: <= 1.5x)"
# A 1,000-node cluster (leaves of 20 nodes, one NIC each) kept full by multi-node jobs of 2-8 nodes
# (5 on average) running 2-6 hours, one submitted every 80 s for 30 days: about 200 run at once.
awk 'BEGIN {
  print "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time"
  for (i = 0; i < 32400; i++) {
    nodes = 2 + (i * 5) % 7; dur = 7200 + (i * 37) % 240 * 60; t = 1677628800 + i * 80
    printf "b%d,u%d,%d,%d,%d,Pretrain,COMPLETED,%s,,,%d,,%d\n", i, i % 50, nodes, nodes * 8, nodes * 8,
      strftime("%Y-%m-%d %H:%M:%S+00:00", t, 1), dur, dur * nodes * 8
  }
}' >"$WORK/big_trace.csv"
cat >"$WORK/big.yaml" <<EOF
clusters:
  - {name: big, nodes: 1000, gpus_per_node: 8, network: {nics_per_node: 1, nodes_per_leaf: 20}}
policies: {scheduler: {name: fifo}, placement: {name: first_fit}}
workload: {kind: trace, format: acme, path: $PWD/$WORK/big_trace.csv}
EOF
measure "  1,000 nodes, ~200 multi-node jobs at once, none" "$SIM" run "$WORK/big.yaml" -o "$WORK/big_none" --quiet
none_user=$user
measure "  1,000 nodes, ~200 multi-node jobs at once, fluid" "$SIM" run "$WORK/big.yaml" -o "$WORK/big_fluid" \
  --set network.model=fluid --quiet
ratio=$(awk -v f="$user" -v n="$none_user" 'BEGIN { printf "%.2f", (n > 0 ? f / n : 0) }')
running=$(awk -F, 'NR > 1 { s += $6; n++ } END { printf "%.0f", (n > 0 ? s / n : 0) }' "$WORK/big_fluid/timeseries.csv")
echo "    fluid / none: ${ratio}x user time (target: <= 2x); $running jobs running on average"

echo "load: the default config (183 days, default policies) at workload.scale 1.0, 1.5 and 2.0:"
for scale in 1.0 1.5 2.0; do
  measure "  workload.scale $scale" "$SIM" run configs/acme.yaml -o "$WORK/scale_$scale" \
    --set workload.scale=$scale --quiet
  jobs=$(grep -o '"jobs_submitted": [0-9]*' "$WORK/scale_$scale/summary.json" | grep -o '[0-9]*$')
  per_job=$(awk -v u="$user" -v j="$jobs" 'BEGIN { printf "%.1f", (j > 0 ? u / j * 1e6 : 0) }')
  [ "$scale" = 1.0 ] && base_per_job=$per_job
  ratio=$(awk -v p="$per_job" -v b="$base_per_job" 'BEGIN { printf "%.2f", (b > 0 ? p / b : 0) }')
  echo "    $jobs jobs, ${per_job} us per job, ${ratio}x scale 1.0's (targets: scale 2.0 <= 60 s, <= 2x per job)"
done

# A burst: N jobs submitted at one instant on 16 nodes of 8 GPUs (1-16 GPUs, 10 s to 1 h each), under
# each single-queue policy. A pass costs what the queue depth allows, whatever the backlog.
echo "a burst of jobs submitted at one instant on 128 GPUs:"
for n in 50000 200000; do
  awk -v n="$n" 'BEGIN {
    print "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time"
    split("Pretrain SFT Evaluation Debug MLLM Other", types, " "); split("1 1 1 2 4 8 8 16", sizes, " ")
    for (i = 0; i < n; i++) {
      g = sizes[1 + (i * 7) % 8]; nodes = g > 8 ? g / 8 : 1
      printf "%d,u%d,%d,%d,4,%s,COMPLETED,2023-03-01 00:00:00+08:00,,,%d,,\n", i + 1, (i * 13) % 40, nodes, g,
        types[1 + (i * 5) % 6], 10 + (i * 337) % 3590
    }
  }' >"$WORK/burst_$n.csv"
  for policy in fifo easy_backfill priority conservative_backfill; do
    cat >"$WORK/burst.yaml" <<EOF
clusters:
  - {name: burst, utc_offset: "+08:00", nodes: 16, gpus_per_node: 8, network: {nodes_per_leaf: 4}}
policies: {scheduler: {name: $policy}, placement: {name: pack}}
workload: {kind: trace, format: acme, path: $PWD/$WORK/burst_$n.csv}
output: {timeseries_interval: 1h}
EOF
    JOBS=$n measure "  $n jobs, $policy" "$SIM" run "$WORK/burst.yaml" -o "$WORK/burst_out" --quiet
  done
done

if [ -x "$POLICY_BENCH" ]; then
  n=${BENCH_JOBS:-1000000}
  echo "policies alone, $n jobs over a Seren-shaped cluster (acme-policy-bench):"
  "$POLICY_BENCH" --jobs "$n" --scheduler fifo --scheduler easy_backfill \
    --scheduler "{name: easy_backfill, estimator: oracle}" --scheduler sjf --scheduler priority \
    --scheduler "{name: quota, quotas: {pretrain: 1600}}" --scheduler las \
    --scheduler "{name: kube_quota, quotas: {pretrain: 1600, eval: 256}}"
  # Conservative backfilling re-plans every examined job's reservation: far slower, so fewer jobs.
  echo "conservative_backfill on $((n / 50)) jobs:"
  "$POLICY_BENCH" --jobs $((n / 50)) --scheduler conservative_backfill
fi
