"""Per cluster and job type CDFs on the paper's grids (queueing delay, duration, JCT) and GPU demand,
each setting's seeds drawn as their median with the range as a band, the paper's curve as a reference."""
import numpy as np

from plot_lib import paper, stats, style
from plot_lib.runs import JOB_TYPES

METRICS = {
    # metric: (grid, x label, what, paper reference key or None)
    "queue": (stats.QUEUE_GRID, "queueing delay (s)", "queueing delay", "queue"),
    "duration": (stats.DURATION_GRID, "job duration (s)", "job duration", "duration"),
    "jct": (stats.DURATION_GRID, "job completion time (s)", "JCT (queueing delay + duration)", None),
}


def gpu_types(source, cluster):
    """GPU job types with at least one job in some run of this cluster, in the paper's order."""
    found = set()
    for s in source.settings:
        for r in s.runs:
            found |= {t for t, cols in r.jobs.get(cluster, {}).items() if t != "CPU" and len(cols["queue"])}
            if not r.has_jobs_csv:  # no jobs.csv: the summary's counts say which types ran
                by_type = r.summary.get("clusters", {}).get(cluster, {}).get("by_type", {})
                found |= {t for t in JOB_TYPES if by_type.get(t, {}).get("jobs", 0) - by_type.get(t, {}).get(
                    "rejected", 0) > 0}
    return [t for t in JOB_TYPES if t in found] + sorted(found - set(JOB_TYPES) - {"CPU"})


def run_cdf(run, cluster, job_type, metric, grid):
    cols = run.jobs.get(cluster, {}).get(job_type)
    if cols is not None:
        return stats.grid_cdf(cols[metric], grid)
    if metric == "queue" and not run.has_jobs_csv:  # the summary's queue_cdf is on the same grid
        cdf = run.summary.get("clusters", {}).get(cluster, {}).get("by_type", {}).get(job_type, {}).get("queue_cdf")
        if cdf:
            return np.array([cdf.get(str(int(x)), np.nan) for x in grid], dtype=float) * 100.0
    return None


def draw_setting(ax, x, agg, index, label, steps=False):
    """The median over seeds (markers on the grid points; a step line for a dense grid) and their range."""
    median, low, high, n = agg
    x = np.asarray(x, dtype=float)
    if steps:  # keep only where the curve changes (and the last point): the same steps, a fraction of the points
        change = np.ones(len(x), dtype=bool)
        change[1:] = (np.diff(median) != 0) | (np.diff(low) != 0) | (np.diff(high) != 0)
        change[-1] = True
        x, median, low, high = x[change], median[change], low[change], high[change]
    kwargs = {"drawstyle": "steps-post"} if steps else {"marker": style.marker(index), "markersize": 3}
    (line,) = ax.plot(x, median, linewidth=1.5, color=style.color(index), label=style.plain(label), **kwargs)
    if n > 1:
        ax.fill_between(x, low, high, color=style.color(index), alpha=style.BAND_ALPHA, linewidth=0,
                        step="post" if steps else None)
    return line


SUPERSCRIPT = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


def power_of_two(k):
    """"2" with k as superscript digits: plain text (mathtext costs a parse per label and draw)."""
    return "2" + str(k).translate(SUPERSCRIPT)


def log2_axis(ax, grid, xlabel):
    top = int(round(np.log2(grid[-1])))
    ax.set_xscale("log", base=2)
    ax.set_xlim(grid[0], grid[-1])
    step = 3 if top > 12 else 2
    ax.set_xticks([2.0**k for k in range(0, top + 1, step)])
    ax.set_xticklabels([power_of_two(k) for k in range(0, top + 1, step)])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylim(-1, 101)


def cdf_figure(source, cluster, metric):
    """One panel per GPU job type of `cluster` that has jobs; None when there are none (or no data)."""
    grid, xlabel, what, ref_key = METRICS[metric]
    curves = {}
    for job_type in gpu_types(source, cluster):
        for i, s in enumerate(source.settings):
            agg = stats.across_seeds([run_cdf(r, cluster, job_type, metric, grid) for r in s.runs])
            if agg is not None:
                curves.setdefault(job_type, []).append((i, s, agg))
    if not curves:
        return None
    fig, axes = style.panels(len(curves))
    handles = {}
    for ax, (job_type, drawn) in zip(axes, curves.items()):
        for i, s, agg in drawn:
            handles.setdefault(s.label, draw_setting(ax, grid, agg, i, s.label))
        ref = paper.reference(ref_key, cluster, job_type) if ref_key else None
        if ref:
            (handles["paper"],) = ax.plot(*ref, label="paper", **style.REFERENCE_STYLE)
        log2_axis(ax, grid, xlabel)
        ax.set_title(job_type + panel_count(source, cluster, job_type))
    for ax in style.left_column(axes):
        ax.set_ylabel("CDF (%)")
    style.legend_below(fig, handles, [s.label for s in source.settings],
                       {"paper": f"paper (Acme {cluster.capitalize()}, Hu et al. NSDI'24)"})
    style.title(fig, f"{cluster}: {what} of GPU jobs by type")
    return fig


def panel_count(source, cluster, job_type):
    """ " (n = 1,234 jobs)" for a single run; "" for a study (settings differ)."""
    if len(source.settings) != 1 or len(source.settings[0].runs) != 1:
        return ""
    run = source.settings[0].runs[0]
    cols = run.jobs.get(cluster, {}).get(job_type)
    n = len(cols["queue"]) if cols is not None else None
    return f" (n = {n:,})" if n is not None else ""


def gpu_demand_figure(source, cluster):
    """CDF of GPU jobs and of GPU time over GPUs per job (paper Fig. 3), with the paper's curves."""
    grid = [float(g) for g in range(1, 2049)]
    by_jobs, by_time = [], []
    for i, s in enumerate(source.settings):
        rows_jobs, rows_time = [], []
        for r in s.runs:
            cols = [c for t, c in r.jobs.get(cluster, {}).items() if t != "CPU"]
            if not cols:
                continue
            gpus = np.concatenate([c["gpus"] for c in cols])
            time = np.concatenate([c["gpus"] * c["duration"] for c in cols])
            rows_jobs.append(stats.grid_cdf(gpus, grid))
            order = np.argsort(gpus, kind="stable")
            cum = np.cumsum(time[order])
            if cum[-1] > 0:
                rows_time.append(cum[np.searchsorted(gpus[order], grid, side="right") - 1] / cum[-1] * 100.0)
        for rows, out in ((rows_jobs, by_jobs), (rows_time, by_time)):
            agg = stats.across_seeds(rows)
            if agg is not None:
                out.append((i, s, agg))
    if not by_jobs:
        return None
    fig, axes = style.panels(2)
    handles = {}
    for ax, drawn, name, ylabel in ((axes[0], by_jobs, "jobs", "CDF of GPU jobs (%)"),
                                    (axes[1], by_time, "gputime", "CDF of GPU time (%)")):
        for i, s, agg in drawn:
            handles.setdefault(s.label, draw_setting(ax, grid, agg, i, s.label, steps=True))
        ref = paper.gpu_reference(cluster, name)
        if ref:
            (handles["paper"],) = ax.plot(*ref, drawstyle="steps-post", **style.REFERENCE_STYLE)
        log2_axis(ax, [1.0, 2048.0], "GPUs per job")
        ax.set_ylabel(ylabel)
    axes[0].set_title("by number of jobs")
    axes[1].set_title("by GPU time")
    style.legend_below(fig, handles, [s.label for s in source.settings],
                       {"paper": f"paper (Acme {cluster.capitalize()}, Hu et al. NSDI'24)"})
    style.title(fig, f"{cluster}: GPU demand")
    return fig
