"""The paper's Table 2 (Hu et al., NSDI'24; data/acme/cluster_summary.csv) next to a run's own figures for
the cluster of the same name: the paper's value, the simulated one and their ratio."""
import math

import numpy as np

from plot_lib import paper
from plot_lib.report_tables import num, table
from plot_lib.runs import CPU_TYPE

FAILED_STATES = ("FAILED", "TIMEOUT", "NODE_FAIL")  # the paper counts TIMEOUT and NODE_FAIL as failed


def _number(value):
    """A finite number, else None (a damaged summary may hold anything)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _get(tree, *path):
    for part in path:
        tree = tree.get(part) if isinstance(tree, dict) else None
    return _number(tree)


def _share(part, whole):
    return part / whole if part is not None and whole else None


def _pooled(jobs, column, gpu):
    """jobs.csv's `column` (queue, duration, gpus) of the cluster's GPU jobs (gpu) or CPU jobs, pooled."""
    arrays = [cols[column] for job_type, cols in jobs.items() if (job_type != CPU_TYPE) == gpu]
    arrays = [a for a in arrays if len(a)]
    return np.concatenate(arrays) if arrays else None


def _stat(values, how):
    return None if values is None else float(how(values))


def _state_shares(by_type_entry):
    """(completed, cancelled, failed) shares of a class's jobs by count (summary.json states)."""
    states = by_type_entry.get("states") if isinstance(by_type_entry, dict) else None
    if not isinstance(states, dict):
        return None, None, None
    counts = {k: _number(v) or 0.0 for k, v in states.items()}
    total = sum(counts.values())
    failed = sum(counts.get(k, 0.0) for k in FAILED_STATES)
    return _share(counts.get("COMPLETED"), total), _share(counts.get("CANCELLED"), total), _share(failed, total)


def _trace_shares(trace, rows_key, cancelled_key, failed_key):
    """(completed, cancelled, failed) shares of AcmeTrace's rows (fault_tolerance.trace_states): by count
    (rows) or by GPU time (gpu_hours)."""
    whole, cancelled, failed = _get(trace, rows_key), _get(trace, cancelled_key), _get(trace, failed_key)
    if not whole or cancelled is None or failed is None:
        return None, None, None
    return (whole - cancelled - failed) / whole, cancelled / whole, failed / whole


def simulated(run, cluster):
    """{Table 2 column: the run's value} for a cluster: counts, queueing delays and state shares from
    summary.json, run times and GPUs per job from jobs.csv (the jobs that started)."""
    c = run.summary.get("clusters", {}).get(cluster, {})
    by_type = c.get("by_type", {}) if isinstance(c, dict) else {}
    gpu, cpu = by_type.get("all_gpu", {}), by_type.get(CPU_TYPE, {})
    jobs = run.jobs.get(cluster, {})
    gpu_run, cpu_run = _pooled(jobs, "duration", True), _pooled(jobs, "duration", False)
    gpus = _pooled(jobs, "gpus", True)
    out = {"job_num": _get(c, "jobs"), "gpu_job_num": _get(gpu, "jobs"), "cpu_job_num": _get(cpu, "jobs"),
           "avg_que_time_gpu": _get(gpu, "queue_s", "mean"), "med_que_time_gpu": _get(gpu, "queue_s", "p50"),
           "avg_que_time_cpu": _get(cpu, "queue_s", "mean"), "med_que_time_cpu": _get(cpu, "queue_s", "p50"),
           "avg_run_time_gpu": _stat(gpu_run, np.mean), "med_run_time_gpu": _stat(gpu_run, np.median),
           "max_run_time_gpu": _stat(gpu_run, np.max), "avg_run_time_cpu": _stat(cpu_run, np.mean),
           "med_run_time_cpu": _stat(cpu_run, np.median), "avg_gpu_num": _stat(gpus, np.mean),
           "med_gpu_num": _stat(gpus, np.median), "max_gpu": _stat(gpus, np.max)}
    trace = c.get("fault_tolerance", {}).get("trace_states") if isinstance(c.get("fault_tolerance"), dict) else None
    by_count = _trace_shares(trace, "rows", "cancelled_rows", "failed_rows")
    if by_count[0] is None:
        by_count = _state_shares(gpu)
    by_time = _trace_shares(trace, "gpu_hours", "cancelled_gpu_hours", "failed_gpu_hours")
    for i, state in enumerate(("complete", "cancel", "fail")):
        out[f"{state}_rate_gpu"], out[f"{state}_rate_gpu_time"] = by_count[i], by_time[i]
        out[f"{state}_rate_cpu"] = _state_shares(cpu)[i]
    return out


# (what, Table 2 column, unit): "n" a count, "s" seconds, "share" a fraction shown in %, "gpus".
ROWS = [
    ("jobs (GPU and CPU)", "job_num", "n"), ("GPU jobs", "gpu_job_num", "n"), ("CPU jobs", "cpu_job_num", "n"),
    ("GPU jobs: mean run time", "avg_run_time_gpu", "s"), ("GPU jobs: median run time", "med_run_time_gpu", "s"),
    ("GPU jobs: longest run time", "max_run_time_gpu", "s"),
    ("GPU jobs: mean queueing delay", "avg_que_time_gpu", "s"),
    ("GPU jobs: median queueing delay", "med_que_time_gpu", "s"),
    ("GPUs per job: mean", "avg_gpu_num", "gpus"), ("GPUs per job: median", "med_gpu_num", "gpus"),
    ("GPUs per job: largest", "max_gpu", "gpus"),
    ("GPU jobs completed (by count)", "complete_rate_gpu", "share"),
    ("GPU jobs cancelled (by count)", "cancel_rate_gpu", "share"),
    ("GPU jobs failed (by count)", "fail_rate_gpu", "share"),
    ("GPU time of completed jobs", "complete_rate_gpu_time", "share"),
    ("GPU time of cancelled jobs", "cancel_rate_gpu_time", "share"),
    ("GPU time of failed jobs", "fail_rate_gpu_time", "share"),
    ("CPU jobs: mean run time", "avg_run_time_cpu", "s"), ("CPU jobs: median run time", "med_run_time_cpu", "s"),
    ("CPU jobs: mean queueing delay", "avg_que_time_cpu", "s"),
    ("CPU jobs: median queueing delay", "med_que_time_cpu", "s"),
    ("CPU jobs completed (by count)", "complete_rate_cpu", "share"),
    ("CPU jobs cancelled (by count)", "cancel_rate_cpu", "share"),
    ("CPU jobs failed (by count)", "fail_rate_cpu", "share"),
]
UNIT_TEXT = {"n": "", "s": " (s)", "share": " (%)", "gpus": ""}


def _shown(value, unit):
    if value is None:
        return "-"
    return num(100.0 * value, 3) if unit == "share" else num(value)


def _ratio(sim, ref):
    return "-" if sim is None or not ref else f"{num(sim / ref, 3)}"


def comparison_rows(run, cluster, reference):
    sim = simulated(run, cluster)
    rows = []
    for what, column, unit in ROWS:
        ref = reference.get(column)
        if ref is None and sim.get(column) is None:
            continue
        rows.append([what + UNIT_TEXT[unit], _shown(ref, unit), _shown(sim.get(column), unit),
                     _ratio(sim.get(column), ref)])
    return rows


def table2_html(run, cluster, data_dir=paper.DATA_DIR):
    """The comparison table for a cluster the paper's Table 2 names (Seren, Kalos, ...); None otherwise."""
    reference = paper.table2(cluster, data_dir)
    if reference is None:
        return None
    caption = (f"{cluster}: the paper's Table 2 (Hu et al., NSDI'24; data/acme/{paper.TABLE2_FILE}) next to this "
               "run; ratio = simulated / paper. Counts grow with the run's length and size; run times and GPUs "
               "per job are of the jobs that started (jobs.csv), queueing delays and job counts from summary.json, "
               "GPU-job shares by state from fault_tolerance.trace_states (AcmeTrace's rows).")
    return table([f"{cluster}", "paper", "simulated", "ratio"], comparison_rows(run, cluster, reference), caption)
