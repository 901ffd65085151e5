#!/usr/bin/env python3
"""Fits the synthetic Acme workload model to the paper's data and writes its parameter file.

Reads data/acme/*.csv (Hu et al., NSDI'24, AcmeTrace; see data/README.md) and writes
workloads/synthetic/acme_params.txt, which the generator (workloads/synthetic/) compiles in.
Python 3 standard library only. Deterministic: the same data gives the same bytes. Prints the fit's
residuals to stderr. Takes ~15 s.

usage: tools/fit_acme_workload.py [--data DIR] [--out FILE] [--check]
  --check   exit 1 (and name the first differing line) when FILE is not what the data gives

The model, per cluster (Seren, Kalos), and the file each part comes from (fit_acme_gpus.py: GPU counts
and duration bins; fit_acme_joint.py: their joint law; fit_acme_states.py: final states):
  * job counts, maximum run time, total GPU time: cluster_summary.csv (paper Table 2)
  * type shares of jobs and of GPU time: treemap_job_dist_shares.csv
  * GPU-count pmf per type: cdf_job_gpunum_a_jobs_<C>.csv split into types under the quartile and
    whisker constraints of box_gpu_num_stats.csv (iterative proportional fitting)
  * duration bins per type (the paper's 2^k grid): cdf_job_duration_queue_{a_seren,c_kalos}_duration_<T>.csv
  * the joint law of (GPU count, duration bin) per type: iterative scaling that keeps both marginals
    and matches the type shares of GPU time and cdf_job_gpunum_b_gputime_<C>.csv; the GPU time per GPU
    job is searched around Table 2's for the value at which these curves agree (Kalos: within 3% of
    Table 2). Seren's curves describe the released trace (data/README.md: 450,590 of Table 2's 663,813
    GPU jobs), so Seren generates that many GPU jobs carrying Table 2's GPU time (47,739 s per job,
    where the GPU-time CDF agrees within 0.006); at Table 2's count the curves' jobs would carry 1.19x
    the cluster's load
  * final state given (GPUs, duration): bar_job_state.csv (shares by count and GPU time) and the
    infrastructure shares of failed jobs in data/README.md
  * CPU jobs: cdf_job_jobtime_b_cpu_job_duration_<C>.csv, Table 2 mean run time and state rates
"""

import argparse
import csv
import math
import os
import sys

from fit_acme_gpus import bin_points, curve, duration_bins, gpu_pmfs, read_rows, solve_tail_edge, split_by_type
from fit_acme_joint import TypeModel, b_curve_gap, fit_joint
from fit_acme_states import fit_states, joint_points, state_probs, state_shares

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTERS = ["Seren", "Kalos"]
TYPES = ["Pretrain", "SFT", "MLLM", "Eval", "Debug", "Other"]  # order of model::JobType
CURVE_TYPE = {"Eval": "Evaluation"}  # file names spell Eval out
RELEASED_GPU_JOBS = {"Seren": 450590}  # GPU jobs of the released trace, which the curves describe
PAPER_PERIOD_DAYS = 183.0  # AcmeTrace: March to August 2023 (data/README.md)
KALOS_TRACE = "acme_kalos_converted_hyunnnchoi.csv"  # data/traces/: 319 Kalos jobs with arrival times


def period_days(data_dir, cluster):
    """Days over which Table 2 counted the cluster's jobs. Seren: the whole period. Kalos: the span of the
    Kalos jobs in data/traces/ (first to last arrival, 90.0 days; its weeks all hold jobs), so Kalos ran
    its 62,413 jobs in about half of Seren's period."""
    if cluster != "Kalos":
        return PAPER_PERIOD_DAYS
    path = os.path.join(os.path.dirname(os.path.abspath(data_dir)), "traces", KALOS_TRACE)
    with open(path) as f:
        arrivals = [float(r["arrival_time"]) for r in csv.DictReader(f)]
    return round((max(arrivals) - min(arrivals)) / 86400.0, 2)


# ---------------------------------------------------------------------------------------------
# Per cluster


def fmt(v):
    return "%.9g" % v


def fit_cluster(data_dir, cluster, log):
    summary = {r["id"]: r for r in read_rows(data_dir, "cluster_summary.csv")}[cluster]
    tree = [r for r in read_rows(data_dir, "treemap_job_dist_shares.csv") if r["cluster"] == cluster]
    count_total = sum(float(r["job_count_pct_label"]) for r in tree)
    gt_total = sum(float(r["gpu_time_pct_label"]) for r in tree)
    count_share = {r["type"]: float(r["job_count_pct_label"]) / count_total for r in tree}
    gt_share = {r["type"]: float(r["gpu_time_pct_label"]) / gt_total for r in tree}
    box = {r["type"]: r for r in read_rows(data_dir, "box_gpu_num_stats.csv") if r["cluster"] == cluster}
    state_rows = {r["metric"]: {k: float(r[k + "_pct"]) / 100 for k in ("completed", "cancelled", "failed")}
                  for r in read_rows(data_dir, "bar_job_state.csv") if r["cluster"] == cluster}

    gpu_jobs = RELEASED_GPU_JOBS.get(cluster, int(float(summary["gpu_job_num"])))
    max_run_s = float(summary["max_run_time_gpu"])
    table2_gt = sum(float(summary[k]) for k in ("complete_gpu_time", "cancel_gpu_time", "fail_gpu_time")) / gpu_jobs
    a_pmf, b_steps, _ = gpu_pmfs(data_dir, cluster)
    per_type_gpus = split_by_type(a_pmf, box, count_share)
    prefix = "a_seren" if cluster == "Seren" else "c_kalos"
    models = {}
    for t in TYPES:
        if t not in count_share:
            continue
        points = curve(data_dir, f"cdf_job_duration_queue_{prefix}_duration_{CURVE_TYPE.get(t, t)}.csv")
        models[t] = TypeModel(count_share[t], per_type_gpus[t], duration_bins(points, max_run_s))
    total_gt = fit_joint(models, gt_share, b_steps, table2_gt)
    report_joint(cluster, models, gt_share, b_steps, table2_gt, log)

    points = joint_points(models)
    state_params, state_target = fit_states(points, state_rows["job_count"], state_rows["gpu_time"])
    report_states(cluster, state_params, points, state_target, log)

    pre = models["Pretrain"]
    complete = []
    for i, g in enumerate(pre.gpus):
        pc = sum(pre.cond[i][k] * w * state_probs(state_params, g, d)[0]
                 for k, (a, b, _) in enumerate(pre.bins) for d, w in bin_points(a, b))
        complete.append(pc)
    run_pmf = [p * c for p, c in zip(pre.gpu_pmf, complete)]
    attempts_per_run = 1.0 / sum(run_pmf)
    run_pmf = [v / sum(run_pmf) for v in run_pmf]
    log(f"{cluster}: pretraining attempts per run {attempts_per_run:.2f}")

    cpu_points = curve(data_dir, f"cdf_job_jobtime_b_cpu_job_duration_{cluster}.csv")
    cpu_bins = duration_bins(cpu_points, float("inf"))
    if cpu_bins[-1][1] == float("inf"):
        edge = solve_tail_edge(cpu_bins, float(summary["avg_run_time_cpu"]))
        cpu_bins[-1] = (cpu_bins[-1][0], edge, cpu_bins[-1][2])

    name = cluster.lower()
    out = [f"# {cluster}: paper Table 2 (cluster_summary.csv)",
           f"{name}.gpu_jobs {gpu_jobs}",
           f"{name}.cpu_jobs {int(float(summary['cpu_job_num']))}",
           f"# days over which Table 2 counted them (Kalos: the span of data/traces/{KALOS_TRACE})",
           f"{name}.period_days {fmt(period_days(data_dir, cluster))}",
           f"{name}.max_run_time_s {fmt(max_run_s)}",
           f"# GPU time per GPU job at which the curves agree (Table 2: {fmt(table2_gt)})",
           f"{name}.gpu_time_per_gpu_job_s {fmt(total_gt)}",
           f"# state of a GPU job given (g GPUs, d s): infrastructure failure 1-exp(-base-hazard*g*d), else",
           f"# logit(cancelled) = a + b ln d, logit(failed early) = a + b ln d against completed",
           f"# (bar_job_state.csv; infrastructure shares of failed jobs: data/README.md)",
           f"{name}.state.cancel_logit {fmt(state_params[0])} {fmt(state_params[1])}",
           f"{name}.state.early_fail_logit {fmt(state_params[2])} {fmt(state_params[3])}",
           f"{name}.state.infra_hazard_per_gpu_s {fmt(math.exp(state_params[4]))}",
           f"{name}.state.infra_base {fmt(math.exp(state_params[5]))}",
           f"# CPU jobs: cdf_job_jobtime_b_cpu_job_duration_{cluster}.csv; last edge fitted to Table 2's mean",
           f"{name}.cpu.bin_lo " + " ".join(fmt(a) for a, _, _ in cpu_bins),
           f"{name}.cpu.bin_hi " + " ".join(fmt(b) for _, b, _ in cpu_bins),
           f"{name}.cpu.bin_mass " + " ".join(fmt(m) for _, _, m in cpu_bins),
           f"{name}.cpu.state_shares " + " ".join(fmt(float(summary[k + "_rate_cpu"]))
                                                 for k in ("complete", "cancel", "fail"))]
    for t, m in models.items():
        out.append(f"# {cluster} {t}: treemap_job_dist_shares.csv, box_gpu_num_stats.csv, "
                   f"cdf_job_duration_queue_{prefix}_duration_{CURVE_TYPE.get(t, t)}.csv")
        out.append(f"{name}.{t}.count_share {fmt(m.share)}")
        out.append(f"{name}.{t}.gpus " + " ".join(str(g) for g in m.gpus))
        out.append(f"{name}.{t}.gpu_pmf " + " ".join(fmt(p) for p in m.gpu_pmf))
        out.append(f"{name}.{t}.bin_lo " + " ".join(fmt(a) for a, _, _ in m.bins))
        out.append(f"{name}.{t}.bin_hi " + " ".join(fmt(b) for _, b, _ in m.bins))
        out.append(f"{name}.{t}.bin_mass " + " ".join(fmt(w) for _, _, w in m.bins))
        for i, g in enumerate(m.gpus):
            out.append(f"{name}.{t}.bins_given_gpus.{g} " + " ".join(fmt(v) for v in m.cond[i]))
    out.append(f"# {cluster} pretraining runs: GPU pmf of runs (attempts until one completes)")
    out.append(f"{name}.pretrain.run_gpu_pmf " + " ".join(fmt(p) for p in run_pmf))
    out.append(f"{name}.pretrain.attempts_per_run {fmt(attempts_per_run)}")
    return out


def cumulative(values):
    out, total = [], 0.0
    for v in values:
        total += v
        out.append(total)
    return out


def report_joint(cluster, models, gt_share, b_steps, table2_gt, log):
    gt = sum(m.gpu_time() for m in models.values())
    log(f"{cluster}: GPU time per job {gt:.0f} s (Table 2 {table2_gt:.0f})")
    for t, m in models.items():
        quart = [next(g for g, c in zip(m.gpus, cumulative(m.gpu_pmf)) if c >= level) for level in (0.25, 0.5, 0.75)]
        log(f"  {t:9s} GPU time share {m.gpu_time() / gt:.4f} (paper {gt_share[t]:.4f}), GPU quartiles {quart}")
    log(f"  GPU-time CDF over GPU count: largest gap at the paper's steps {b_curve_gap(models, b_steps):.4f}")


def report_states(cluster, params, points, target, log):
    count, gt = state_shares(params, points)
    n, t = sum(count), sum(gt)
    fail_n, fail_t = count[2] + count[3], gt[2] + gt[3]
    got = [count[1] / n, fail_n / n, gt[1] / t, fail_t / t, count[3] / fail_n, gt[3] / fail_t]
    names = ["cancelled/count", "failed/count", "cancelled/gpu_time", "failed/gpu_time", "infra/failed count",
             "infra/failed gpu_time"]
    log(f"{cluster}: states " + ", ".join(f"{a} {g:.3f} ({b:.3f})" for a, g, b in zip(names, got, target)))


def build(data_dir):
    lines = ["# Synthetic Acme workload parameters. Generated by tools/fit_acme_workload.py from data/acme/*.csv",
             "# (Hu et al., NSDI'24, AcmeTrace, CC BY 4.0); do not edit, rerun the script.",
             "# One record per line: KEY VALUE...; durations in seconds, bins (lo, hi] of the paper's 2^k grid."]
    log = lambda text: print(text, file=sys.stderr)
    for cluster in CLUSTERS:
        lines += fit_cluster(data_dir, cluster, log)
    return "\n".join(lines) + "\n"


CHECK_RELATIVE = 1e-5  # --check: numbers may differ in the last digits (another libm, another Python)


def same_line(old, new):
    a, b = old.split(), new.split()
    if len(a) != len(b) or old.startswith("#") != new.startswith("#"):
        return False
    for x, y in zip(a, b):
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            if x != y and not old.startswith("#"):
                return False
            continue
        if abs(fx - fy) > CHECK_RELATIVE * max(abs(fx), abs(fy), 1e-12):
            return False
    return True


def check_same(path, old, new):
    old_lines, new_lines = old.splitlines(), new.splitlines()
    for n, (a, b) in enumerate(zip(old_lines, new_lines), 1):
        if not same_line(a, b):
            print(f"{path}:{n}: out of date; rerun tools/fit_acme_workload.py\n  have: {a[:160]}\n  want: {b[:160]}",
                  file=sys.stderr)
            return 1
    if len(old_lines) != len(new_lines):
        print(f"{path}: out of date ({len(old_lines)} lines, want {len(new_lines)}); rerun tools/fit_acme_workload.py",
              file=sys.stderr)
        return 1
    print(f"{path}: up to date with the data", file=sys.stderr)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=os.path.join(REPO, "data", "acme"))
    parser.add_argument("--out", default=os.path.join(REPO, "workloads", "synthetic", "acme_params.txt"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = build(args.data)
    if args.check:
        with open(args.out) as f:
            return check_same(args.out, f.read(), text)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
