#!/bin/sh
# Runs the libFuzzer targets of build/fuzz (`make fuzz`), each for SECONDS (default 60), JOBS at a time
# (default 1), from seed corpora made of slices of the shipped configs and traces. Prints each target's
# final figures (runs, executions per second, coverage); inputs that crash, leak or time out land in
# build/fuzz/findings/<target>/ (add each as a regression: tests/fuzz/regressions/<target>/). Exit 1 when
# a target found one. The target `report` is the Python report's own mutation fuzzer (no libFuzzer).
#   tools/fuzz/run_fuzzers.sh [SECONDS] [TARGET...]        FUZZ_JOBS=2 to run two at a time
set -eu
cd "$(dirname "$0")/../.."
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-"config units trace_acme trace_swf trace_philly trace_alibaba failure_trace failure_trace_hbd baseline study report"}
build=build/fuzz
mkdir -p "$build/corpus" "$build/findings" "$build/logs"

# Seeds: slices of what acme-sim ships, refreshed each time (the corpus keeps what the fuzzer found).
seed() { # TARGET FILE...
  dir="$build/corpus/$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] && head -c 65536 "$f" >"$dir/seed-$(echo "$f" | tr '/' '_')"
  done
  return 0
}
slice() { # FILE LINES NAME: the first lines of a large trace
  head -n "$2" "$1" >"$build/corpus/$3"
}
seed config $(git ls-files 'configs/*.yaml' 'tests/e2e/*.yaml' 'validate/*.yaml')
printf 'clusters: [{name: a, nodes: 2}]\nworkload: {kind: trace, path: t.csv}\n---set\nclusters[0].nodes=4\nseed=7\n' \
  >"$build/corpus/config/seed-with-overrides"
mkdir -p "$build/corpus/units"
i=0
for text in 80GiB 1.5TB 200Gbps 25GBps 30min 2h 400W 1.2kW +08:00 UTC "2023-03-01 00:18:22+08:00"; do
  printf "\\$(printf '%03o' $i)%s" "$text" >"$build/corpus/units/seed-$i"
  i=$((i + 1))
done
seed trace_acme configs/test/tiny_trace.csv tests/e2e/bad_trace_row/trace.csv
mkdir -p "$build/corpus/trace_acme" "$build/corpus/trace_swf" "$build/corpus/trace_philly" "$build/corpus/trace_alibaba"
slice configs/test/sample_seren.csv 40 trace_acme/seed-sample_seren
slice configs/test/sample_kalos.csv 40 trace_acme/seed-sample_kalos
slice data/traces/alcf_theta_2022.swf 60 trace_swf/seed-theta
seed trace_swf tests/e2e/swf_bad_row/trace.swf
slice data/traces/philly_jobs_pollux.csv 40 trace_philly/seed-pollux
seed trace_philly tests/e2e/philly_bad_row/trace.csv
slice data/traces/alibaba_openb_pod_list_default.csv 40 trace_alibaba/seed-openb
seed trace_alibaba tests/e2e/alibaba_bad_row/pods.csv tests/e2e/alibaba_shared_gpus/pods.csv
seed failure_trace tests/fuzz/regressions/failure_trace/valid.csv
seed failure_trace_hbd tests/fuzz/regressions/failure_trace_hbd/valid.json
seed study tests/fuzz/regressions/study/valid.yaml
for f in configs/studies/*.yaml; do # the shipped studies, on the fuzz target's own base config
  sed 's/^config: .*/config: base.yaml/' "$f" >"$build/corpus/study/seed-$(basename "$f")"
done
seed baseline configs/ci/regression_baseline.json tests/e2e/check_pass/baseline.json tests/e2e/check_pass/run/summary.json \
  tests/golden/tiny_fifo/expected/summary.json

replays_within_limit() { # TARGET INPUT: true when INPUT runs to completion within 10 s three times
  for _ in 1 2 3; do
    timeout 10 "$build/tests/fuzz/acme_fuzz_$1" "$2" >/dev/null 2>&1 || return 1
  done
}

run_report() { # the Python report reader: a seeded mutation fuzzer of run folders (tests/fuzz/report_fuzzer.py)
  /usr/bin/python3 tests/fuzz/report_fuzzer.py --seconds "$seconds" --findings "$build/findings/report" \
    >"$build/logs/report.log" 2>&1 || true
  if ! grep -q ' inputs, ' "$build/logs/report.log"; then # it never got going: a failure too
    mkdir -p "$build/findings/report"
    tail -3 "$build/logs/report.log" >"$build/findings/report/did-not-run.log"
  fi
  tail -1 "$build/logs/report.log" # "report SECONDS: inputs, per second, exits by code; findings"
}

run() { # TARGET
  if [ "$1" = report ]; then
    run_report
    return
  fi
  mkdir -p "$build/findings/$1"
  "$build/tests/fuzz/acme_fuzz_$1" "$build/corpus/$1" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/findings/$1/" >"$build/logs/$1.log" 2>&1 || true
  done_line=$(grep -E '^#[0-9]+[[:space:]].*cov: ' "$build/logs/$1.log" | tail -1)
  execs=$(grep -E 'stat::number_of_executed_units' "$build/logs/$1.log" | awk '{print $2}')
  rate=$(grep -E 'stat::average_exec_per_sec' "$build/logs/$1.log" | awk '{print $2}')
  if [ -z "$execs" ]; then # the fuzzer never got going (a broken build, a crash at start-up): a failure too
    tail -3 "$build/logs/$1.log" >"$build/findings/$1/did-not-run.log"
  fi
  # libFuzzer also saves inputs that took over 10 s while the machine stalled (other work, a paused
  # virtual machine): slow-unit-*, and timeout-* when the stall hit one input past the limit. The readers
  # are deterministic, so an input that replays within the limit on its own, three times, is not a hang
  # (a real one hangs at every replay and stays a finding): drop it.
  for slow in "$build/findings/$1"/slow-unit-* "$build/findings/$1"/timeout-*; do
    [ -f "$slow" ] || continue
    if replays_within_limit "$1" "$slow"; then
      echo "$1: $(basename "$slow") was slow only once (replays within 10 s): dropped" >>"$build/logs/$1.log"
      rm -f "$slow"
    fi
  done
  found=$(find "$build/findings/$1" -type f | wc -l)
  printf '%-14s %ss: %s runs, %s exec/s, %s; findings: %s\n' "$1" "$seconds" "${execs:-?}" "${rate:-?}" \
    "$(echo "$done_line" | grep -oE 'cov: [0-9]+ ft: [0-9]+' || echo 'no coverage line')" "$found"
}

jobs=${FUZZ_JOBS:-1}
running=0
for t in $targets; do
  run "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait
    running=0
  fi
done
wait
[ -z "$(find "$build/findings" -type f)" ]
