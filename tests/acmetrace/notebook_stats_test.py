#!/usr/bin/env python3
"""The authors' analysis over our export: runs the default config (two weeks of it), exports it with `acme-sim export --acmetrace`
and recomputes the statistics of AcmeTrace's analysis.ipynb (InternLM/AcmeTrace) from their published
definitions (data/README.md, "How the paper's plots were computed"): the CDFs of duration, GPU demand,
GPU time and per-type duration and queueing delay, the treemap's job-type shares and the box plot's GPU
demand per type. Checks that the notebook's selections find every job type it expects (its type
breakdown casts per-type counts to int and fails on a type with no job), that the types present are the
paper's, that the export keeps the released column order and AcmeTrace's spellings, and that its queueing
delays agree bin for bin with the summary acme-sim wrote. Standard library only (no pandas needed).

usage: notebook_stats_test.py ACME_SIM CONFIG DATA_DIR [--set key=value ...]
"""
import csv
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

# The released traces' columns, in order (data/README.md; InternLM/AcmeTrace README).
SEREN_COLUMNS = ["job_id", "user", "node_num", "gpu_num", "cpu_num", "type", "state", "submit_time", "start_time",
                 "end_time", "duration", "queue", "gpu_time"]
KALOS_COLUMNS = SEREN_COLUMNS[:5] + ["mem_per_pod_GB", "shared_mem_per_pod"] + SEREN_COLUMNS[5:10] + [
    "fail_time", "stop_time"] + SEREN_COLUMNS[10:]
ACME_TYPES = {"Pretrain", "SFT", "MLLM", "Eval", "Debug", "Other"}
# analysis.ipynb, "Treemap: Job Number Distribution": the types it selects per cluster.
NOTEBOOK_TREEMAP_TYPES = {"seren": ["Eval", "Pretrain", "SFT", "MLLM", "Debug", "Other"],
                          "kalos": ["Eval", "Pretrain", "Debug", "Other"]}
SUMMARY_TYPE = {"Eval": "Evaluation"}  # summary.json's key for AcmeTrace's spelling
DURATION_GRID = [2**i for i in range(0, 22)]
QUEUE_GRID = [2**i for i in range(0, 16)]
GPU_GRID = list(range(0, 1025))
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)
    return condition


def number(text):
    """pandas.read_csv's reading of a numeric cell: empty is NaN (None here)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return None if math.isnan(value) else value


def read_trace(path):
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames
        rows = []
        for row in reader:
            for key in ("node_num", "gpu_num", "cpu_num", "duration", "queue", "gpu_time"):
                row[key] = number(row[key])
            rows.append(row)
    return header, rows


def num_cdf(rows, grid, key):
    """calculate_num_cdf_customized_xaxis: CDF(x) = count(value <= x) / N * 100 over non-missing values."""
    data = sorted(r[key] for r in rows if r[key] is not None)
    if not data:
        raise ZeroDivisionError(f"no {key} values")
    out, i = [], 0
    for x in grid:
        while i < len(data) and data[i] <= x:
            i += 1
        out.append(i / len(data) * 100)
    return out


def sum_cdf(rows, grid, key, key_to_time):
    """calculate_sum_cdf_customized_xaxis: share of sum(key * key_to_time) over rows with key <= x."""
    data = sorted((r[key], r[key] * r[key_to_time]) for r in rows
                  if r[key] is not None and r[key_to_time] is not None)
    total = sum(w for _, w in data)
    out, i, acc = [], 0, 0.0
    for x in grid:
        while i < len(data) and data[i][0] <= x:
            acc += data[i][1]
            i += 1
        out.append(acc / total * 100)
    return out


def percentile(sorted_values, q):
    """numpy.percentile's default (linear) interpolation, as seaborn's boxplot uses."""
    pos = (len(sorted_values) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def box_stats(values):
    """matplotlib's boxplot statistics (whiskers at 1.5 IQR): quartiles, whiskers, outliers."""
    v = sorted(values)
    q1, med, q3 = percentile(v, 25), percentile(v, 50), percentile(v, 75)
    iqr = q3 - q1
    inside = [x for x in v if q1 - 1.5 * iqr <= x <= q3 + 1.5 * iqr]
    return {"q1": q1, "median": med, "q3": q3, "whisker_low": inside[0], "whisker_high": inside[-1],
            "outliers": len(v) - len(inside)}


def treemap(rows, types):
    """The notebook's job-type breakdown: counts and GPU time per type (the cast to int fails on NaN)."""
    counts = {t: sum(1 for r in rows if r["type"] == t) for t in types}
    gtime = {t: sum(r["gpu_time"] or 0.0 for r in rows if r["type"] == t) for t in types}
    missing = [t for t in types if counts[t] == 0]
    if missing:
        raise ValueError(f"Cannot convert non-finite values (NA or inf) to integer: no {missing} jobs")
    total, total_gtime = sum(counts.values()), sum(gtime.values())
    return {t: (counts[t] / total * 100, gtime[t] / total_gtime * 100) for t in types}


def paper_rows(data_dir, name):
    with (data_dir / name).open(newline="") as f:
        return list(csv.DictReader(f))


def check_export(out, summary):
    files = sorted(p.name for p in out.iterdir())
    check(files == ["trace_kalos.csv", "trace_seren.csv"], f"export wrote {files}; expected trace_kalos.csv, "
          "trace_seren.csv")
    traces = {}
    for cluster, columns in (("seren", SEREN_COLUMNS), ("kalos", KALOS_COLUMNS)):
        header, rows = read_trace(out / f"trace_{cluster}.csv")
        check(header == columns, f"trace_{cluster}.csv header {header}; expected the released {columns}")
        types = {r["type"] for r in rows}
        check(types <= ACME_TYPES, f"trace_{cluster}.csv: types {sorted(types - ACME_TYPES)} are not AcmeTrace's")
        c = summary["clusters"][cluster]
        check(len(rows) == c["jobs"] - c["rejected"],
              f"trace_{cluster}.csv: {len(rows)} rows; summary.json has {c['jobs']} jobs, {c['rejected']} rejected")
        traces[cluster] = rows
    return traces


def check_cluster(cluster, rows, summary, data_dir):
    gpu = [r for r in rows if r["gpu_num"] and r["gpu_num"] > 0]
    # "CDF: GPU Job Duration" and "CDF: GPU Number" (by jobs and by GPU time).
    duration = num_cdf(gpu, DURATION_GRID, "duration")
    by_jobs, by_time = num_cdf(gpu, GPU_GRID, "gpu_num"), sum_cdf(gpu, GPU_GRID, "gpu_num", "duration")
    for name, y in (("duration", duration), ("GPUs by jobs", by_jobs), ("GPUs by GPU time", by_time)):
        check(all(a <= b for a, b in zip(y, y[1:])) and abs(y[-1] - 100) < 1e-9,
              f"{cluster}: {name} CDF not a CDF ending at 100%: {y[-3:]}")
    # "Treemap": every type the notebook selects must have jobs; the types present must be the paper's.
    try:
        shares = treemap(gpu, NOTEBOOK_TREEMAP_TYPES[cluster])
    except ValueError as e:
        check(False, f"{cluster}: the notebook's type breakdown fails: {e}")
        shares = {}
    paper = {r["type"]: float(r["job_count_pct_label"]) for r in paper_rows(data_dir, "treemap_job_dist_shares.csv")
             if r["cluster"].lower() == cluster}
    present = {r["type"] for r in gpu}
    check(present == set(paper), f"{cluster}: GPU job types {sorted(present)}; the paper's are {sorted(paper)}")
    for t, (count_pct, gtime_pct) in shares.items():
        print(f"{cluster} {t:8s} jobs {count_pct:5.1f}% (paper {paper.get(t, 0):5.1f}%)  GPU time {gtime_pct:5.1f}%")
        check(abs(count_pct - paper.get(t, 0)) <= max(2.0, 0.35 * paper.get(t, 0)),
              f"{cluster}: {t} is {count_pct:.1f}% of GPU jobs; the paper has {paper.get(t, 0)}%")
    # "CDF: Duration and Queuing Delay of Different Type": per type present; queueing delay agrees with
    # summary.json's queue_cdf (the same definition on the same grid) bin for bin.
    by_type = summary["clusters"][cluster]["by_type"]
    for t in sorted(present):
        typed = [r for r in gpu if r["type"] == t]
        num_cdf(typed, DURATION_GRID, "duration")
        queue = num_cdf(typed, QUEUE_GRID, "queue")
        expected = [by_type[SUMMARY_TYPE.get(t, t)]["queue_cdf"][str(x)] * 100 for x in QUEUE_GRID]
        check(all(abs(a - b) < 1e-9 for a, b in zip(queue, expected)),
              f"{cluster} {t}: queueing-delay CDF of the export {queue} differs from summary.json's {expected}")
    # "Box Plot: Request GPU number Different Type": the median GPU demand per type is the paper's.
    paper_box = {r["type"]: r for r in paper_rows(data_dir, "box_gpu_num_stats.csv") if r["cluster"].lower() == cluster}
    for t in sorted(present):
        stats = box_stats([r["gpu_num"] for r in gpu if r["type"] == t])
        ref = paper_box.get(t)
        print(f"{cluster} {t:8s} GPUs q1 {stats['q1']:g} median {stats['median']:g} q3 {stats['q3']:g} "
              f"whiskers {stats['whisker_low']:g}..{stats['whisker_high']:g} (paper median {ref and ref['median_gpus']})")
        if ref:
            check(stats["median"] == float(ref["median_gpus"]),
                  f"{cluster} {t}: median GPU demand {stats['median']:g}; the paper's is {ref['median_gpus']}")


def main():
    binary, config, data_dir, overrides = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4:]
    with tempfile.TemporaryDirectory(prefix="acme-notebook-") as tmp_text:
        tmp = Path(tmp_text)
        for cmd in ([binary, "run", config, "-o", tmp / "run", "--quiet"] + overrides,
                    [binary, "export", tmp / "run", "--acmetrace", tmp / "job_trace"]):
            proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=600)
            if proc.returncode != 0:
                print(f"FAIL: {' '.join(map(str, cmd))}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
                return 1
        with (tmp / "run" / "jobs.csv").open(newline="") as f:
            jobs_types = {row["type"] for row in csv.DictReader(f)}
        check("Eval" in jobs_types and "Evaluation" not in jobs_types,
              f"jobs.csv spells types {sorted(jobs_types)}; expected AcmeTrace's Eval")
        summary = json.loads((tmp / "run" / "summary.json").read_text())
        traces = check_export(tmp / "job_trace", summary)
        for cluster, rows in traces.items():
            check_cluster(cluster, rows, summary, data_dir)
    if FAILURES:
        return 1
    print("the notebook's statistics run on the export and agree with summary.json and the paper's job types")
    return 0


if __name__ == "__main__":
    sys.exit(main())
