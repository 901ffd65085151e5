"""Every figure of a run or study, in reading order; shared by tools/plot (PNG, PDF) and tools/report (SVG)."""
import re

from plot_lib import figures_cdf, figures_faults, figures_study, figures_time, style


def file_name(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "x"


def figure_specs(source):
    """(name, section, builder) for every figure the data may support; a builder returns None when its
    figure would be empty. Per cluster: queueing delay, duration and JCT CDFs, GPU demand, time series;
    then failures; for a study, one figure per varied axis."""
    specs = []
    for cluster in source.clusters():
        c = file_name(cluster)
        specs += [
            (f"queue_delay_cdf_{c}", cluster, lambda cl=cluster: figures_cdf.cdf_figure(source, cl, "queue")),
            (f"duration_cdf_{c}", cluster, lambda cl=cluster: figures_cdf.cdf_figure(source, cl, "duration")),
            (f"jct_cdf_{c}", cluster, lambda cl=cluster: figures_cdf.cdf_figure(source, cl, "jct")),
            (f"gpu_demand_{c}", cluster, lambda cl=cluster: figures_cdf.gpu_demand_figure(source, cl)),
            (f"timeseries_{c}", cluster, lambda cl=cluster: figures_time.timeseries_figure(source, cl)),
        ]
    specs.append(("failures", "failures", lambda: figures_time.failures_figure(source)))
    specs.append(("lost_by_cause", "failures", lambda: figures_faults.lost_by_cause_figure(source)))
    specs.append(("ettr", "failures", lambda: figures_faults.ettr_figure(source)))
    for group in source.axis_groups:
        if len(group.columns) > 1:
            specs.append((f"metrics_by_{file_name(group.title)}", "study",
                          lambda g=group: figures_study.axis_figure(source, g)))
    return specs


def draw_all(source, out_dir, formats):
    """Writes every figure the data supports as OUT/NAME.FORMAT; returns the files written."""
    written = []
    for name, _, build in figure_specs(source):
        fig = build()
        if fig is None:
            continue
        for fmt in formats:
            path = out_dir / f"{name}.{fmt}"
            fig.savefig(path, format=fmt, bbox_inches="tight", metadata=style.file_metadata(fmt))
            written.append(path)
        style.plt.close(fig)
    return written
