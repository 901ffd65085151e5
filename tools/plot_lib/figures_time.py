"""Time series per cluster (every column of timeseries.csv that changes: utilisation, queue length, power
when the run records it, ...) and failures with the GPU time they cost."""
import matplotlib.dates as mdates
import numpy as np

from plot_lib import stats, style

MAX_TIME_POINTS = 1500  # longer series are averaged into this many bins (time averages stay time averages)
# How the known timeseries.csv columns are titled; any other column is drawn under its own name.
COLUMN_TITLES = {
    "busy_gpus": "GPU utilisation (%)",
    "queued_jobs": "queued jobs",
    "queued_gpus": "GPUs requested by queued jobs",
    "running_jobs": "running jobs",
    "up_nodes": "nodes up",
}
# GPU hours by cause (summary.json fault_tolerance; "a.b" reads a nested key): lost to failures, of which
# rolled back; checkpoint stalls and restores; slow nodes; other jobs' work lost to restarts that preempted them.
FAULT_HOURS = [("gpu_hours_lost", "lost"), ("rollback_gpu_hours", "rollback"),
               ("checkpoint_stall_gpu_hours", "ckpt stall"), ("restore_gpu_hours", "restore"),
               ("straggler_gpu_hours_lost", "slow nodes"), ("second_order.gpu_hours_lost", "preempted")]


def series_columns(source, cluster):
    names = []
    for s in source.settings:
        for r in s.runs:
            names += [c for c in r.timeseries.get(cluster, {}) if c != "time" and c not in names]
    known = [c for c in COLUMN_TITLES if c in names]
    return known + [c for c in names if c not in COLUMN_TITLES]


def constant_columns(source, cluster):
    """{column: value} of the timeseries.csv columns that hold one value in every sample of every run (e.g.
    nodes_off without a power policy): a flat line says nothing a sentence does not, so they are not drawn."""
    constant = {}
    for column in series_columns(source, cluster):
        values = set()
        for s in source.settings:
            for r in s.runs:
                series = r.timeseries.get(cluster, {}).get(column)
                if series is not None:
                    values.update(np.unique(series[~np.isnan(series)]).tolist())
        if len(values) == 1:
            constant[column] = values.pop()
    return constant


def column_values(run, cluster, column):
    series = run.timeseries.get(cluster, {})
    if column not in series:
        return None, None
    values = series[column]
    if column == "busy_gpus":  # as a share of the cluster's GPUs
        gpus = run.summary.get("clusters", {}).get(cluster, {}).get("gpus")
        if not gpus:
            return None, None
        values = values / gpus * 100.0
    return series["time"], values


def timeseries_figure(source, cluster):
    flat = constant_columns(source, cluster)
    columns = [c for c in series_columns(source, cluster) if c not in flat]
    if not columns:
        return None
    fig, axes = style.panels(len(columns), panel_w=4.6, panel_h=2.3, max_cols=2, sharex=True)
    handles = {}
    for ax, column in zip(axes, columns):
        for i, s in enumerate(source.settings):
            drawn = [column_values(r, cluster, column) for r in s.runs]
            drawn = [(t, v) for t, v in drawn if t]
            if not drawn:
                continue
            n = min(len(t) for t, _ in drawn)
            times, _ = stats.downsample(drawn[0][0][:n], drawn[0][1][:n], MAX_TIME_POINTS)
            agg = stats.across_seeds([stats.downsample(t[:n], v[:n], MAX_TIME_POINTS)[1] for t, v in drawn])
            median, low, high, count = agg
            (line,) = ax.plot(times, median, linewidth=1.0, color=style.color(i))
            if count > 1:
                ax.fill_between(times, low, high, color=style.color(i), alpha=style.BAND_ALPHA, linewidth=0)
            handles.setdefault(s.label, line)
        ax.set_title(style.plain(COLUMN_TITLES.get(column, column)))
        time_axis(ax, local_zone(source, cluster))
    if len(source.settings) > 1 or len(source.settings[0].runs) > 1:
        style.legend_below(fig, handles, [s.label for s in source.settings])
    zone = local_zone(source, cluster)
    style.title(fig, f"{cluster}: over time (timeseries.csv; local time, {zone.tzname(None) if zone else 'UTC'})")
    return fig


def local_zone(source, cluster):
    """The cluster's own time zone (its timeseries.csv stamps carry the UTC offset)."""
    for s in source.settings:
        for r in s.runs:
            times = r.timeseries.get(cluster, {}).get("time")
            if times:
                return times[0].tzinfo
    return None


def time_axis(ax, zone):
    locator = mdates.AutoDateLocator(minticks=3, maxticks=7, tz=zone)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, tz=zone))
    ax.tick_params(axis="x", labelbottom=True)


def fault_values(source, cluster, field, key=None):
    """Per setting: (median, low, high) over seeds of fault_tolerance[field] (or [field][key]); a dotted
    field ("second_order.gpu_hours_lost") reads a nested key."""
    out = []
    for s in source.settings:
        values = []
        for r in s.runs:
            node = r.summary.get("clusters", {}).get(cluster, {}).get("fault_tolerance", {})
            for part in field.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            node = node.get(key) if isinstance(node, dict) and key is not None else node
            if isinstance(node, (int, float)):
                values.append(float(node))
        out.append((np.median(values), min(values), max(values)) if values else (0.0, 0.0, 0.0))
    return out


def bars(ax, source, names, values_of):
    """Grouped bars: one group per name, one bar per setting (its median; whiskers: the seeds' range)."""
    width = 0.8 / max(1, len(source.settings))
    handles = {}
    for i, s in enumerate(source.settings):
        vals = [values_of(name)[i] for name in names]
        x = np.arange(len(names)) + (i - (len(source.settings) - 1) / 2) * width
        med = np.array([v[0] for v in vals])
        err = np.array([[v[0] - v[1] for v in vals], [v[2] - v[0] for v in vals]])
        handles[s.label] = ax.bar(x, med, width, color=style.color(i),
                                  yerr=err if len(s.runs) > 1 else None, capsize=2)
    ax.set_xticks(np.arange(len(names)))
    return handles


def failures_figure(source):
    """Per cluster: failures by category (when any) and the GPU hours lost, rolled back, stalled for
    checkpoints, spent restoring (failures and preemptions), lost to slow nodes and lost by jobs a restart
    preempted; None when no run has any of these."""
    panels = []
    for cluster in source.clusters():
        categories = sorted({k for s in source.settings for r in s.runs for k, v in r.summary["clusters"].get(
            cluster, {}).get("fault_tolerance", {}).get("failures_by_category", {}).items() if v})
        if categories:
            panels.append((cluster, "categories", categories))
        if any(v[2] > 0 for field, _ in FAULT_HOURS for v in fault_values(source, cluster, field)):
            panels.append((cluster, "hours", [f for f, _ in FAULT_HOURS]))
    if not panels:
        return None
    fig, axes = style.panels(len(panels), panel_w=4.4, panel_h=2.6, max_cols=2)
    handles = {}
    for ax, (cluster, kind, names) in zip(axes, panels):
        if kind == "categories":
            handles.update(bars(ax, source, names,
                                lambda k, c=cluster: fault_values(source, c, "failures_by_category", k)))
            ax.set_xticklabels(names, rotation=30, ha="right")
            ax.set_title(style.plain(f"{cluster}: failures by category"))
            ax.set_ylabel("failures")
        else:
            handles.update(bars(ax, source, names, lambda f, c=cluster: fault_values(source, c, f)))
            ax.set_xticklabels([name for _, name in FAULT_HOURS], rotation=45, ha="right")
            ax.set_title(style.plain(f"{cluster}: GPU hours lost or spent on recovery"))
            ax.set_ylabel("GPU hours")
    if len(source.settings) > 1:
        style.legend_below(fig, handles, [s.label for s in source.settings])
    style.title(fig, "Failures, preemptions and the GPU time they cost")
    return fig
