#!/usr/bin/env python3
"""Fits the synthetic Acme workload model to the paper's data and writes its parameter file.

Reads data/acme/*.csv (Hu et al., NSDI'24, AcmeTrace; see data/README.md) and writes
workloads/synthetic/acme_params.txt, which the generator (workloads/synthetic/) compiles in.
Python 3 standard library only. Deterministic: the same data gives the same bytes.

usage: tools/fit_acme_workload.py [--data DIR] [--out FILE] [--check]
  --check   exit 1 (and name the first differing line) when FILE is not what the data gives

The model, per cluster (Seren, Kalos), and the file each part comes from:
  * job counts, maximum run time, total GPU time: cluster_summary.csv (paper Table 2)
  * type shares of jobs and of GPU time: treemap_job_dist_shares.csv
  * GPU-count pmf per type: cdf_job_gpunum_a_jobs_<C>.csv split into types under the quartile and
    whisker constraints of box_gpu_num_stats.csv (iterative proportional fitting)
  * duration bins per type (the paper's 2^k grid): cdf_job_duration_queue_{a_seren,c_kalos}_duration_<T>.csv
  * the joint law of (GPU count, duration bin) per type: iterative scaling that keeps both marginals
    and matches the type shares of GPU time and cdf_job_gpunum_b_gputime_<C>.csv at the total GPU
    time of Table 2
  * final state given (GPUs, duration): bar_job_state.csv (shares by count and GPU time) and the
    infrastructure shares of failed jobs in data/README.md
  * CPU jobs: cdf_job_jobtime_b_cpu_job_duration_<C>.csv, Table 2 mean run time and state rates
"""

import argparse
import csv
import math
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTERS = ["Seren", "Kalos"]
TYPES = ["Pretrain", "SFT", "MLLM", "Eval", "Debug", "Other"]  # order of model::JobType
CURVE_TYPE = {"Eval": "Evaluation"}  # file names spell Eval out
GPUS_PER_NODE = 8  # data/README.md: 8 A100 per node; multi-node jobs take whole nodes
QUARTILE_MARGIN = 0.02  # keep fitted quartiles this far inside the box statistics' bounds
OUTLIER_SEED = 0.01  # prior weight of a box plot outlier value relative to a value inside the whiskers
INFRA_SHARE_FAILED_COUNT = 0.11  # data/README.md: infrastructure ~11% of failed jobs
INFRA_SHARE_FAILED_GPU_TIME = 0.82  # data/README.md: >82% of the GPU time of failed jobs
FIT_SWEEPS = 100  # iterative scaling sweeps of the final fit (its residuals are printed)
SEARCH_SWEEPS = 30  # sweeps per trial of the search for the GPU time per job
SEARCH_STEPS = 16  # golden-section steps of that search
TOTAL_GT_RANGE = 2.0
EXACT_BIN_EDGE_S = 64  # bins up to this edge are summed over their whole seconds
STATE_FIT_BIN_PARTS = 2
STATE_FIT_ITERATIONS = 600  # Nelder-Mead iterations per restart (two restarts)  # sub-bins per duration bin in the state fit (a smooth model: coarse is enough)  # the search spans Table 2's GPU time per job divided and multiplied by this


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
    for _ in range(FIT_SWEEPS * 5):
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


# ---------------------------------------------------------------------------------------------
# Joint law of (GPU count, duration bin) per type


class TypeModel:
    def __init__(self, share, gpu_pmf, bins):
        self.share = share  # share of the cluster's GPU jobs
        self.gpus = sorted(gpu_pmf)
        self.gpu_pmf = [gpu_pmf[g] for g in self.gpus]
        self.bins = bins
        self.means = [bin_mean(a, b) for a, b, _ in bins]
        self.mean_duration = sum(m * mu for (_, _, m), mu in zip(bins, self.means))
        # gt[i]: GPU-s per cluster GPU job held by this type's jobs of gpus[i] GPUs (independence to start)
        self.gt = [share * p * g * self.mean_duration for g, p in zip(self.gpus, self.gpu_pmf)]
        self.cond = [[m for _, _, m in bins] for _ in self.gpus]  # P(bin k | gpus[i])
        self.bounds = [(tail_mean(bins, self.means, p, False), tail_mean(bins, self.means, p, True))
                       for p in self.gpu_pmf]

    def reset_gpu_time(self):
        self.gt = [self.share * p * g * self.mean_duration for g, p in zip(self.gpus, self.gpu_pmf)]

    def clamp_gpu_time(self):
        """Keeps each cell's mean duration between the mean of the shortest and of the longest durations
        of the type that its share of jobs could take."""
        for i, (g, p) in enumerate(zip(self.gpus, self.gpu_pmf)):
            jobs = self.share * p * g
            self.gt[i] = min(max(self.gt[i], jobs * self.bounds[i][0]), jobs * self.bounds[i][1])

    def gpu_time(self, keep=lambda g: True):
        return sum(v for g, v in zip(self.gpus, self.gt) if keep(g))

    def fit_type_totals(self, target_gt):
        """Scales and tilts gt[] by g^-lam so that the type holds target_gt and its jobs' mean duration stays
        the marginal's (sum over g of jobs x conditional mean duration = share x mean duration)."""
        want = self.share * self.mean_duration
        base = list(self.gt)

        def at(lam):
            w = [v * g ** -lam for v, g in zip(base, self.gpus)]
            scale = target_gt / sum(w)
            return [v * scale for v in w]

        lo, hi = -4.0, 4.0
        for _ in range(50):
            mid = (lo + hi) / 2
            if sum(v / g for v, g in zip(at(mid), self.gpus)) < want:
                lo = mid
            else:
                hi = mid
        self.gt = at((lo + hi) / 2)

    def fit_conditionals(self, sweeps):
        """P(bin | gpus) = beta_k mu_k^lam_i, normalised: row i has mean duration gt[i] / (jobs x g), the
        mixture over GPU counts keeps the duration marginal (iterative scaling)."""
        logs = [math.log(mu) for mu in self.means]
        marginal = [m for _, _, m in self.bins]
        log_beta = [math.log(m) if m > 0 else -1e9 for m in marginal]
        target = [v / (self.share * p * g) for v, p, g in zip(self.gt, self.gpu_pmf, self.gpus)]
        lam = [0.0] * len(self.gpus)
        for _ in range(sweeps):
            for i in range(len(self.gpus)):
                lam[i], self.cond[i] = tilted_row(log_beta, logs, self.means, target[i], lam[i])
            for k in range(len(self.bins)):
                col = sum(p * row[k] for p, row in zip(self.gpu_pmf, self.cond))
                if col > 0 and marginal[k] > 0:
                    log_beta[k] += math.log(marginal[k] / col)
        realised = [sum(c * mu for c, mu in zip(row, self.means)) for row in self.cond]
        self.gt = [self.share * p * g * m for p, g, m in zip(self.gpu_pmf, self.gpus, realised)]


def tail_mean(bins, means, fraction, longest):
    """Mean of the shortest (or longest) `fraction` of durations, bin by bin."""
    order = range(len(bins) - 1, -1, -1) if longest else range(len(bins))
    left, total = fraction, 0.0
    for k in order:
        take = min(left, bins[k][2])
        total += take * means[k]
        left -= take
        if left <= 0:
            break
    return total / fraction


def tilted_row(log_beta, logs, means, target_mean, lam):
    def row(l):
        e = [b + l * x for b, x in zip(log_beta, logs)]
        top = max(e)
        w = [math.exp(v - top) for v in e]
        s = sum(w)
        return [v / s for v in w]

    lo, hi = -6.0, 6.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if sum(c * mu for c, mu in zip(row(mid), means)) < target_mean:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    return lam, row(lam)


def fit_gpu_time(models, type_gt_share, b_steps, total_gt, sweeps):
    """GPU time per (type, GPU count), at `total_gt` GPU-s per GPU job: each type holds its share, GPU time
    by GPU count follows the GPU-time CDF, each type keeps its mean duration, and each cell's mean
    duration stays within what its share of the type's durations allows (iterative scaling).
    Returns the largest gap between the fitted and the paper's GPU-time CDF at the paper's steps."""
    for m in models.values():
        m.reset_gpu_time()
    scale = total_gt / sum(m.gpu_time() for m in models.values())
    for m in models.values():
        m.gt = [v * scale for v in m.gt]
    for _ in range(sweeps):
        for lo, hi, mass in b_steps:
            inside = sum(m.gpu_time(lambda g: lo < g <= hi) for m in models.values())
            if inside > 0:
                for m in models.values():
                    m.gt = [v * mass * total_gt / inside if lo < g <= hi else v for g, v in zip(m.gpus, m.gt)]
        for t, m in models.items():
            m.clamp_gpu_time()
            m.fit_type_totals(type_gt_share[t] * total_gt)
    return b_curve_gap(models, b_steps)


def b_curve_gap(models, b_steps):
    total = sum(m.gpu_time() for m in models.values())
    worst, fit, ref = 0.0, 0.0, 0.0
    for lo, hi, mass in b_steps:
        ref += mass
        fit += sum(m.gpu_time(lambda g: lo < g <= hi) for m in models.values()) / total
        worst = max(worst, abs(fit - ref))
    return worst


def fit_joint(models, type_gt_share, b_steps, table2_gt):
    """Chooses the GPU time per GPU job (golden-section search in log space around Table 2's value) that
    lets the type shares, the GPU-time CDF and the duration marginals agree best, fits the GPU time per
    (type, GPU count) there, then the duration bins given the GPU count that realise it."""
    lo, hi = math.log(table2_gt / TOTAL_GT_RANGE), math.log(table2_gt * TOTAL_GT_RANGE)
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    gap = lambda x: fit_gpu_time(models, type_gt_share, b_steps, math.exp(x), SEARCH_SWEEPS)
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = gap(a), gap(b)
    for _ in range(SEARCH_STEPS):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = gap(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = gap(b)
    total_gt = math.exp((lo + hi) / 2)
    fit_gpu_time(models, type_gt_share, b_steps, total_gt, FIT_SWEEPS)
    for m in models.values():
        m.fit_conditionals(FIT_SWEEPS)
    return total_gt


# ---------------------------------------------------------------------------------------------
# Final states: P(state | GPUs g, duration d)
#   infrastructure failure: 1 - exp(-base - lam * g * d) (a chance per job, e.g. storage or connection
#   errors, plus a hazard per GPU-second: mid-run, in large jobs)
#   else multinomial logit in ln d: completed 1, cancelled exp(ac + bc ln d), failed early exp(af + bf ln d)


def state_probs(params, g, d):
    ac, bc, af, bf, log_lam, log_base = params
    infra = 1.0 - math.exp(-math.exp(log_base) - math.exp(log_lam) * g * d)
    ln_d = math.log(d)
    wc = math.exp(max(-50.0, min(50.0, ac + bc * ln_d)))
    wf = math.exp(max(-50.0, min(50.0, af + bf * ln_d)))
    z = 1.0 + wc + wf
    rest = 1.0 - infra
    return rest / z, rest * wc / z, rest * wf / z, infra  # completed, cancelled, failed early, infra


def state_shares(params, points):
    """Expected shares (completed, cancelled, failed early, infrastructure) by count and by GPU time."""
    ac, bc, af, bf, log_lam, log_base = params
    lam, base = math.exp(log_lam), math.exp(log_base)
    count = [0.0] * 4
    gt = [0.0] * 4
    for gd, ln_d, w, wgd in points:
        infra = 1.0 - math.exp(-base - lam * gd)
        wc = math.exp(max(-50.0, min(50.0, ac + bc * ln_d)))
        wf = math.exp(max(-50.0, min(50.0, af + bf * ln_d)))
        rest = (1.0 - infra) / (1.0 + wc + wf)
        probs = (rest, rest * wc, rest * wf, infra)
        for s in range(4):
            count[s] += w * probs[s]
            gt[s] += wgd * probs[s]
    return count, gt


def state_error(params, points, target):
    count, gt = state_shares(params, points)
    n, t = sum(count), sum(gt)
    fail_n, fail_t = count[2] + count[3], gt[2] + gt[3]
    got = [count[1] / n, fail_n / n, gt[1] / t, fail_t / t, count[3] / fail_n, gt[3] / fail_t]
    return sum((a - b) ** 2 for a, b in zip(got, target))


def nelder_mead(f, x0, step, iters=3000):
    pts = [list(x0)] + [[x + (step if j == i else 0.0) for j, x in enumerate(x0)] for i in range(len(x0))]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(len(pts)), key=lambda i: vals[i])
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        centre = [sum(p[j] for p in pts[:-1]) / (len(pts) - 1) for j in range(len(x0))]
        refl = [c + (c - w) for c, w in zip(centre, pts[-1])]
        fr = f(refl)
        if fr < vals[0]:
            exp_ = [c + 2 * (c - w) for c, w in zip(centre, pts[-1])]
            fe = f(exp_)
            pts[-1], vals[-1] = (exp_, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = [c + 0.5 * (w - c) for c, w in zip(centre, pts[-1])]
            fc = f(con)
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                pts = [pts[0]] + [[b + 0.5 * (p - b) for b, p in zip(pts[0], q)] for q in pts[1:]]
                vals = [vals[0]] + [f(p) for p in pts[1:]]
    best = min(range(len(pts)), key=lambda i: vals[i])
    return pts[best], vals[best]


def joint_points(models):
    """(g, d, weight) over every type, bin and representative duration."""
    acc = {}
    for m in models.values():
        for i, g in enumerate(m.gpus):
            for k, (a, b, _) in enumerate(m.bins):
                cell = m.share * m.gpu_pmf[i] * m.cond[i][k]
                if cell <= 0:
                    continue
                points = [(math.ceil(b), 1.0)] if a <= 0 else bin_points(max(a, 1.0), b, STATE_FIT_BIN_PARTS)
                if 0 < a and b <= EXACT_BIN_EDGE_S:
                    points = [(sum(d * w for d, w in bin_points(a, b)), 1.0)]
                for d, w in points:
                    acc[(g, d)] = acc.get((g, d), 0.0) + cell * w
    return [(g * d, math.log(d), w, w * g * d) for (g, d), w in sorted(acc.items())]


def fit_states(points, state_row_count, state_row_gt):
    target = [state_row_count["cancelled"], state_row_count["failed"], state_row_gt["cancelled"],
              state_row_gt["failed"], INFRA_SHARE_FAILED_COUNT, INFRA_SHARE_FAILED_GPU_TIME]
    start = [-3.0, 0.3, 0.5, -0.2, math.log(1e-9), math.log(0.01)]
    best, err = nelder_mead(lambda p: state_error(p, points, target), start, 0.5, STATE_FIT_ITERATIONS)
    best, err = nelder_mead(lambda p: state_error(p, points, target), best, 0.1, STATE_FIT_ITERATIONS)
    return best, target


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

    gpu_jobs = int(float(summary["gpu_job_num"]))
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=os.path.join(REPO, "data", "acme"))
    parser.add_argument("--out", default=os.path.join(REPO, "workloads", "synthetic", "acme_params.txt"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = build(args.data)
    if args.check:
        with open(args.out) as f:
            old = f.read()
        if old != text:
            for n, (a, b) in enumerate(zip(old.splitlines(), text.splitlines()), 1):
                if a != b:
                    print(f"{args.out}:{n}: out of date; rerun tools/fit_acme_workload.py", file=sys.stderr)
                    return 1
            print(f"{args.out}: out of date (length); rerun tools/fit_acme_workload.py", file=sys.stderr)
            return 1
        return 0
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
