"""Resilience per cluster: the GPU time failures cost by cause (summary.json
fault_tolerance.lost_by_cause_gpu_hours) and the distribution of pretraining runs' ETTR (runs.csv)."""
import csv

import numpy as np

from plot_lib import style
from plot_lib.figures_time import bars, fault_values

# summary.json fault_tolerance.lost_by_cause_gpu_hours, in the order a failure costs them (docs/failures.md).
CAUSES = [("rollback", "rollback"), ("detection", "detection"), ("restart", "restart"),
          ("stragglers", "slow nodes"), ("second_order", "preempted")]


def run_ettrs(run, cluster):
    """ETTR of every pretraining run of `cluster` in the run's runs.csv (empty when it has none)."""
    path = run.path / "runs.csv"
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for row in rows:
        try:
            if row.get("cluster") == cluster and row.get("type") == "Pretrain":
                out.append(float(row["ettr"]))
        except (KeyError, ValueError):
            continue
    return out


def lost_by_cause_figure(source):
    """Per cluster: GPU hours lost by cause (median over seeds, whiskers their range); None when nothing
    was lost in any run."""
    clusters = [c for c in source.clusters()
                if any(v[2] > 0 for key, _ in CAUSES for v in fault_values(source, c, "lost_by_cause_gpu_hours", key))]
    if not clusters:
        return None
    fig, axes = style.panels(len(clusters), panel_w=4.4, panel_h=2.6, max_cols=2)
    handles = {}
    for ax, cluster in zip(axes, clusters):
        handles.update(bars(ax, source, [k for k, _ in CAUSES],
                            lambda k, c=cluster: fault_values(source, c, "lost_by_cause_gpu_hours", k)))
        ax.set_xticklabels([name for _, name in CAUSES], rotation=30, ha="right")
        ax.set_title(style.plain(f"{cluster}: GPU hours lost by cause"))
        ax.set_ylabel("GPU hours")
    if len(source.settings) > 1:
        style.legend_below(fig, handles, [s.label for s in source.settings])
    style.title(fig, "Where failures cost GPU time")
    return fig


def ettr_figure(source):
    """Per cluster: the CDF of pretraining runs' ETTR (productive share of their wall time), one line per
    setting with its seeds pooled; None when no run has pretraining runs with failures."""
    panels = []
    for cluster in source.clusters():
        per_setting = [[e for r in s.runs for e in run_ettrs(r, cluster)] for s in source.settings]
        if any(values and min(values) < 1.0 for values in per_setting):
            panels.append((cluster, per_setting))
    if not panels:
        return None
    fig, axes = style.panels(len(panels), panel_w=4.4, panel_h=2.8, max_cols=2)
    handles = {}
    for ax, (cluster, per_setting) in zip(axes, panels):
        for i, (s, values) in enumerate(zip(source.settings, per_setting)):
            if not values:
                continue
            x = np.sort(np.array(values))
            y = np.arange(1, len(x) + 1) / len(x)
            (handles[s.label],) = ax.step(x, y, where="post", color=style.color(i), marker=style.marker(i),
                                          markevery=max(1, len(x) // 8), markersize=3)
        ax.set_title(style.plain(f"{cluster}: ETTR of pretraining runs"))
        ax.set_xlabel("ETTR (productive share of the run's wall time)")
        ax.set_ylabel("share of runs")
        ax.set_ylim(0, 1.02)
    if len(source.settings) > 1:
        style.legend_below(fig, handles, [s.label for s in source.settings])
    style.title(fig, "ETTR per pretraining run")
    return fig
