"""GPU counts and durations of the synthetic Acme workload model (see fit_acme_workload.py).

GPU counts: the steps of the paper's GPU-count CDFs (cdf_job_gpunum_a_jobs_*, cdf_job_gpunum_b_gputime_*),
read jointly, then split into workload types under box_gpu_num_stats.csv's quartiles and whiskers.
Durations: bins of the paper's 2^k-second grid (cdf_job_duration_queue_*, cdf_job_jobtime_b_*).
"""

import csv
import math
import os
import re

GPUS_PER_NODE = 8  # data/README.md: 8 A100 per node; multi-node jobs take whole nodes
QUARTILE_MARGIN = 0.02  # keep fitted quartiles this far inside the box statistics' bounds
OUTLIER_SEED = 0.01  # prior weight of a box plot outlier value relative to a value inside the whiskers
SPLIT_SWEEPS = 500  # iterative proportional fitting sweeps of the split by type
EXACT_BIN_EDGE_S = 64  # bins up to this edge are summed over their whole seconds


def read_rows(data_dir, name):
    with open(os.path.join(data_dir, name), newline="") as f:
        return list(csv.DictReader(f))


def curve(data_dir, name, x_key="x"):
    return [(float(r[x_key]), max(0.0, float(r["y"])) / 100.0) for r in read_rows(data_dir, name)]


# ---------------------------------------------------------------------------------------------
# GPU counts: steps of the paper's CDFs, read jointly (a step spanning several integers sits where
# the other curve shows mass)


def steps(points):
    """(lo, hi, mass): a jump of the step CDF located in the integer range (lo, hi]."""
    out, prev_x, prev_y = [], 0, 0.0
    for x, y in points:
        x = int(round(x))
        if y - prev_y > 1e-12:
            out.append((prev_x, x, y - prev_y))
        prev_x, prev_y = x, max(prev_y, y)
    return out


def snap(lo, hi):
    """The GPU count inside (lo, hi] nearest its middle; above one node, a whole number of nodes."""
    mid = (lo + hi) / 2.0
    if hi - lo <= 1:
        return hi
    if mid <= GPUS_PER_NODE:
        return int(math.floor(mid + 0.5))
    whole = [g for g in range(lo + 1, hi + 1) if g % GPUS_PER_NODE == 0]
    if whole:
        return min(whole, key=lambda g: (abs(g - mid), g))
    return (lo // GPUS_PER_NODE + 1) * GPUS_PER_NODE


def spread(step_list, other_pmf, weight):
    pmf = {}
    for lo, hi, mass in step_list:
        inside = [g for g in sorted(other_pmf) if lo < g <= hi] if hi - lo > 1 else []
        if not inside:
            g = snap(lo, hi)
            pmf[g] = pmf.get(g, 0.0) + mass
            continue
        total = sum(weight(g, other_pmf[g]) for g in inside)
        for g in inside:
            pmf[g] = pmf.get(g, 0.0) + mass * weight(g, other_pmf[g]) / total
    return pmf


def gpu_pmfs(data_dir, cluster):
    """Job-count pmf over GPU counts, and GPU-time regions (lo, hi, share) of the GPU-time CDF."""
    a_steps = steps(curve(data_dir, f"cdf_job_gpunum_a_jobs_{cluster}.csv"))
    b_steps = steps(curve(data_dir, f"cdf_job_gpunum_b_gputime_{cluster}.csv"))
    b_exact = {snap(lo, hi): m for lo, hi, m in b_steps}
    # jobs of a wide count step: where GPU time shows up, in proportion to GPU time / GPUs
    a_pmf = spread(a_steps, b_exact, lambda g, b: b / g)
    # GPU time of a wide GPU-time step: where jobs are, in proportion to jobs x GPUs
    b_pmf = spread(b_steps, a_pmf, lambda g, a: a * g)
    for g in b_pmf:
        if g not in a_pmf:
            raise SystemExit(f"{cluster}: GPU time at {g} GPUs without jobs there")
    return a_pmf, b_steps, b_pmf


def parse_outliers(text, support):
    """Values of `support` named by box_gpu_num_stats.csv's outlier description ("12,16", "1..1024",
    "32..128 in steps of 8, 256", "~1016-1024"); a count between nodes (12) stands for whole nodes (16)."""
    text = re.sub(r"\(.*?\)", "", text.replace("~", "")).strip()
    chosen = set()
    for token in text.split(","):
        nums = [int(n) for n in re.findall(r"\d+", token)]
        if len(nums) >= 2:
            step = GPUS_PER_NODE if "steps of" in token else 1
            chosen |= {g for g in support if nums[0] <= g <= nums[1] and (g - nums[0]) % step == 0}
        elif nums:
            value = nums[0]
            if value > GPUS_PER_NODE and value % GPUS_PER_NODE:
                value = (value // GPUS_PER_NODE + 1) * GPUS_PER_NODE
            chosen |= {value} & set(support)
    return chosen


def project_cumulative(p, below, target, at_most):
    """Scales p so that P(g in below) is <= (or >=) target, keeping the total."""
    inside = sum(v for g, v in p.items() if below(g))
    if inside <= 0.0 or inside >= 1.0 or (at_most and inside <= target) or (not at_most and inside >= target):
        return
    for g in p:
        p[g] *= target / inside if below(g) else (1.0 - target) / (1.0 - inside)


def split_by_type(a_pmf, box_rows, count_share):
    """Per-type GPU pmfs whose mixture is a_pmf and whose quartiles are the box statistics."""
    pmfs, quartiles = {}, {}
    for t, share in count_share.items():
        row = box_rows[t]
        lo, hi = float(row["whisker_low"]), float(row["whisker_high"])
        outliers = parse_outliers(row["outliers_approx"], a_pmf)
        seed = {g: a for g, a in a_pmf.items() if lo <= g <= hi}
        seed.update({g: a_pmf[g] * OUTLIER_SEED for g in outliers if g not in seed})
        total = sum(seed.values())
        pmfs[t] = {g: v / total for g, v in seed.items()}
        quartiles[t] = [(float(row[k]), level) for k, level in (("q1_gpus", 0.25), ("median_gpus", 0.5), ("q3_gpus", 0.75))]
    for _ in range(SPLIT_SWEEPS):
        for g, a in a_pmf.items():
            mix = sum(count_share[t] * pmfs[t].get(g, 0.0) for t in pmfs)
            for t in pmfs:
                if g in pmfs[t]:
                    pmfs[t][g] *= a / mix
        for t, p in pmfs.items():
            total = sum(p.values())
            for g in p:
                p[g] /= total
            for q, level in quartiles[t]:
                project_cumulative(p, lambda g, q=q: g < q, level - QUARTILE_MARGIN, True)
                project_cumulative(p, lambda g, q=q: g <= q, level + QUARTILE_MARGIN, False)
    return {t: {g: v for g, v in p.items() if v > 1e-9} for t, p in pmfs.items()}


# ---------------------------------------------------------------------------------------------
# Durations: bins of the paper's 2^k grid; within a bin log-uniform, then rounded up to whole seconds


def duration_bins(points, max_s):
    """[(lo, hi, mass)] from a CDF on 2^0..2^21 s; (0, 1] first; the top edge capped at max_s."""
    out, lo, prev = [], 0.0, 0.0
    for x, y in points:
        if y - prev > 1e-12:
            out.append([lo, min(x, max_s), y - prev])
        lo, prev = x, max(prev, y)
    if prev < 1.0 - 1e-12:
        out.append([lo, max_s, 1.0 - prev])
    total = sum(m for _, _, m in out)
    return [(a, b, m / total) for a, b, m in out]


def bin_points(lo, hi, parts=8):
    """Representative whole-second durations (value, weight) of a bin, as the generator draws them: a
    log-uniform value in (lo, hi] rounded up; exact below EXACT_BIN_EDGE_S, else `parts` sub-bins."""
    if lo <= 0.0:
        return [(math.ceil(hi), 1.0)]
    if hi <= EXACT_BIN_EDGE_S:
        span = math.log(hi / lo)
        return [(n, math.log(n / (n - 1.0)) / span) for n in range(int(lo) + 1, int(hi) + 1)]
    r = (hi / lo) ** (1.0 / parts)
    out = []
    for i in range(parts):
        a, b = lo * r ** i, lo * r ** (i + 1)
        out.append(((b - a) / math.log(b / a) + 0.5, 1.0 / parts))
    return out


def bin_mean(lo, hi):
    return sum(d * w for d, w in bin_points(lo, hi))


def solve_tail_edge(bins, target_mean):
    """Upper edge of the open last bin such that the mean duration is target_mean (bisection)."""
    head = sum(m * bin_mean(a, b) for a, b, m in bins[:-1])
    lo_edge, _, tail = bins[-1]
    a, b = lo_edge * 1.0001, lo_edge * 1e4
    for _ in range(200):
        mid = math.sqrt(a * b)
        if head + tail * bin_mean(lo_edge, mid) < target_mean:
            a = mid
        else:
            b = mid
    return math.sqrt(a * b)
