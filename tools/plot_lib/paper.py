"""The paper's own curves (data/acme, Hu et al., NSDI'24, AcmeTrace; CC BY 4.0) as references in plots."""
import csv
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "acme"

# Fig. 4 of the paper: (a) Seren duration, (b) Seren queueing delay, (c) Kalos duration, (d) Kalos
# queueing delay, one curve per job type (data/README.md). Queueing-delay curves exist only for
# Seren Pretrain/SFT/Debug and Kalos Pretrain/Debug.
FILE_PATTERNS = {
    ("queue", "seren"): "cdf_job_duration_queue_b_seren_queue_{}.csv",
    ("queue", "kalos"): "cdf_job_duration_queue_d_kalos_queue_{}.csv",
    ("duration", "seren"): "cdf_job_duration_queue_a_seren_duration_{}.csv",
    ("duration", "kalos"): "cdf_job_duration_queue_c_kalos_duration_{}.csv",
}


def _curve(path):
    xs, ys = [], []
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            xs.append(float(row["x"]))
            ys.append(float(row["y"]))
    return xs, ys


def reference(metric, cluster, job_type, data_dir=DATA_DIR):
    """(x in s, CDF in %) of the paper's curve for this metric ("queue" or "duration"), Acme cluster
    (by name: seren, kalos) and job type; None when the paper has none."""
    pattern = FILE_PATTERNS.get((metric, cluster.lower()))
    if pattern is None:
        return None
    path = data_dir / pattern.format(job_type)
    return _curve(path) if path.is_file() else None


def gpu_reference(cluster, kind, data_dir=DATA_DIR):
    """(GPUs, CDF in %) of the paper's Fig. 3 for an Acme cluster: kind "jobs" (share of GPU jobs) or
    "gputime" (share of GPU time); None for other clusters."""
    name = {"seren": "Seren", "kalos": "Kalos"}.get(cluster.lower())
    if name is None:
        return None
    path = data_dir / f"cdf_job_gpunum_{'a_jobs' if kind == 'jobs' else 'b_gputime'}_{name}.csv"
    return _curve(path) if path.is_file() else None
