"""Draws the comparison figures of tools/plot with matplotlib's Agg backend (no display needed)."""
import math
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402  (after choosing the backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# The paper's CDF grids (Hu et al., NSDI'24, Figs. 3 and 4): queueing delay 2^0..2^15 s, job
# duration 2^0..2^21 s, both on log2 axes.
QUEUE_MAX_POW2 = 15
DURATION_MAX_POW2 = 21
GPU_MAX_POW2 = 11  # up to 2,048 GPUs per job (the largest Acme pretraining jobs use ~2,000)
JOB_TYPES = ["Pretrain", "SFT", "MLLM", "Evaluation", "Debug", "Other", "CPU"]
FIGURE_WIDTH_PER_PANEL = 3.6
FIGURE_HEIGHT = 3.4


def ecdf(values, floor):
    """Sorted values (clipped below at `floor`, the left edge of a log axis) and their CDF."""
    x = np.sort(np.maximum(np.asarray(values, dtype=float), floor))
    return x, np.arange(1, len(x) + 1) / len(x)


def log2_axis(ax, max_pow2, label):
    ax.set_xscale("log", base=2)
    ax.set_xlim(2**0, 2**max_pow2)
    step = 3 if max_pow2 > 12 else 2
    ax.set_xticks([2**k for k in range(0, max_pow2 + 1, step)])
    ax.set_xticklabels([f"$2^{{{k}}}$" for k in range(0, max_pow2 + 1, step)])
    ax.set_xlabel(label)
    ax.set_ylim(0, 1)
    ax.grid(True, which="major", alpha=0.3)


def present_types(curves):
    found = {j["type"] for c in curves for j in c.jobs}
    return [t for t in JOB_TYPES if t in found] + sorted(found - set(JOB_TYPES))


def cdf_per_type(curves, key, max_pow2, xlabel, title):
    types = present_types(curves)
    if not types:
        return None
    cols = min(4, len(types))
    rows = math.ceil(len(types) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(FIGURE_WIDTH_PER_PANEL * cols, FIGURE_HEIGHT * rows),
                             squeeze=False)
    for ax, job_type in zip(axes.flat, types):
        for c in curves:
            values = [j[key] for j in c.jobs if j["type"] == job_type and j[key] is not None]
            if values:
                x, y = ecdf(values, 1.0)
                ax.step(x, y, where="post", label=c.label)
        log2_axis(ax, max_pow2, xlabel)
        ax.set_title(job_type)
        ax.set_ylabel("CDF")
    for ax in list(axes.flat)[len(types):]:
        ax.set_visible(False)
    axes.flat[0].legend(fontsize="x-small")
    fig.suptitle(title)
    return fig


def gpu_demand_cdf(curves):
    fig, (by_jobs, by_time) = plt.subplots(1, 2, figsize=(2 * FIGURE_WIDTH_PER_PANEL, FIGURE_HEIGHT))
    drew = False
    for c in curves:
        gpu_jobs = [j for j in c.jobs if j["gpus"] > 0]
        if not gpu_jobs:
            continue
        drew = True
        x, y = ecdf([j["gpus"] for j in gpu_jobs], 1.0)
        by_jobs.step(x, y, where="post", label=c.label)
        weights = np.array([j["gpus"] * (j["duration_s"] or 0.0) for j in gpu_jobs])
        order = np.argsort([j["gpus"] for j in gpu_jobs], kind="stable")
        if weights.sum() > 0:
            by_time.step(np.array([gpu_jobs[i]["gpus"] for i in order]), np.cumsum(weights[order]) / weights.sum(),
                         where="post", label=c.label)
    if not drew:
        plt.close(fig)
        return None
    for ax, title in ((by_jobs, "by number of jobs"), (by_time, "by GPU time")):
        log2_axis(ax, GPU_MAX_POW2, "GPUs per job")
        ax.set_title(title)
        ax.set_ylabel("CDF")
    by_jobs.legend(fontsize="x-small")
    fig.suptitle("GPU demand")
    return fig


def timeseries(curves):
    clusters = sorted({r["cluster"] for c in curves for r in c.timeseries})
    if not clusters:
        return None
    fig, axes = plt.subplots(2, len(clusters), figsize=(2 * FIGURE_WIDTH_PER_PANEL * len(clusters), 2 * FIGURE_HEIGHT),
                             squeeze=False, sharex="col")
    for col, cluster in enumerate(clusters):
        for c in curves:
            rows = [r for r in c.timeseries if r["cluster"] == cluster]
            if rows:
                t = [r["time"] for r in rows]
                axes[0][col].plot(t, [r["busy_gpus"] for r in rows], label=c.label)
                axes[1][col].plot(t, [r["queued_jobs"] for r in rows], label=c.label)
        axes[0][col].set_title(f"{cluster}: busy GPUs")
        axes[1][col].set_title(f"{cluster}: queued jobs")
        axes[1][col].xaxis.set_major_formatter(mdates.ConciseDateFormatter(axes[1][col].xaxis.get_major_locator()))
        for ax in axes[:, col]:
            ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize="x-small")
    return fig


def lost_by_category(curve):
    """GPU hours lost per failure category: from summary.json when it breaks them down (any
    *lost*by_category* map of numbers), else from jobs.csv (each job's lost hours split over its
    failures by count)."""
    totals = defaultdict(float)

    def walk(node):
        for key, value in node.items() if isinstance(node, dict) else []:
            if "lost" in key and "category" in key and isinstance(value, dict):
                for cat, hours in value.items():
                    if isinstance(hours, (int, float)):
                        totals[cat] += hours
            elif isinstance(value, dict):
                walk(value)

    walk(curve.summary)
    if totals:
        return dict(totals), "summary.json"
    for job in curve.jobs:
        counts = {}
        for part in filter(None, (job["failures"] or "").split(";")):
            cat, _, n = part.partition(":")
            counts[cat] = counts.get(cat, 0) + (int(n) if n.isdigit() else 1)
        if job["lost_gpu_h"] and counts:
            for cat, n in counts.items():
                totals[cat] += job["lost_gpu_h"] * n / sum(counts.values())
    return dict(totals), "jobs.csv"


def gpu_time_lost(curves):
    per_curve = [(c.label, *lost_by_category(c)) for c in curves]
    categories = sorted({cat for _, totals, _ in per_curve for cat in totals})
    if not categories:
        return None
    fig, ax = plt.subplots(figsize=(max(2 * FIGURE_WIDTH_PER_PANEL, 0.9 * len(categories) * len(curves)),
                                    FIGURE_HEIGHT))
    width = 0.8 / len(per_curve)
    for i, (label, totals, _) in enumerate(per_curve):
        ax.bar(np.arange(len(categories)) + i * width, [totals.get(cat, 0.0) for cat in categories], width,
               label=label)
    ax.set_xticks(np.arange(len(categories)) + 0.4 - width / 2)
    ax.set_xticklabels(categories)
    ax.set_ylabel("GPU hours lost")
    source = per_curve[0][2] if per_curve[0][2] == "summary.json" else "jobs.csv, each job's hours split by its failures"
    ax.set_title(f"GPU time lost by failure category (from {source})")
    ax.legend(fontsize="x-small")
    return fig


def draw_all(curves, out_dir, formats):
    """Writes every figure the data supports; returns the files written."""
    figures = {
        "queue_delay_cdf": cdf_per_type(curves, "queue_s", QUEUE_MAX_POW2, "queueing delay (s)", "Queueing delay"),
        "duration_cdf": cdf_per_type(curves, "duration_s", DURATION_MAX_POW2, "job duration (s)", "Job duration"),
        "gpu_demand_cdf": gpu_demand_cdf(curves),
        "timeseries": timeseries(curves),
        "gpu_time_lost": gpu_time_lost(curves),
    }
    written = []
    for name, fig in figures.items():
        if fig is None:
            continue
        fig.tight_layout()
        for fmt in formats:
            path = out_dir / f"{name}.{fmt}"
            fig.savefig(path, format=fmt)
            written.append(path)
        plt.close(fig)
    return written
