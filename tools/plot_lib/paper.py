"""The paper's own curves and Table 2 (data/acme, Hu et al., NSDI'24, AcmeTrace; CC BY 4.0) as references in plots
and tables."""
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


# The paper's Table 2 (per-cluster job statistics of Seren, Kalos and, for comparison, Philly, Helios and
# PAI; data/README.md): seconds for times, fractions 0..1 for rates, an empty cell where the paper has none.
TABLE2_FILE = "cluster_summary.csv"


def table2(cluster, data_dir=DATA_DIR):
    """{column: value or None} of the paper's Table 2 row whose id is the cluster's name (case ignored);
    None when the table has no such cluster or the file is missing."""
    path = data_dir / TABLE2_FILE
    if not path.is_file():
        return None
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            if row.get("id", "").lower() == str(cluster).lower():
                return {k: (float(v) if v not in ("", None) else None) for k, v in row.items() if k != "id"}
    return None
