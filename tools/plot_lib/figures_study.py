"""A study's metrics across its points: one figure per axis (keys varied together count as one), each
setting's mean over seeds with its 95% Student t interval (results.json), the other axes as series."""
import re

import numpy as np
from matplotlib.ticker import MaxNLocator

from plot_lib import labels, stats, style

# Per cluster (paths in summary.json's clusters.<name>); scale turns the value into the unit of the label.
STUDY_METRICS = [
    ("by_type.all_gpu.queue_s.mean", "mean queueing delay (s)", 1.0),
    ("by_type.all_gpu.queue_s.p90", "p90 queueing delay (s)", 1.0),
    ("by_type.all_gpu.jct_s.mean", "mean JCT (h)", 1 / 3600.0),
    ("gpu_utilisation", "GPU utilisation (%)", 100.0),
    ("fault_tolerance.gpu_hours_lost", "GPU hours lost", 1.0),
]
WIDE_RANGE = 30.0  # max / min of a panel's values beyond which its value axis is logarithmic
EXTRA_WORDS = ("energy", "power", "kwh", "joule")  # cluster-level numbers of these kinds are added when present
# Of those, the points of a distribution other than its mean (gpu_W.p10, gpu_W.cdf.60) are left out: a
# study compares levels, and 41 CDF points per cluster would bury them.
DISTRIBUTION_POINT = re.compile(r"(^|\.)(p\d+|cdf\..*)$")
# Node hours out of service because a power policy switched nodes off are availability, not energy.
NOT_ENERGY = ("node_availability",)


def study_metrics(source, cluster):
    """The metrics any run of `cluster` has (GPU hours lost only when some run lost any), then every
    energy or power figure the summaries hold."""
    runs = [r for s in source.settings for r in s.runs]
    out = []
    for path, name, scale in STUDY_METRICS:
        values = [stats.lookup(r.summary, f"clusters.{cluster}.{path}") for r in runs]
        if any(v is not None for v in values) and (path != "fault_tolerance.gpu_hours_lost" or any(values)):
            out.append((path, name, scale))
    for r in runs[:1]:
        tree = {k: v for k, v in r.summary.get("clusters", {}).get(cluster, {}).items() if k != "by_type"}
        for path, _ in stats.flatten(tree):
            if (any(w in path.lower() for w in EXTRA_WORDS) and not DISTRIBUTION_POINT.search(path)
                    and not any(w in path for w in NOT_ENERGY)):
                out.append((path, path, 1.0))
    return out


def setting_value(source, setting, cluster, path, scale):
    """(mean, low, high) over the setting's seeds: results.json's interval when it has one."""
    name = f"clusters.{cluster}.{path}"
    agg = source.aggregate.get(setting.group, {}).get(name)
    if agg and agg.get("mean") is not None:
        mean = agg["mean"] * scale
        low = agg["ci95_low"] * scale if agg.get("ci95_low") is not None else mean
        high = agg["ci95_high"] * scale if agg.get("ci95_high") is not None else mean
        return mean, low, high
    values = [stats.lookup(r.summary, name) for r in setting.runs]
    values = [v * scale for v in values if v is not None]
    return (float(np.mean(values)),) * 3 if values else None


def wide_range_scale(ax, values):
    """A logarithmic value axis when the values spread over more than WIDE_RANGE (symlog when some are 0)."""
    positive = [v for v in values if v > 0]
    if not positive or min(values) < 0 or max(positive) / min(positive) <= WIDE_RANGE:
        return False
    if min(values) > 0:
        ax.set_xscale("log")
    else:
        ax.set_xscale("symlog", linthresh=min(positive))
    return True


def axis_figure(source, group):
    """Every metric of every cluster against the columns of one axis group, one row per column (names read
    horizontally, first at the top), the other axes' combinations as series."""
    others = [g for g in source.axis_groups if g is not group and len(g.columns) > 1]
    series = {}
    for s in source.settings:
        key = " \u00b7 ".join(g.names[labels.column_of(g, s.values)] for g in others) or "mean over seeds"
        series.setdefault(key, {})[labels.column_of(group, s.values)] = s
    per_cluster = [(c, m) for c in source.clusters() for m in study_metrics(source, c)]
    if not per_cluster:
        return None
    rows_h = 0.32 * len(group.columns) * max(1, min(len(series), 3)) + 1.0
    fig, axes = style.panels(len(per_cluster), panel_w=2.9, panel_h=max(1.8, rows_h), max_cols=3, sharey=True)
    y = np.arange(len(group.columns))
    height = 0.6 / max(1, len(series))
    handles = {}
    for ax, (cluster, (path, name, scale)) in zip(axes, per_cluster):
        drawn_values = []
        for i, (key, by_column) in enumerate(series.items()):
            points = [(j, setting_value(source, by_column[c], cluster, path, scale))
                      for j, c in enumerate(group.columns) if c in by_column]
            points = [(j, v) for j, v in points if v is not None]
            if not points:
                continue
            ys = np.array([j for j, _ in points]) + (i - (len(series) - 1) / 2) * height
            mean = np.array([v[0] for _, v in points])
            drawn_values += [value for _, v in points for value in v]
            err = np.array([[v[0] - v[1] for _, v in points], [v[2] - v[0] for _, v in points]])
            handles[key] = ax.errorbar(mean, ys, xerr=err, fmt=style.marker(i), markersize=4, capsize=3,
                                       color=style.color(i))
        if not wide_range_scale(ax, drawn_values):
            ax.xaxis.set_major_locator(MaxNLocator(nbins=4))  # a few ticks: long numbers never collide
        ax.set_title(style.plain(f"{cluster}: {name}"))
    axes[0].set_yticks(y)
    axes[0].set_yticklabels([group.names[c] for c in group.columns])
    axes[0].set_ylim(len(group.columns) - 0.5, -0.5)  # the study's first value at the top (shared by all panels)
    if len(series) > 1:
        style.legend_below(fig, handles, list(series))
    seeds = max(len(s.runs) for s in source.settings)
    note = f"mean and 95% interval over {seeds} seeds" if seeds > 1 else "one seed per point"
    style.title(fig, f"Metrics by {group.title} ({note})")
    return fig
